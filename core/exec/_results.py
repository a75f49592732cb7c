"""Shaping answers for a model: a bound on size (the ids touched are ``_entity_ids``'s).

A long result keeps its shape: the longest lists are cut first (with a marker
saying how many items were left out and how to get them), then objects of
more than 64 members, then the longest strings. The rest of the envelope is bounded the same way: an error that
echoes a megabyte of input, a diff of a cascade delete, a thousand field
errors. ``meta.truncated`` says what was cut, each path from the envelope's
top (``result.items``, ``error.details.field_errors``, ``meta.diff.deleted``).
"""

from __future__ import annotations

import json
from typing import Any

from .._json_encoder import encoder_made_once
from ..safe_json import MAX_DEPTH, scrub_text


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, default=str))


_DEEPEST_ANSWER = 4 * MAX_DEPTH
"""Results hold stored values (bounded at 64 levels on the way in) a few levels down; deeper is left as it is."""


_ANSWER_JSON = encoder_made_once(ensure_ascii=False, default=str)
"""``json.dumps(value, ensure_ascii=False, default=str, check_circular=False)``, one encoder for every call (two uses per exec)."""


def _writable_text(value: Any) -> str | None:
    """``value`` as JSON text when it can be written as it is (UTF-8, nothing to scrub); else None.

    One ``json.dumps`` in C tells both the size and whether any text holds a
    lone surrogate (echoed input), which is far cheaper than walking every
    string of a page of rows in Python. A value it cannot serialise (too deep,
    keys that are not JSON) goes the slow way, by :func:`scrub_text`.
    """
    try:
        # Without the circularity check (a tenth of the time): a cycle ends in RecursionError, caught below.
        text = _ANSWER_JSON(value)
    except (TypeError, ValueError, RecursionError):
        return None
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return None
    return text


def _scrubbed(value: Any) -> Any:
    """``value`` with lone surrogates replaced (a fresh copy), or ``value`` itself when nested past any answer."""
    cleaned = scrub_text(value, max_depth=_DEEPEST_ANSWER, too_deep=_TOO_DEEP)
    return value if cleaned is _TOO_DEEP else cleaned


_TOO_DEEP = object()


def _longest_string(tree: Any) -> int:
    """The length of the longest string value in ``tree`` (keys aside), walked without recursion."""
    longest = 0
    stack = [tree]
    while stack:
        node = stack.pop()
        for value in (node.values() if isinstance(node, dict) else node):
            if type(value) is str or isinstance(value, str):  # the exact type first: most values are plain text
                if len(value) > longest:
                    longest = len(value)
            elif isinstance(value, (dict, list)):
                stack.append(value)
    return longest


def _longest_list(node: Any) -> tuple[tuple, list] | None:
    found = _longest_list_sized(node, ())
    return found[:2] if found else None


def _longest_list_sized(node: Any, path: tuple) -> tuple[tuple, list, int] | None:
    # Each list's size is encoded once and carried up: comparing sizes again at every level encoded a
    # list of n lists n times (thousands of unknown arguments' field errors took minutes).
    best: tuple[tuple, list, int] | None = None
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    if isinstance(node, list) and len(node) > 1:
        best = (path, node, _size(node))
    for key, value in children:
        found = _longest_list_sized(value, (*path, key))
        if found and (best is None or found[2] > best[2]):
            best = found
    return best


WIDE_OBJECT = 64
"""Members an object keeps before it is cut like a list: more than any record has fields (an object is cut only past this)."""


def _widest_object(node: Any) -> tuple[tuple, dict] | None:
    """The object with the most members (past :data:`WIDE_OBJECT`) and its path, walked without recursion."""
    best: tuple[tuple, dict] | None = None
    stack: list[tuple[Any, tuple]] = [(node, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            if len(value) > WIDE_OBJECT and (best is None or len(value) > len(best[1])):
                best = (path, value)
            stack.extend((child, (*path, key)) for key, child in value.items() if isinstance(child, (dict, list)))
        elif isinstance(value, list):
            stack.extend((child, (*path, index)) for index, child in enumerate(value) if isinstance(child, (dict, list)))
    return best


def _longest_string_at(node: Any, path: tuple = ()) -> tuple[tuple, str] | None:
    if isinstance(node, str):
        return (path, node)
    best = None
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in children:
        found = _longest_string_at(value, (*path, key))
        if found and (best is None or len(found[1]) > len(best[1])):
            best = found
    return best


def _set(node: Any, path: tuple, value: Any) -> None:
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def _dotted(path: tuple, root: str) -> str:
    return (root + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)).lstrip(".")


def bound_result(result: Any, limit: int, *, root: str = "result") -> tuple[Any, list[dict[str, Any]]]:
    """The result cut down to about ``limit`` characters of JSON, and what was cut (paths start at ``root``).

    The result also comes back writable: lone surrogates (echoed input)
    become U+FFFD, in a copy, so that every transport and the call log can
    write it. A result that needs neither comes back as it is.
    """
    if not isinstance(result, (dict, list)):
        result = _scrubbed(result)
        if isinstance(result, str) and len(result) > limit:
            keep = max(200, limit - 100)
            cut = {"path": root, "kind": "text", "total_chars": len(result), "shown_chars": keep, "how_to_get_more": _MORE_TEXT}
            return result[:keep] + f" …[truncated: {len(result) - keep} more characters]", [cut]
        return result, []
    text = _writable_text(result)
    if text is None:
        result = _scrubbed(result)
    if (len(text) if text is not None else _size(result)) <= limit:
        return result, []
    result = json.loads(json.dumps(result, default=str))
    cuts: list[dict[str, Any]] = []
    cut_texts: dict[str, tuple[dict[str, Any], str]] = {}
    for _ in range(64):
        size = _size(result)
        if size <= limit:
            break
        found = _longest_list(result)
        if found and len(found[1]) > 1:
            path, items = found
            keep = max(1, len(items) // 2)
            _set(result, path, items[:keep]) if path else result.__setitem__(slice(keep, None), [])
            cut = next((c for c in cuts if c["path"] == _dotted(path, root)), None)
            if cut is None:
                cuts.append({"path": _dotted(path, root), "kind": "list", "total": len(items), "shown": keep})
            else:
                cut["shown"] = keep
            continue
        # An object of thousands of members (a map from an upstream, props sent wide) has no list to cut: its members are cut as
        # a list's items are, the first ones kept. Before its strings (thousands cut one a round would never fit), unless one
        # string is much of the size: a record's long text is cut before the record loses fields.
        found_text = _longest_string_at(result)
        wide = None if found_text and len(found_text[1]) >= size // 4 else _widest_object(result)
        if wide is not None:
            path, members = wide
            keep = max(WIDE_OBJECT, len(members) // 2)
            kept = dict(list(members.items())[:keep])
            if path:
                _set(result, path, kept)
            else:
                result.clear()
                result.update(kept)
            cut = next((c for c in cuts if c["path"] == _dotted(path, root)), None)
            if cut is None:
                cuts.append({"path": _dotted(path, root), "kind": "object", "total": len(members), "shown": keep})
            else:
                cut["shown"] = keep
            continue
        if not found_text or len(found_text[1]) < 200:
            break
        path, text = found_text
        where = _dotted(path, root)
        # A string cut before is cut again from its whole text: one entry per string, and a marker that counts the whole.
        earlier, whole = cut_texts.get(where, (None, text))
        shown = earlier["shown_chars"] if earlier else len(text)
        # Straight to about the size that fits, marker included (at least by half): one pass for a megabyte, not twenty.
        # Escapes (newlines, quotes) make a string's JSON longer than the string: the cut is scaled by that ratio, with a
        # little to spare, and a string cut again (the ratio was off) loses only what it must.
        encoded = _size(text)
        fits = (encoded - (size - limit) - len(_cut_marker(len(whole))) - _SPARE) * len(text) // encoded
        keep = max(100, min(shown - (size - limit) if earlier else shown // 2, fits))
        _set(result, path, whole[:keep] + _cut_marker(len(whole) - keep))
        if earlier is None:
            cut = {"path": where, "kind": "text", "total_chars": len(whole), "shown_chars": keep}
            cuts.append(cut)
            cut_texts[where] = (cut, whole)
        else:
            earlier["shown_chars"] = keep
    for cut in cuts:
        cut["how_to_get_more"] = _MORE_TEXT if cut["kind"] == "text" else _MORE_ITEMS
    return result, cuts


_SPARE = 16
"""Characters a text cut leaves unused, so that an uneven string (its escapes bunched at the start) seldom needs a second cut."""


def _cut_marker(removed: int) -> str:
    return f" …[truncated: {removed} more characters]"


_MORE_ITEMS = "narrow the call, or page with limit/offset where the op has them"
_MORE_TEXT = "ask for less (max_chars, a narrower query) or read the item on its own"
_KEPT_META = ("trace_id", "latency_ms", "truncated")


_MAX_TEXT_CUTS_LISTED = 10


def _cap_strings(tree: dict[str, Any], longest: int) -> list[dict[str, Any]]:
    """Cut every string in ``tree`` (in place) to ``longest`` characters first: an echoed input is never worth a field error."""
    cuts: list[dict[str, Any]] = []
    stack: list[tuple[Any, tuple]] = [(tree, ())]
    while stack:
        node, path = stack.pop()
        for key, value in (node.items() if isinstance(node, dict) else enumerate(node)):
            if isinstance(value, str) and len(value) > longest:
                node[key] = value[:longest] + f" …[truncated: {len(value) - longest} more characters]"
                cuts.append({"path": _dotted((*path, key), ""), "kind": "text", "total_chars": len(value), "shown_chars": longest, "how_to_get_more": _MORE_TEXT})
            elif isinstance(value, (dict, list)):
                stack.append((value, (*path, key)))
    if len(cuts) > _MAX_TEXT_CUTS_LISTED:
        cuts = [{"path": "", "kind": "text", "strings": len(cuts), "shown_chars": longest, "how_to_get_more": _MORE_TEXT}]
    return cuts


def _plainly_bounded(envelope: dict[str, Any], limit: int) -> bool:
    """Whether everything outside ``result`` is writable, within ``limit`` characters of JSON, and holds no string past the bound.

    ``meta.entities`` (up to 50 ids, most of a list's envelope) is measured
    on its own, in C, instead of being encoded or walked string by string:
    an id's JSON text is at most six characters per character (``\\uXXXX``)
    and its quotes, and only past that bound is it encoded to be measured.
    """
    meta = envelope.get("meta")
    entities = meta.get("entities") if type(meta) is dict else None
    joined = None
    if type(entities) is list:
        try:
            joined = "".join(entities)
        except TypeError:  # not all text: measured with the rest
            joined = None
    if joined is None:
        body = {key: value for key, value in envelope.items() if key != "result"}
        longest_listed = listed_chars = 0
    else:
        if not joined.isascii():
            try:
                joined.encode("utf-8")
            except UnicodeEncodeError:
                return False  # a lone surrogate: the slow way scrubs it
        body = {key: value for key, value in envelope.items() if key != "result" and key != "meta"}
        body["meta"] = {key: value for key, value in meta.items() if key != "entities"}
        longest_listed = max(map(len, entities), default=0)
        listed_chars = 6 * len(joined) + 4 * len(entities) + len(_ENTITIES_KEY) + 2
    text = _writable_text(body)
    longest = max(200, limit // 16)
    if text is None or longest_listed > longest:
        return False
    if len(text) + listed_chars > limit:
        if joined is None or len(text) + len(_json_text(entities)) + len(_ENTITIES_KEY) > limit:
            return False
    # No string is longer than the JSON text holding it, so a short text needs no walk.
    return len(text) <= longest or _longest_string(body) <= longest


_ENTITIES_KEY = ', "entities": '
"""What ``meta.entities`` adds to the envelope's JSON text besides the list itself."""


_PLAIN_META = frozenset({"trace_id", "latency_ms", "warnings", "entities"})
_PLAIN_OVERHEAD = 200
"""More than the JSON text of a success envelope's fixed parts: its keys, punctuation, ``true`` and the latency."""


def _surely_plain(envelope: dict[str, Any], limit: int) -> bool:
    """Yes-only: a success envelope whose every string outside ``result`` is short ASCII text, so nothing needs measuring.

    The usual answer of a read (the op, the trace id, the warnings and the
    ids, nothing else) is decided here from the strings' lengths alone: ASCII
    text is always writable, and its JSON is at most six characters a
    character (``\\u001f``) and its quotes. False means "ask
    :func:`_plainly_bounded`", which decides every envelope exactly;
    tests/exec/test_envelope_bounds.py checks the two never disagree on a yes.
    """
    # The keys are exactly op, ok, result and meta, asked without comparing a keys view to a set (1 k instructions a call).
    if len(envelope) != 4 or envelope.get("ok") is not True or "op" not in envelope or "result" not in envelope or "meta" not in envelope:
        return False
    return _surely_plain_parts(envelope, limit)


def _surely_plain_parts(envelope: dict[str, Any], limit: int) -> bool:
    """:func:`_surely_plain` of an envelope whose keys are known to be op, ok (true), result and meta: its meta and its strings."""
    meta = envelope["meta"]
    if type(meta) is not dict or not _PLAIN_META.issuperset(meta):
        return False
    warnings, entities = meta.get("warnings", ()), meta.get("entities", ())
    # A float's JSON text is short (an int may be any length); success() rounds the latency to a float.
    if type(warnings) not in (list, tuple) or type(entities) not in (list, tuple) or type(meta.get("latency_ms", 0.0)) is not float:
        return False
    texts = [envelope["op"], meta.get("trace_id", ""), *warnings, *entities]
    try:
        joined = "".join(texts)
    except TypeError:  # something that is not text: measured the exact way
        return False
    if not joined.isascii():
        return False
    if len(joined) > (200 if limit < 3200 else limit // 16) and max(map(len, texts)) > max(200, limit // 16):
        return False  # (no string is longer than all of them joined: the usual short envelope skips the max, 2.4 k instructions)
    return _PLAIN_OVERHEAD + 6 * len(joined) + 6 * len(texts) <= limit


def _json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, check_circular=False)


def bound_envelope(envelope: dict[str, Any], limit: int) -> dict[str, Any]:
    """The final envelope with every part outside ``result`` bounded to about ``limit`` characters, and writable.

    ``result`` was bounded (and made writable) by :func:`bound_result`
    already; here the rest (the op as sent, the error's message and details,
    the diff, the warnings) is cut as one tree, so an answer is never much
    more than twice ``limit`` whatever came in. Every cut is added to
    ``meta.truncated``. Lone surrogates (echoed input) become U+FFFD, so that
    every transport and the call log can write the answer.
    """
    if _surely_plain(envelope, limit) or _plainly_bounded(envelope, limit):
        return envelope  # the common case: nothing to scrub, nothing to cut, no copy
    return _cut_envelope(envelope, limit)


def bound_success(envelope: dict[str, Any], limit: int) -> dict[str, Any]:
    """:func:`bound_envelope` of an envelope :func:`~._envelope.success` made: its keys (op, ok true, result, meta) need not be asked."""
    if _surely_plain_parts(envelope, limit) or _plainly_bounded(envelope, limit):
        return envelope
    return _cut_envelope(envelope, limit)


def _cut_envelope(envelope: dict[str, Any], limit: int) -> dict[str, Any]:
    """:func:`bound_envelope`'s cuts, for an envelope that needs measuring."""
    body = {key: value for key, value in envelope.items() if key != "result"}
    longest = max(200, limit // 16)
    # Cuts below change strings in place: they work on a scrubbed copy, never on the caller's objects.
    envelope = {**envelope, **_scrubbed(body)}
    meta = envelope.get("meta") if isinstance(envelope.get("meta"), dict) else {}
    rest = {key: value for key, value in envelope.items() if key not in ("result", "meta")}
    rest["meta"] = {key: value for key, value in meta.items() if key not in _KEPT_META}
    cuts = _cap_strings(rest, longest)
    bounded, more_cuts = bound_result(rest, limit, root="")
    cuts += more_cuts
    if not cuts:
        return envelope
    shaped = {key: bounded[key] if key in bounded else value for key, value in envelope.items() if key != "meta"}
    shaped["meta"] = {**{key: meta[key] for key in _KEPT_META if key in meta}, **bounded["meta"]}
    shaped["meta"]["truncated"] = [*meta.get("truncated", []), *cuts]
    return shaped
