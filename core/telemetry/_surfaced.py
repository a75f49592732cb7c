"""What a discovery answer showed the caller: the ops and groups that can join its chain."""

from __future__ import annotations

from typing import Any


def help_surfaced(answer: Any) -> tuple[str | None, list[str]]:
    """``(the path help answered for, the ops and groups it showed)``."""
    if not isinstance(answer, dict) or not answer.get("ok"):
        return None, []
    if answer.get("type") == "op":
        return answer.get("op"), [answer["op"]]
    path = answer.get("path")
    shown: list[str] = []
    for item in [*(answer.get("list") or []), *(answer.get("groups") or [])]:
        if isinstance(item, dict):
            name = item.get("op") or item.get("path") or item.get("name")
            if isinstance(name, str):
                shown.append(name)
    return path, shown


def search_surfaced(answer: Any) -> list[str]:
    """The ops a search-like answer ranked (``results`` or ``tools`` pointers)."""
    if not isinstance(answer, dict):
        return []
    items = answer.get("results") or answer.get("tools") or []
    shown = []
    for item in items:
        if isinstance(item, dict):
            name = item.get("op") or item.get("tool_id") or item.get("name")
            if isinstance(name, str):
                shown.append(name)
            elif isinstance(item.get("path"), list):
                shown.append(".".join(str(p) for p in item["path"]))
    return shown


def listing_surfaced(answer: Any) -> list[str]:
    """The groups and ops a protocol ``list`` answer showed."""
    if not isinstance(answer, dict):
        return []
    groups = [".".join(n["path"]) for n in answer.get("nodes") or [] if isinstance(n, dict) and isinstance(n.get("path"), list)]
    return [*groups, *search_surfaced(answer)]


def batch_outcome(answers: Any) -> tuple[bool, str | None, dict[str, Any]]:
    """``(every step ok, the first failing step's code, counts)`` for a batch's answers."""
    envelopes = [a for a in answers if isinstance(a, dict)] if isinstance(answers, list) else []
    failed = [a for a in envelopes if not a.get("ok")]
    code = failed[0].get("error", {}).get("code") if failed else None
    return not failed, code, {"steps": len(envelopes), "failed": len(failed)}
