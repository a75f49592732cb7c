"""Telemetry for the protocol's operations: each is one recorded step (seed 002's audit trail)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..telemetry._surfaced import listing_surfaced, search_surfaced


def _dotted(path: Any) -> str:
    if isinstance(path, (list, tuple)):
        return ".".join(str(p) for p in path)
    return path if isinstance(path, str) else ""


def _listing(args: dict[str, Any], answer: Any) -> dict[str, Any]:
    return {"subject": _dotted(args.get("path")), "surfaced": listing_surfaced(answer), "new_chain": bool(args.get("query")), "query": args.get("query")}


def _category_search(args: dict[str, Any], answer: Any) -> dict[str, Any]:
    return {"subject": args.get("query"), "surfaced": search_surfaced(answer), "new_chain": True, "category": _dotted(args.get("category_path")) or None}


def _node_search(args: dict[str, Any], answer: Any) -> dict[str, Any]:
    return {"subject": args.get("query"), "surfaced": search_surfaced(answer), "new_chain": True}


def _expansion(args: dict[str, Any], answer: Any) -> dict[str, Any]:
    tool_id = answer.get("tool_id") if isinstance(answer, dict) and answer.get("ok") else args.get("tool_id")
    return {"subject": tool_id, "surfaced": [tool_id] if isinstance(tool_id, str) else []}


def _call(args: dict[str, Any], answer: Any) -> dict[str, Any]:
    op = answer.get("op") if isinstance(answer, dict) and isinstance(answer.get("op"), str) and answer.get("op") else args.get("tool_id")
    return {"subject": op}


DESCRIBE: dict[str, Callable[[dict[str, Any], Any], dict[str, Any]]] = {
    "list": _listing,
    "search_tool_by_category": _category_search,
    "search_nodes": _node_search,
    "expand_tool": _expansion,
    "call_tool": _call,
}


def recorded(method: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """Record each call of a protocol operation under its own name; ``call_tool``'s exec is its child."""
    kind = method.__name__
    describe = DESCRIBE[kind]
    signature = None  # made on the first call: inspect costs a command line that only imports this (opgate search)

    @functools.wraps(method)
    def run(self: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        nonlocal signature
        if signature is None:
            import inspect

            signature = inspect.signature(method)
        gateway = self.gateway
        session = self.session if self.session is not None else gateway.current_session
        with gateway.telemetry.step(kind, session, wraps=kind == "call_tool") as step:
            answer = method(self, *args, **kwargs)
            try:
                bound = signature.bind(self, *args, **kwargs).arguments
            except TypeError:
                bound = {}
            step.answered(answer, **describe(bound, answer))
        return answer

    return run
