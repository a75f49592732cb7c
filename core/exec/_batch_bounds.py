"""A batch's answer bounded as a whole, as a single answer is.

Each step's envelope is bounded on its own (``result_char_limit``), but a
batch of fifty large reads would still answer with most of a megabyte. When
the steps' envelopes together pass the batch's limit, the limit is shared
out: a step smaller than its share keeps all of it, and what it leaves is
shared by the others; each step past its share is cut again, by the same
rules as any answer (longest lists first, then the longest strings), and its
``meta.truncated`` says what was cut, with paths from the step's envelope.
"""

from __future__ import annotations

from typing import Any

from ._results import _dotted, _scrubbed, _writable_text, bound_envelope, bound_result

MORE_IN_A_BATCH = "cut to fit the batch's answer: run this step alone for the rest"
SMALLEST_SHARE = 400
"""Fewest characters a step is cut to: enough for its op, trace id and the first of its result."""


def _size(envelope: Any) -> int:
    # One C pass for the usual envelope; only one that cannot be written as it is (a lone surrogate) is scrubbed first.
    text = _writable_text(envelope)
    return len(text) if text is not None else len(_writable_text(_scrubbed(envelope)) or "")


def shares(sizes: list[int], limit: int) -> list[int]:
    """Each step's bound: its own size when it fits its fair share of ``limit``, the share otherwise (water-filling)."""
    bounds = list(sizes)
    left, waiting = limit, len(sizes)
    for index in sorted(range(len(sizes)), key=sizes.__getitem__):
        share = max(SMALLEST_SHARE, left // waiting)
        if sizes[index] > share:
            bounds[index] = share
        left -= bounds[index]
        waiting -= 1
    return bounds


def bound_batch(answers: list[dict[str, Any]], limit: int) -> list[dict[str, Any]]:
    """The steps' envelopes cut so that together they are about ``limit`` characters of JSON at most."""
    sizes = [_size(answer) for answer in answers]
    if sum(sizes) <= limit:
        return answers
    bounds = shares(sizes, limit)
    return [answer if size <= bound else _cut_step(answer, bound) for answer, size, bound in zip(answers, sizes, bounds)]


def _cut_step(envelope: dict[str, Any], bound: int) -> dict[str, Any]:
    outside = _size({key: value for key, value in envelope.items() if key != "result"})
    budget = bound - outside
    for _ in range(4):
        cut = _cut_step_to(envelope, bound, max(SMALLEST_SHARE // 2, budget))
        over = _size(cut) - bound
        # What the cut adds outside the result (its meta.truncated entries) is known only once made: cut again by that much.
        if over <= 0 or "result" not in envelope or budget <= SMALLEST_SHARE // 2:
            return cut
        budget -= over
    return cut


def _cut_step_to(envelope: dict[str, Any], bound: int, result_budget: int) -> dict[str, Any]:
    step = envelope.get("step")
    meta = envelope.get("meta") if isinstance(envelope.get("meta"), dict) else {}
    earlier = list(meta.get("truncated") or [])
    cuts: list[dict[str, Any]] = []
    cut = dict(envelope)
    if "result" in envelope:
        result, cuts = bound_result(envelope["result"], result_budget)
        cut["result"] = _recount(result, cuts, earlier)
    cut["meta"] = {**meta, "truncated": _merged(earlier, cuts)}
    # Outside the result (an error's details, a diff, warnings) the same rules, to the same bound.
    before = {id(c) for c in cut["meta"]["truncated"]}
    bounded = bound_envelope({key: value for key, value in cut.items() if key != "step"}, bound)
    for entry in bounded.get("meta", {}).get("truncated", []):
        if id(entry) not in before:
            entry["how_to_get_more"] = MORE_IN_A_BATCH
    if step is not None:
        bounded["step"] = step
    return bounded


def _merged(earlier: list[dict[str, Any]], cuts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The step's cuts so far and the batch's, one entry per path, counted against the whole the op answered with."""
    merged = [dict(entry) for entry in earlier]
    by_path = {entry.get("path"): entry for entry in merged}
    for new in cuts:
        new = {**new, "how_to_get_more": MORE_IN_A_BATCH}
        old = by_path.get(new["path"])
        if old is None or old.get("kind") != new.get("kind"):
            merged.append(new)
        elif new["kind"] == "text":
            old.update(shown_chars=min(new["shown_chars"], old.get("shown_chars", new["shown_chars"])), how_to_get_more=MORE_IN_A_BATCH)
        else:
            old.update(shown=min(new["shown"], old.get("shown", new["shown"])), how_to_get_more=MORE_IN_A_BATCH)
    return merged


def _recount(result: Any, cuts: list[dict[str, Any]], earlier: list[dict[str, Any]]) -> Any:
    """A string cut a second time says how much of the op's whole text is missing, not of the cut text it was given."""
    recut = {entry["path"]: entry for entry in earlier if entry.get("kind") == "text"}
    again = {cut["path"]: cut for cut in cuts if cut["kind"] == "text" and cut["path"] in recut}
    if not again:
        return result
    return _rewrite_texts(result, (), again, recut)


def _rewrite_texts(node: Any, path: tuple, again: dict[str, dict[str, Any]], recut: dict[str, dict[str, Any]]) -> Any:
    if isinstance(node, str):
        where = _dotted(path, "result")
        if where not in again:
            return node
        first, second = recut[where], again[where]
        keep = min(second["shown_chars"], first.get("shown_chars", second["shown_chars"]))
        total = first.get("total_chars", second["total_chars"])
        return node[:keep] + f" …[truncated: {total - keep} more characters]"
    if isinstance(node, dict):
        return {key: _rewrite_texts(value, (*path, key), again, recut) for key, value in node.items()}
    if isinstance(node, list):
        return [_rewrite_texts(value, (*path, index), again, recut) for index, value in enumerate(node)]
    return node
