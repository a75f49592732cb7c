"""What ``opgate stats`` reports: the call log summarised.

Calls by op and code, latency percentiles by kind, the hybrid lane's figures
(seed 003: typed and total schemas offered per turn, list/run counts,
run_tool validation failures, the lane hit rate) and the discovery chains
(``search "move doc" -> help onto.document.tree.move -> exec
onto.document.tree.move ok``). Pure functions over log entries, so the same
summary serves the CLI, tests and Python callers.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from ..echo_text import quoted
from ._events import CALL_KINDS

CHAIN_LIMIT = 10
"""Chains shown: the most recent ones."""
_STAMP = "%Y-%m-%dT%H:%M:%SZ"
_WINDOW = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_QUOTED_KINDS = ("search", "search_tool_by_category", "search_nodes", "list_tools")


def since_stamp(text: str, *, now: datetime | None = None) -> str:
    """The log stamp for ``--since``: a window back from now (``30m``, ``2h``, ``7d``) or a UTC date or time.

    Raises ValueError with a message that says what is accepted.
    """
    now = now or datetime.now(timezone.utc)
    match = _WINDOW.match(text)
    if match:
        try:
            return _stamp(now - timedelta(seconds=float(match.group(1)) * _UNIT_SECONDS[match.group(2)]))
        except (OverflowError, ValueError):  # a window reaching before the year 1, or past what a timedelta holds
            raise ValueError(f"--since {quoted(text)} reaches back before the calendar begins; give a shorter window, or a date such as 2026-11-26") from None
    cleaned = text.strip().removesuffix("Z")
    try:
        moment = datetime.fromisoformat(cleaned)
    except ValueError:
        raise ValueError(f"--since takes a window such as 30m, 2h or 7d, or a UTC date or time such as 2026-11-26 or 2026-11-26T06:00:00; not {quoted(text)}") from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc).replace(tzinfo=None)
    return _stamp(moment)


def _stamp(moment: datetime) -> str:
    """``moment`` as the log writes its times; the year in four digits, as ``%Y`` does not write one before 1000
    (``999-01-01...`` sorts after ``2026-...``, and the window then held nothing)."""
    return f"{moment.year:04d}-" + moment.strftime(_STAMP.removeprefix("%Y-"))


def percentile(values: list[float], share: float) -> float | None:
    """Nearest-rank percentile (``share`` in 0..1); ``None`` for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


@dataclass
class CallStats:
    """The summary of a stretch of the call log (see the module docstring)."""

    since: str | None
    entries: int
    sessions: int
    by_kind: list[dict[str, Any]] = field(default_factory=list)
    by_op_and_code: list[dict[str, Any]] = field(default_factory=list)
    latency_ms: dict[str, float | None] = field(default_factory=dict)
    lane: dict[str, Any] = field(default_factory=dict)
    chains: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _outcome(entry: dict[str, Any]) -> str:
    return "ok" if entry["ok"] else (entry.get("code") or "ERROR")


def _by_kind(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for entry in entries:
        groups[entry.get("kind") or "exec"].append(entry)
    rows = []
    for kind, group in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
        durations = [e["duration_ms"] for e in group if e.get("duration_ms") is not None]
        rows.append({
            "kind": kind, "calls": len(group), "errors": sum(1 for e in group if not e["ok"]),
            "p50_ms": percentile(durations, 0.5), "p95_ms": percentile(durations, 0.95),
        })
    return rows


def _by_op_and_code(execs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    counts = Counter((e.get("op") or "", _outcome(e)) for e in execs)
    return [{"op": op, "code": code, "calls": n} for (op, code), n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]


def _lane(entries: list[dict[str, Any]], execs: list[dict[str, Any]]) -> dict[str, Any]:
    offers = [e.get("detail") or {} for e in entries if e.get("kind") == "lane"]
    judged = [(e.get("detail") or {}).get("in_lane") for e in execs]
    judged = [j for j in judged if j is not None]
    run_tool = [e for e in entries if e.get("kind") == "run_tool"]
    typed = [o.get("typed", 0) for o in offers]
    total = [o.get("total", 0) for o in offers]
    return {
        "turns": len(offers),
        "typed_schemas_mean": round(sum(typed) / len(typed), 2) if typed else None,
        "typed_schemas_max": max(typed) if typed else None,
        "total_schemas_mean": round(sum(total) / len(total), 2) if total else None,
        "total_schemas_max": max(total) if total else None,
        "list_tools_calls": sum(1 for e in entries if e.get("kind") == "list_tools"),
        "run_tool_calls": len(run_tool),
        "run_tool_validation_failures": sum(1 for e in run_tool if e.get("code") == "VALIDATION_ERROR"),
        "typed_calls": sum(1 for e in execs if e.get("lane") == "typed"),
        "calls_judged": len(judged),
        "hit_rate": round(sum(judged) / len(judged), 4) if judged else None,
    }


def _step_text(entry: dict[str, Any]) -> str:
    kind = entry.get("kind") or "exec"
    subject = entry.get("op") or ""
    text = f'{kind} "{subject}"' if kind in _QUOTED_KINDS else f"{kind} {subject}".rstrip()
    if kind in CALL_KINDS or not entry["ok"]:
        text += f" {_outcome(entry)}"
    return text


def _chains(entries: list[dict[str, Any]], limit: int) -> dict[str, Any]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    last_seen: dict[str, int] = {}
    for position, entry in enumerate(entries):
        if entry.get("chain_id"):
            groups[entry["chain_id"]].append(entry)
            last_seen[entry["chain_id"]] = position
    groups = dict(sorted(groups.items(), key=lambda item: last_seen[item[0]]))  # the latest active last
    traces_in = {chain: {e["trace_id"] for e in group} for chain, group in groups.items()}
    shown, to_call, to_ok, steps_before = [], 0, 0, []
    for chain, group in groups.items():
        # An exec made by a run_tool or call_tool of the same chain is shown once, as that call.
        steps = [e for e in group if not (e.get("kind") == "exec" and e.get("parent_id") in traces_in[chain])]
        calls = [i for i, e in enumerate(steps) if (e.get("kind") or "exec") in CALL_KINDS]
        if calls:
            to_call += 1
            to_ok += any(steps[i]["ok"] for i in calls)
            steps_before.append(calls[0])
        shown.append({"chain_id": chain, "session_id": steps[0].get("session_id"), "steps": [_step_text(e) for e in steps], "led_to_call": bool(calls)})
    return {
        "total": len(groups),
        "led_to_call": to_call,
        "led_to_ok_call": to_ok,
        "median_steps_before_call": percentile(steps_before, 0.5),
        "recent": shown[-limit:],
    }


def summarize(entries: list[dict[str, Any]], *, since: str | None = None, chain_limit: int = CHAIN_LIMIT) -> CallStats:
    """Summarise call-log entries (oldest first, as :meth:`Gateway.call_log_since` gives them)."""
    execs = [e for e in entries if (e.get("kind") or "exec") == "exec"]
    durations = [e["duration_ms"] for e in execs if e.get("duration_ms") is not None]
    return CallStats(
        since=since,
        entries=len(entries),
        sessions=len({e.get("session_id") for e in entries if e.get("session_id")}),
        by_kind=_by_kind(entries),
        by_op_and_code=_by_op_and_code(execs),
        latency_ms={"exec_p50": percentile(durations, 0.5), "exec_p95": percentile(durations, 0.95)},
        lane=_lane(entries, execs),
        chains=_chains(entries, chain_limit),
    )
