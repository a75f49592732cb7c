"""The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980).

Written here rather than taken from a package so that ``opgate.core`` stays
free of extra dependencies. It follows Porter's own reference implementation,
including its two published departures from the paper (``bli`` -> ``ble`` and
``logi`` -> ``log`` in step 2), and takes Porter2's short list of exceptional
forms. Stems are not words ("leagu", "sharpli"): they
only have to agree between the catalogue and the query.
"""

from __future__ import annotations

from functools import lru_cache

_VOWELS = frozenset("aeiou")
# Porter2's exceptional forms: without them "news" would stem to "new".
_EXCEPTIONS = {
    "news": "news", "atlas": "atlas", "cosmos": "cosmos", "bias": "bias", "andes": "andes",
    "skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie",
    "only": "only", "early": "early", "ugly": "ugly", "idly": "idl", "gently": "gentl", "singly": "singl",
}

_STEP2 = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize",
    "bli": "ble", "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous",
    "ization": "ize", "ation": "ate", "ator": "ate", "alism": "al", "iveness": "ive",
    "fulness": "ful", "ousness": "ous", "aliti": "al", "iviti": "ive", "biliti": "ble",
    "logi": "log",
}
_STEP3 = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": ""}
_STEP4 = frozenset({
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
    "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
})
# Suffix lengths to try, longest first, so the longest matching suffix wins.
_SUFFIX_SIZES = (7, 6, 5, 4, 3, 2)


def _is_consonant(word: str, i: int) -> bool:
    letter = word[i]
    if letter in _VOWELS:
        return False
    if letter == "y":
        return i == 0 or not _is_consonant(word, i - 1)
    return True


def _measure(stem: str) -> int:
    """m in [C](VC){m}[V]: how many vowel-consonant runs the stem has."""
    m = 0
    previous_vowel = False
    for i in range(len(stem)):
        consonant = _is_consonant(stem, i)
        if consonant and previous_vowel:
            m += 1
        previous_vowel = not consonant
    return m


def _has_vowel(stem: str) -> bool:
    return any(not _is_consonant(stem, i) for i in range(len(stem)))


def _double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _is_consonant(word, len(word) - 1)


def _cvc(word: str) -> bool:
    """Ends consonant-vowel-consonant, the last not w, x or y (as in hop, not in snow)."""
    if len(word) < 3:
        return False
    last = len(word) - 1
    return (
        _is_consonant(word, last) and not _is_consonant(word, last - 1) and _is_consonant(word, last - 2)
        and word[-1] not in "wxy"
    )


def _replace_longest(word: str, rules: dict[str, str], min_measure: int) -> str:
    """Applies the rule with the longest matching suffix, if its stem is long enough; only that rule is tried."""
    for size in _SUFFIX_SIZES:
        suffix = word[-size:]
        if suffix in rules:
            stem = word[:-size]
            return stem + rules[suffix] if _measure(stem) > min_measure else word
    return word


def _step1ab(word: str) -> str:
    if word.endswith("sses") or word.endswith("ies"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if word.endswith("eed"):
        return word[:-1] if _measure(word[:-3]) > 0 else word
    for suffix in ("ed", "ing"):
        if word.endswith(suffix) and _has_vowel(word[: -len(suffix)]):
            word = word[: -len(suffix)]
            if word.endswith(("at", "bl", "iz")):
                return word + "e"
            if _double_consonant(word) and word[-1] not in "lsz":
                return word[:-1]
            if _measure(word) == 1 and _cvc(word):
                return word + "e"
            return word
    return word


def _step1c(word: str) -> str:
    return word[:-1] + "i" if word.endswith("y") and _has_vowel(word[:-1]) else word


def _step4(word: str) -> str:
    for size in _SUFFIX_SIZES:
        suffix = word[-size:]
        if suffix in _STEP4:
            stem = word[:-size]
            if suffix == "ion" and not stem.endswith(("s", "t")):
                return word
            return stem if _measure(stem) > 1 else word
    return word


def _step5(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        m = _measure(stem)
        if m > 1 or (m == 1 and not _cvc(stem)):
            word = stem
    if word.endswith("ll") and _measure(word) > 1:
        word = word[:-1]
    return word


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Porter stem of a lower-case word; words of one or two letters stay as they are."""
    if len(word) <= 2 or not word.isalpha():
        return word
    if word in _EXCEPTIONS:
        return _EXCEPTIONS[word]
    word = _step1ab(word)
    word = _step1c(word)
    word = _replace_longest(word, _STEP2, 0)
    word = _replace_longest(word, _STEP3, 0)
    word = _step4(word)
    return _step5(word)
