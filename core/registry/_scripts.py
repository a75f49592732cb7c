"""Letters outside the Latin alphabet, spelled in ASCII so that an op stays plain dotted words.

Greek follows ELOT 743 / ISO 843 (its transcription of the diphthongs
``ου``, ``αυ``, ``ευ`` and of ``γγ``, ``γκ``, ``μπ`` included); Cyrillic
follows BGN/PCGN (Russian, with the Ukrainian, Belarusian, Serbian and
Macedonian letters). Letters of scripts with no single ASCII scheme (Han,
kana, Hangul, Arabic, Hebrew, Devanagari...) are spelled by code point,
``u`` and the hex digits (``搜索`` is ``u641cu7d22``): unreadable to most,
but stable, and distinct for distinct names. Before, every such letter was
dropped: an upstream whose tools were all named in Chinese gave one op
name, ``_``, and the others ``_2``, ``_3`` in an order that moved whenever
a tool was added.

Changing a table renames the ops of catalogues that use its letters.
"""

from __future__ import annotations

import re
import unicodedata

_CYRILLIC = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z", "и": "i", "й": "y",
    "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f",
    "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu", "я": "ya",
    # Ukrainian, Belarusian
    "є": "ye", "і": "i", "ї": "yi", "ґ": "g", "ў": "w",
    # Serbian, Macedonian
    "ђ": "dj", "ј": "j", "љ": "lj", "њ": "nj", "ћ": "c", "џ": "dz", "ѓ": "gj", "ќ": "kj", "ѕ": "dz",
}
_GREEK = {
    "α": "a", "β": "v", "γ": "g", "δ": "d", "ε": "e", "ζ": "z", "η": "i", "θ": "th", "ι": "i", "κ": "k", "λ": "l",
    "μ": "m", "ν": "n", "ξ": "x", "ο": "o", "π": "p", "ρ": "r", "σ": "s", "ς": "s", "τ": "t", "υ": "y", "φ": "f",
    "χ": "ch", "ψ": "ps", "ω": "o",
}
# Pairs spelled as one sound; a diaeresis on the second letter (ϋ) keeps them apart.
_GREEK_PAIRS = {"ου": "ou", "αυ": "av", "ευ": "ev", "ηυ": "iv", "γγ": "ng", "γκ": "gk", "γξ": "nx", "γχ": "nch", "μπ": "mp", "ντ": "nt"}


_GREEK_RUN = re.compile("[\u0386-\u03ce\u1f00-\u1ffc]+")  # Greek letters, with their accents and breathings
_CYRILLIC_LETTERS = re.compile("[" + "".join(_CYRILLIC) + "".join(_CYRILLIC).upper() + "]+")
_NOT_ASCII = re.compile(r"[^\x00-\x7f]+")
_BEFORE_DIAERESIS = re.compile("(?=.\u0308)")


def _spelled_word(text: str, table: dict[str, str], pairs: dict[str, str] | None = None) -> str:
    """A run of one script's letters in ASCII, in the run's case: ``ЖУРНАЛ`` is ``ZHURNAL``, ``Журнал`` ``Zhurnal``.

    Capitalising only the first letter of a spelled capital (``ZhURNAL``)
    would put a word boundary inside the word for the camel-case split.
    """
    out: list[str] = []
    start = 0
    while start < len(text):
        end = start + 2 if pairs and text[start:start + 2].lower() in pairs else start + 1
        piece = text[start:end]
        spelled = pairs[piece.lower()] if pairs and end - start == 2 else table.get(piece.lower(), "")
        if piece[0].isupper():
            neighbour = text[end:end + 1] or text[start - 1:start]
            spelled = spelled.upper() if neighbour.isupper() else spelled.capitalize()
        out.append(spelled)
        start = end
    return "".join(out)


def _greek(run: re.Match[str]) -> str:
    # A diaeresis says its letter starts a new syllable (αϋ is a-y, αυ is av): the pairs are read within each part.
    parts = _BEFORE_DIAERESIS.split(unicodedata.normalize("NFD", run.group()))
    return "".join(_spelled_word("".join(c for c in part if not unicodedata.combining(c)), _GREEK, _GREEK_PAIRS) for part in parts)


def _others(run: re.Match[str]) -> str:
    """Latin letters folded (accents, ligatures, full-width forms); letters of other scripts spelled by code point.

    A run of code points stands apart from the letters around it ("get用户"
    is the words get and u7528u6237); a mark of such a letter (a Devanagari
    vowel sign, kana's voicing) is spelled with it, so that names differing
    only by one stay distinct.
    """
    out: list[str] = []
    spelled: list[str] = []

    def close() -> None:
        if spelled:
            out.append(f" {''.join(spelled)} ")
            spelled.clear()

    for char in run.group():
        category = unicodedata.category(char)
        folded = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
        if category[0] == "M" and spelled:
            spelled.append(f"u{ord(char):x}")
        elif folded.isascii():
            close()
            out.append(folded)
        elif category == "Nd":
            spelled.append(str(unicodedata.digit(char)))
        elif category[0] in "LN":
            spelled.append(f"u{ord(char):x}")
        else:
            close()
            out.append(" ")
    close()
    return "".join(out)


def spelled_in_ascii(name: str) -> str:
    """``name`` with its Greek and Cyrillic letters transliterated, accents dropped, other letters by code point.

    ``name`` has had its Latin letters that do not decompose spelled out
    already (``ß`` is ``ss``); what is left that is not ASCII is punctuation
    or a symbol, and becomes a space.
    """
    text = unicodedata.normalize("NFC", name)
    text = _CYRILLIC_LETTERS.sub(lambda m: _spelled_word(m.group(), _CYRILLIC), text)
    text = _GREEK_RUN.sub(_greek, text)
    return _NOT_ASCII.sub(_others, text)
