"""BERT's uncased WordPiece tokenizer, from a ``vocab.txt``, in plain Python.

What ``BertTokenizer`` (``do_lower_case``, ``tokenize_chinese_chars``) does:
clean the text (drop control characters, turn every whitespace into a
space), put spaces around CJK ideographs, lower-case and strip accents,
split on whitespace and punctuation, then cut each word greedily into the
longest pieces the vocabulary knows ("##" marks a piece inside a word). A
word longer than 100 characters, or one that cannot be cut, is ``[UNK]``.
``tests/search/test_minilm.py`` checks the ids against the ``tokenizers``
package's on a set of sentences.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

MAX_WORD_CHARS = 100


def _is_punctuation(char: str) -> bool:
    # BERT counts every non-alphanumeric ASCII character as punctuation ("$", "^", "`" are symbols in Unicode).
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def _is_cjk(code: int) -> bool:
    return (
        0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0x20000 <= code <= 0x2A6DF or 0x2A700 <= code <= 0x2B73F
        or 0x2B740 <= code <= 0x2B81F or 0x2B820 <= code <= 0x2CEAF or 0xF900 <= code <= 0xFAFF or 0x2F800 <= code <= 0x2FA1F
    )


def _cleaned(text: str) -> str:
    out: list[str] = []
    for char in text:
        code = ord(char)
        if code == 0 or code == 0xFFFD:
            continue
        if char in " \t\n\r" or unicodedata.category(char) == "Zs":
            out.append(" ")
        elif unicodedata.category(char).startswith("C"):
            continue
        elif _is_cjk(code):
            out.append(f" {char} ")
        else:
            out.append(char)
    return "".join(out)


def _words(text: str) -> list[str]:
    """Lower-cased, accent-free words and punctuation marks, one each."""
    text = unicodedata.normalize("NFD", _cleaned(text).lower())
    text = "".join(c for c in text if unicodedata.category(c) != "Mn")
    words: list[str] = []
    for chunk in text.split():
        start = 0
        for i, char in enumerate(chunk):
            if _is_punctuation(char):
                if i > start:
                    words.append(chunk[start:i])
                words.append(char)
                start = i + 1
        if start < len(chunk):
            words.append(chunk[start:])
    return words


class WordPiece:
    """Text to BERT input ids: ``[CLS]`` pieces ``[SEP]``, at most ``max_length`` ids in all."""

    def __init__(self, vocab: dict[str, int], max_length: int = 256):
        self.vocab = vocab
        self.max_length = max_length
        self.unk = vocab["[UNK]"]
        self.cls = vocab["[CLS]"]
        self.sep = vocab["[SEP]"]
        # Words repeat across op descriptions and queries: each is cut once.
        self._pieces = lru_cache(maxsize=65536)(self._cut)

    @classmethod
    def from_vocab_file(cls, path: Path, max_length: int = 256) -> WordPiece:
        lines = path.read_text(encoding="utf-8").splitlines()
        return cls({token: i for i, token in enumerate(lines)}, max_length)

    def _cut(self, word: str) -> tuple[int, ...]:
        if len(word) > MAX_WORD_CHARS:
            return (self.unk,)
        pieces: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.vocab.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return (self.unk,)
            pieces.append(found)
            start = end
        return tuple(pieces)

    def ids(self, text: str) -> list[int]:
        pieces: list[int] = [self.cls]
        room = self.max_length - 1
        for word in _words(text):
            pieces.extend(self._pieces(word))
            if len(pieces) >= room:
                del pieces[room:]
                break
        pieces.append(self.sep)
        return pieces
