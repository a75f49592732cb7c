"""Expectations: reading ``[expect]`` from a saved call, and checking an envelope against it.

``[expect]`` holds ``ok = true`` or ``error = "CODE"``; ``[expect.result]``
maps places in the result to values; ``[expect.diff]`` gives the shape of the
diff. A place is a JSON pointer (``"/tasks/0/title"``) or a path
(``"tasks[0].title"``). A value is matched exactly, or by a table of
matchers: ``{ exists = true }``, ``{ length = 3 }``, ``{ min_length = 1 }``,
``{ contains = "API" }``, ``{ type = "string" }``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..exec._errors import ERROR_CODES
from ..jsonpointer import MISSING, resolve_local_ref
from ._errors import problem
from ._model import Expectation

EXPECT_KEYS = {"ok", "error", "result", "diff"}
DIFF_BY_KIND = ("created", "updated", "deleted")
DIFF_COUNTED = ("edges_added", "edges_removed", "links_added", "links_removed")
MATCHERS = {"exists", "length", "min_length", "contains", "type"}
JSON_TYPES = {"string": str, "integer": int, "number": (int, float), "boolean": bool, "array": list, "object": dict, "null": type(None)}
_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*((?:\.[A-Za-z_][A-Za-z0-9_\-]*|\[\d+\])*)$")
_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_\-]*)|\[(\d+)\]")


@dataclass(frozen=True)
class Check:
    """One expectation checked: ``what`` was expected, whether it ``passed``, and ``detail`` (what was found)."""

    what: str
    passed: bool
    detail: str = ""


# -- reading ---------------------------------------------------------------------------------


def _is_matcher(value: Any) -> bool:
    return isinstance(value, dict) and bool(value) and set(value) <= MATCHERS


def _check_matcher(file: str, key: str, matcher: dict[str, Any]) -> list[str]:
    found = []
    for name, wanted in matcher.items():
        if name == "exists" and not isinstance(wanted, bool):
            found.append(problem(file, key, "exists must be true or false"))
        if name in ("length", "min_length") and (isinstance(wanted, bool) or not isinstance(wanted, int) or wanted < 0):
            found.append(problem(file, key, f"{name} must be a whole number 0 or more"))
        if name == "type" and wanted not in JSON_TYPES:
            found.append(problem(file, key, f"type must be one of {', '.join(JSON_TYPES)}"))
    return found


def _valid_place(place: str) -> bool:
    return place.startswith("/") or bool(_PATH.fullmatch(place))


def _result_problems(file: str, table: Any) -> list[str]:
    if not isinstance(table, dict):
        return [problem(file, "expect.result", "must be a table: \"/json/pointer\" = value, or path.to[0].field = value")]
    found = []
    for place, wanted in table.items():
        key = f"expect.result.{place}" if _PATH.fullmatch(place) else f"expect.result.{json.dumps(place, ensure_ascii=False)}"
        if not _valid_place(place):
            found.append(problem(file, key, "is neither a JSON pointer (starting with /) nor a path like tasks[0].title"))
        elif _is_matcher(wanted):
            found.extend(_check_matcher(file, key, wanted))
    return found


def _count_ok(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _diff_problems(file: str, table: Any) -> list[str]:
    if not isinstance(table, dict):
        return [problem(file, "expect.diff", "must be a table such as created = { task = 1 }")]
    found = []
    for key, wanted in table.items():
        where = f"expect.diff.{key}"
        if key in DIFF_BY_KIND:
            if not isinstance(wanted, dict) or not all(_count_ok(n) for n in wanted.values()):
                found.append(problem(file, where, "must be a table of counts by kind, e.g. { task = 1 } ({} for none)"))
        elif key in DIFF_COUNTED:
            if not _count_ok(wanted):
                found.append(problem(file, where, "must be a whole number 0 or more"))
        else:
            found.append(problem(file, where, f"is not a part of a diff; expected one of {', '.join(DIFF_BY_KIND + DIFF_COUNTED)}"))
    return found


def parse_expectation(file: str, raw: Any, problems: list[str]) -> Expectation:
    """The ``[expect]`` table of ``file`` (absent: the call must answer ok); problems are appended."""
    if raw is None:
        return Expectation()
    if not isinstance(raw, dict):
        problems.append(problem(file, "expect", "must be a table ([expect] ok = true)"))
        return Expectation()
    before = len(problems)
    problems.extend(problem(file, f"expect.{k}", f"is not a known key; expected one of {', '.join(sorted(EXPECT_KEYS))}") for k in raw if k not in EXPECT_KEYS)
    ok, error = raw.get("ok"), raw.get("error")
    if ok is not None and not isinstance(ok, bool):
        problems.append(problem(file, "expect.ok", "must be true or false"))
    if error is not None and error not in ERROR_CODES:
        problems.append(problem(file, "expect.error", f"must be an error code: {', '.join(ERROR_CODES)}"))
    if ok is True and error is not None:
        problems.append(problem(file, "expect.error", "contradicts ok = true; keep one of them"))
    if ok is False and error is None:
        problems.append(problem(file, "expect.ok", "false needs the error code it should fail with: error = \"NOT_FOUND\""))
    if error is not None and ("result" in raw or "diff" in raw):
        problems.append(problem(file, "expect.error", "a failing call has no result or diff to check; drop [expect.result] and [expect.diff]"))
    problems.extend(_result_problems(file, raw.get("result", {})))
    problems.extend(_diff_problems(file, raw.get("diff", {})))
    if len(problems) > before:
        return Expectation()
    return Expectation(error, dict(raw.get("result", {})), dict(raw.get("diff", {})), stated=True)


# -- checking ---------------------------------------------------------------------------------


def lookup(result: Any, place: str) -> Any:
    """The value at a pointer or path in ``result``, or :data:`MISSING`."""
    if place.startswith("/"):
        return resolve_local_ref(result, "#" + place)
    first = place.split(".", 1)[0].split("[", 1)[0]
    node: Any = result
    for name, index in [(first, ""), *_PART.findall(place[len(first):])]:
        if name:
            if not isinstance(node, dict) or name not in node:
                return MISSING
            node = node[name]
        else:
            position = int(index)
            if not isinstance(node, list) or position >= len(node):
                return MISSING
            node = node[position]
    return node


def same(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, and 3 is 3.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def _shown(value: Any, limit: int = 80) -> str:
    text = "(absent)" if value is MISSING else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _match(found: Any, wanted: Any) -> tuple[bool, str]:
    if not _is_matcher(wanted):
        return (found is not MISSING and same(found, wanted)), f"found {_shown(found)}"
    for name, target in wanted.items():
        if name == "exists" and (found is not MISSING) != target:
            return False, f"found {_shown(found)}"
        if found is MISSING and name != "exists":
            return False, "found (absent)"
        if name in ("length", "min_length"):
            if not isinstance(found, (list, dict, str)):
                return False, f"found {_shown(found)}, which has no length"
            if (len(found) != target) if name == "length" else (len(found) < target):
                return False, f"found length {len(found)}"
        if name == "contains" and not _contains(found, target):
            return False, f"found {_shown(found)}"
        if name == "type":
            kind = JSON_TYPES[target]
            if (isinstance(found, bool) and target != "boolean") or not isinstance(found, kind):
                return False, f"found {_shown(found)}"
    if "length" in wanted or "min_length" in wanted:
        return True, f"found length {len(found)}"
    return True, f"found {_shown(found)}"


def _contains(found: Any, target: Any) -> bool:
    if isinstance(found, str):
        return isinstance(target, str) and target in found
    if isinstance(found, list):
        return any(same(item, target) for item in found)
    if isinstance(found, dict):
        return isinstance(target, str) and target in found
    return False


def _outcome(expect: Expectation, envelope: dict[str, Any]) -> Check:
    error = envelope.get("error") or {}
    actual = "ok" if envelope.get("ok") else str(error.get("code", "error"))
    wanted = expect.error or "ok"
    detail = f"answered {actual}" + ("" if envelope.get("ok") else f": {error.get('message', '')}")
    return Check(f"answers {wanted}", actual == wanted, detail)


def _counts(entries: Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    for entry in entries if isinstance(entries, list) else []:
        kind = str(entry.get("kind", "?")) if isinstance(entry, dict) else "?"
        counts[kind] = counts.get(kind, 0) + 1
    return counts


def _diff_checks(expect: Expectation, envelope: dict[str, Any]) -> list[Check]:
    diff = (envelope.get("meta") or {}).get("diff") or {}
    checks = []
    for key, wanted in expect.diff.items():
        if key in DIFF_BY_KIND:
            found = _counts(diff.get(key))
            wanted_counts = {k: n for k, n in wanted.items() if n}
            text = ", ".join(f"{n} {k}" for k, n in sorted(wanted_counts.items())) or "nothing"
            checks.append(Check(f"diff {key}: {text}", found == wanted_counts, f"found {', '.join(f'{n} {k}' for k, n in sorted(found.items())) or 'nothing'}"))
        else:
            found_n = len(diff.get(key) or [])
            checks.append(Check(f"diff {key}: {wanted}", found_n == wanted, f"found {found_n}"))
    return checks


def check_envelope(expect: Expectation, envelope: dict[str, Any]) -> list[Check]:
    """Every expectation of a call checked against its envelope; the first check is always the outcome."""
    checks = [_outcome(expect, envelope)]
    if not envelope.get("ok"):
        checks.extend(Check(f"result {place}", False, "no result: the call failed") for place in expect.result)
        checks.extend(Check(f"diff {key}", False, "no diff: the call failed") for key in expect.diff)
        return checks
    result = envelope.get("result")
    for place, wanted in expect.result.items():
        passed, detail = _match(lookup(result, place), wanted)
        shown = ", ".join(f"{k} {_shown(v)}" for k, v in wanted.items()) if _is_matcher(wanted) else f"= {_shown(wanted)}"
        checks.append(Check(f"result {place} {shown}", passed, detail))
    checks.extend(_diff_checks(expect, envelope))
    return checks


def recorded_expectation(envelope: dict[str, Any] | None) -> dict[str, Any] | None:
    """An ``[expect]`` table that holds what ``envelope`` answered: its outcome and, for a write, the diff's shape.

    ``None`` when there is nothing to record (no answer, or a person's cancellation).
    """
    if not envelope:
        return None
    if not envelope.get("ok"):
        error = envelope.get("error") or {}
        if (error.get("details") or {}).get("cancelled") or error.get("code") not in ERROR_CODES:
            return None
        return {"error": error["code"]}
    diff = (envelope.get("meta") or {}).get("diff")
    if not isinstance(diff, dict):
        return {"ok": True}
    shape = {key: _counts(diff.get(key)) for key in DIFF_BY_KIND}
    return {"ok": True, "diff": shape}


def expectation_text(expect: dict[str, Any] | None) -> str:
    """``ok``, ``NOT_FOUND``, or ``ok; created 1 task, updated nothing, deleted nothing``."""
    if not expect:
        return "nothing to expect"
    if "error" in expect:
        return str(expect["error"])
    parts = [f"{key} " + (", ".join(f"{n} {kind}" for kind, n in sorted(counts.items())) or "nothing") for key, counts in (expect.get("diff") or {}).items()]
    return "ok" + (f"; {', '.join(parts)}" if parts else "")
