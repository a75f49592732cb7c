"""Text to search terms: split words, drop stopwords, stem.

The same function turns op text and queries into terms, so both sides agree.
Identifiers are split at dots, underscores, dashes and camelCase humps
(``CreateBulkConsents`` -> create, bulk, consents); a camelCase word also keeps
its joined form so that "youtube" matches "YouTube" as well as "you tube".
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ._stem import stem

# Letters and digits of any script; "_" splits words (snake_case names).
_RAW_WORD = re.compile(r"[^\W_]+")
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")

# The usual English stopword list (Snowball's), with what is left of a contraction
# once its apostrophe splits it ("don't" -> don, "I've" -> ve). Extra
# request glue ("please", "want", "would like") was tried and made no difference:
# such words are in few ops, and BM25's IDF already discounts the rest.
STOPWORDS = frozenset(
    ["a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours", "yourself", "yourselves", "don", "didn", "doesn", "isn", "wasn", "weren", "aren", "haven", "hasn", "hadn", "couldn", "shouldn", "wouldn", "ve", "ll", "re"]
)


# Phrases whose words are stopwords or mean little apart ("to-do" is "to" and
# "do"), or mean something else apart ("get rid of"): one word before
# splitting, on both sides of the search.
COMPOUNDS = {
    "to-do": "todo", "to-dos": "todos", "to do list": "todo list", "to-do's": "todos",
    "set up": "setup", "set-up": "setup", "log in": "login", "log-in": "login", "log out": "logout",
    "sign in": "signin", "sign up": "signup", "sign-up": "signup", "sign out": "signout",
    "check in": "checkin", "check-in": "checkin", "check out": "checkout", "check-out": "checkout",
    "e-mail": "email", "e-mails": "emails", "follow up": "followup", "follow-up": "followup",
    "back up": "backup", "opt out": "optout", "opt-out": "optout", "opt in": "optin", "opt-in": "optin",
    "web page": "webpage", "web pages": "webpages", "web site": "website",
    # Phrasal verbs whose first word would read as another action ("get").
    "get rid of": "remove", "throw away": "discard", "throw out": "discard",
}
_COMPOUND = re.compile(r"(?<![\w-])(" + "|".join(re.escape(c) for c in sorted(COMPOUNDS, key=len, reverse=True)) + r")(?![\w-])", re.IGNORECASE)


def join_compounds(text: str) -> str:
    """ "Add a to-do" -> "Add a todo"; see ``COMPOUNDS``."""
    if "-" not in text and " " not in text:
        return text
    return _COMPOUND.sub(lambda m: COMPOUNDS[m.group(1).lower()], text)


def _fold_accents(text: str) -> str:
    """"Ünïcode" -> "Unicode", so that accented and plain spellings meet; other scripts stay as they are."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=16384)
def words(text: str) -> tuple[str, ...]:
    """Lower-case words of ``text``, camelCase split (the joined form kept as well). Cached, like :func:`terms`."""
    text = join_compounds(_fold_accents(text))
    if not _CAMEL_BOUNDARY.search(text):
        return tuple(_RAW_WORD.findall(text.lower()))
    found: list[str] = []
    for raw in _RAW_WORD.findall(text):
        lower = raw.lower()
        found.append(lower)
        if lower != raw and not raw.isupper():
            parts = _CAMEL_BOUNDARY.split(raw)
            if len(parts) > 1:
                found.extend(p.lower() for p in parts)
    return tuple(found)


@lru_cache(maxsize=65536)
def term_of(word: str) -> str | None:
    """The search term of one lower-case word, or None for a stopword or a lone letter."""
    if word in STOPWORDS or (len(word) < 2 and not word.isdigit()):
        return None
    return stem(word)


@lru_cache(maxsize=16384)
def terms(text: str) -> tuple[str, ...]:
    """Stemmed, stopword-free terms of ``text``, in order, repeats kept (they are term frequencies).

    Cached: catalogues repeat the same argument descriptions across hundreds
    of ops ("The SID of the Account that created the resource").
    """
    found = []
    for word in words(text):
        term = term_of(word)
        if term is not None:
            found.append(term)
    return tuple(found)


# A run-together name word is split only from this length, into pieces of at least this many letters.
JOINED_MIN_LENGTH = 6
JOINED_MIN_PIECE = 3


def split_joined(word: str, vocabulary: frozenset[str] | set[str]) -> tuple[str, ...]:
    """A run-together word in as few ``vocabulary`` words as possible ("wordcloud" -> word, cloud), or ().

    Tool names are often written as one word ("imagesearch", "exportchat");
    the catalogue's own descriptions say which words they are made of. A
    word the vocabulary already has, or that does not split wholly into its
    words, stays as it is.
    """
    if len(word) < JOINED_MIN_LENGTH or word in vocabulary or not word.isalpha():
        return ()
    best: dict[int, tuple[str, ...] | None] = {len(word): ()}
    for start in range(len(word) - JOINED_MIN_PIECE, -1, -1):
        found = None
        for end in range(start + JOINED_MIN_PIECE, len(word) + 1):
            rest = best.get(end)
            if rest is not None and word[start:end] in vocabulary and (found is None or len(rest) + 1 < len(found)):
                found = (word[start:end], *rest)
        best[start] = found
    pieces = best.get(0)
    return pieces if pieces and len(pieces) > 1 else ()
