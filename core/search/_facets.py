"""The facets of a request: the things it asks for when it asks for several.

"create a task and link it to the goal", "weather tomorrow, a table for two",
"set up a project with a goal and a plan", "I'm off to Lisbon. Find me a
hotel and things to do there": each part that asks for something of its own
is a facet, scored as a query of its own (see ``SearchIndex._ranked``), so
that the best op of each part is in the answer and not only the ops the
whole request's words favour.

A request is cut at sentence ends, semicolons and colons, then at commas
and the words that chain requests ("and", "then", "also", "plus", "as well
as", "&", "+"). A part is a facet when it asks for something: it starts
with a verb and says what on, or it names a kind of thing the vocabulary
knows. A short verb-less part that names such a thing ("...and the goals")
borrows the verb before it; other verb-less parts belong to the part before
them (a list of attributes, the second half of a topic) or are context (a
sentence that asks nothing). Inside a part, "with" starts a facet of its
own when what follows names another kind of thing than what precedes it
("a project with a goal"). Repeats are dropped. One facet means a
single-intent request: the ranking is then exactly the whole request's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ._tokens import STOPWORDS, words

VerbAtStart = Callable[[str], tuple[str | None, str]]

# Sentence ends (not inside "3.5" or "e.g."), semicolons and colons.
_SENTENCES = re.compile(r"(?<=[^\s.\d][.?!])\s+|[;:]\s+|\n+")
_CHAINS = re.compile(r"\s*(?:,\s*(?:and\s+|then\s+|and\s+then\s+)?|\s&\s|\s\+\s|\b(?:and then|and also|as well as|after that|and|then|also|plus)\b)\s*")
_WITH = re.compile(r"\s+with\s+")
# What people put before the verb: "can you", "please", "I need to"...
_POLITE = re.compile(r"^(?:(?:(?:can|could|would|will) you|please|kindly|(?:i|we) (?:need|want|would like|'d like|wish) (?:you )?to|help me|let's|also|now|first|finally|next)\s+)*")
# Words that point back at a thing named earlier in the request.
_REFERENCE = re.compile(r"\b(?:it|one|another|them|those|these|this|that)\b")
# A verb-less part of at most this many words borrows the verb before it ("list the tasks and the goals").
BORROW_UP_TO = 4
# More facets than this are mostly a long story's sentences; the first ones are kept.
MAX_FACETS = 5


def split_facets(text: str, verb_at_start: VerbAtStart, kinds_named: Callable[[str], frozenset[str]]) -> tuple[str, ...]:
    """The facets of a normalized request (see the module docstring); ``(text,)`` when it asks for one thing.

    ``verb_at_start`` gives the verb a part starts with (or None) and the
    part with that verb spelled right; ``kinds_named`` the kinds of things a
    part names ("task", "goal").
    """
    if _SENTENCES.search(text) is None and _CHAINS.search(text) is None and _WITH.search(text) is None:
        # Nothing to cut at: one part, so one facet (most requests; the reading below costs more than a ranking's rules).
        return (text,)
    found: list[str] = []
    for sentence in _SENTENCES.split(text):
        found.extend(_sentence_facets(sentence, verb_at_start, kinds_named))
    found = _referents_named(found, kinds_named)
    facets = list(dict.fromkeys(found))
    if len(facets) < 2:
        return (text,)
    return tuple(facets[:MAX_FACETS])


def _sentence_facets(sentence: str, verb_at_start: VerbAtStart, kinds_named: Callable[[str], frozenset[str]]) -> list[str]:
    """The parts of one sentence that ask for something.

    A part asks when it starts with a verb (after "can you", "please"...)
    and says what on, or names a kind of thing the catalogue knows. Other
    parts ("including their names", "and overall sentiment") belong to the
    part before them; a sentence that asks nothing ("as a user, ...") is
    context, which the whole request's ranking reads.
    """
    parts: list[tuple[str, bool]] = []
    lead: str | None = None
    for piece in _CHAINS.split(sentence):
        piece = _POLITE.sub("", piece.strip(" ,.!?\"'"))
        if not _has_content(piece):
            continue
        verb, piece = verb_at_start(piece)
        if verb is not None:
            lead = verb
            if not _has_content(piece[len(verb):]):
                continue  # "find and retrieve the posts": the verb alone asks for nothing
        elif lead is not None and len(piece.split()) <= BORROW_UP_TO and kinds_named(piece):
            # "list the tasks and the goals"; a list of attributes ("their names, authors") borrows nothing.
            piece = f"{lead} {piece}"
        asks = verb is not None or bool(kinds_named(piece))
        for part in _with_parts(piece, verb or (lead if asks else None), kinds_named):
            if asks or not parts:
                parts.append((part, asks))
            else:
                parts[-1] = (f"{parts[-1][0]} {part}", parts[-1][1])
    return [part for part, asks in parts if asks]


def _referents_named(facets: list[str], kinds_named: Callable[[str], frozenset[str]]) -> list[str]:
    """ "create a task and then mark it done": a facet that points back ("it", "one") names the kind of thing named before it."""
    named: list[str] = []
    last: frozenset[str] = frozenset()
    for facet in facets:
        kinds = kinds_named(facet)
        if not kinds and len(last) == 1 and _REFERENCE.search(facet):
            facet = f"{facet} {next(iter(last))}"
        elif kinds:
            last = kinds
        named.append(facet)
    return named


def _with_parts(piece: str, verb: str | None, kinds_named: Callable[[str], frozenset[str]]) -> list[str]:
    """``piece`` cut at "with" where what follows names another kind of thing ("a project with a goal and a plan")."""
    parts = _WITH.split(piece)
    if len(parts) < 2:
        return [piece]
    kept = [parts[0]]
    for part in parts[1:]:
        before, after = kinds_named(kept[-1]), kinds_named(part)
        if before and after and not after <= before:
            kept.append(f"{verb} {part}" if verb and not part.startswith(verb) else part)
        else:
            kept[-1] = f"{kept[-1]} with {part}"
    return kept


def _has_content(piece: str) -> bool:
    return any(w not in STOPWORDS for w in words(piece))
