"""The hybrid mode: a typed lane chosen per turn, plus ``list_tools`` and ``run_tool``.

The typed lane holds the ops most likely needed this turn as real typed
tools: first the ops the model has just inspected (help on the op,
expand_tool, or list_tools with ``detail: "schema"``), so that a schema it
read becomes a tool it can call; then ops
matching the user's message. The lane is capped at 16 schemas and 12 KB. The
generic pair reaches the long tail; ``run_tool`` goes through exec like any
other call and refuses to call itself.
"""

from __future__ import annotations

import json
from typing import Any

from ..exec._envelope import failure
from ..telemetry._surfaced import search_surfaced
from ._arguments import check_arguments, is_envelope_error
from ._spec import ToolSpec, typed_tool

TYPED_LANE_CAP = 16
TYPED_LANE_BYTES = 12 * 1024
LIST_DEFAULT_LIMIT = 20
LIST_MAX_LIMIT = 50
LIST_MAX_BYTES = 8 * 1024
# With detail="schema" each line carries its op's argument schema: the typed lane's byte budget applies.
LIST_SCHEMA_MAX_BYTES = TYPED_LANE_BYTES
LIST_DETAILS = ("summary", "schema")
SELF_DISPATCH = ("run_tool",)

LIST_TOOLS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "what you need, in words"},
        "category": {"type": "string", "description": "an op group such as onto.task"},
        "mutating_only": {"type": "boolean"},
        "auth_required_only": {"type": "boolean"},
        "limit": {"type": "integer", "minimum": 1, "maximum": LIST_MAX_LIMIT},
        "offset": {"type": "integer", "minimum": 0},
        "detail": {"enum": list(LIST_DETAILS), "description": "schema: each op's argument schema too"},
    },
}
RUN_TOOL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "description": "an op from list_tools"},
        "arguments": {"type": "object"},
        "dry_run": {"type": "boolean"},
    },
}
GENERIC_TOOLS = (
    ToolSpec("list_tools", "List ops you can run with run_tool: name, summary, required args, whether it writes.", LIST_TOOLS_SCHEMA, {"readOnlyHint": True}),
    ToolSpec("run_tool", "Run an op by name with its arguments (as exec does). Errors say how to fix the arguments.", RUN_TOOL_SCHEMA, {"readOnlyHint": False}),
)


def _spec_bytes(spec: ToolSpec) -> int:
    return len(json.dumps({"name": spec.name, "description": spec.description, "parameters": spec.parameters}, separators=(",", ":")))


def typed_lane(gateway: Any, router: Any, turn: str | None) -> list[ToolSpec]:
    """The typed tools for this turn: inspected ops first, then the best matches for ``turn``."""
    candidates: list[str] = list(reversed(router.inspected)) if router is not None else []
    if turn and turn.strip():
        candidates += [hit["op"] for hit in gateway.search(turn, limit=TYPED_LANE_CAP).get("results", [])]
    lane: list[ToolSpec] = []
    used = 0
    for op in dict.fromkeys(candidates):
        record = gateway.registry.get(op)
        # Browse-only and quarantined ops are never handed to a model as typed tools.
        if record is None or not gateway.is_visible(op) or not record.runnable:
            continue
        spec = typed_tool(record)
        size = _spec_bytes(spec)
        if len(lane) >= TYPED_LANE_CAP or used + size > TYPED_LANE_BYTES:
            continue
        lane.append(spec)
        used += size
    return lane


def hybrid_tool_schema(gateway: Any, name: str) -> dict[str, Any] | None:
    """The input schema hybrid gives tool ``name`` in any session's offer (a generic tool or an op's typed tool), or ``None``."""
    for spec in GENERIC_TOOLS:
        if spec.name == name:
            return spec.parameters
    record = gateway.registry.get(name) or gateway.registry.resolve_exported(name)
    if record is None or not gateway.is_visible(record.op) or not record.runnable:
        return None
    return typed_tool(record).parameters


def hybrid_tools(gateway: Any, router: Any, turn: str | None) -> list[ToolSpec]:
    """The tools offered this turn. With a router (a live session), the offer is recorded:
    seed 003's typed and total schema counts, and the lane that later calls are checked against."""
    if router is None:
        with gateway.telemetry.unrecorded():
            return [*typed_lane(gateway, router, turn), *GENERIC_TOOLS]
    session = router.session
    with router.gateway.telemetry.step("lane", session) as step:
        lane = typed_lane(gateway, router, turn)
        tools = [*lane, *GENERIC_TOOLS]
        session.trail.offer_lane(spec.op for spec in lane if spec.op)
        step.done(
            True, typed=len(lane), total=len(tools),
            typed_bytes=sum(_spec_bytes(spec) for spec in lane), total_bytes=sum(_spec_bytes(spec) for spec in tools),
            ops=[spec.op for spec in lane],
        )
    return tools


def _line(record: Any, with_schema: bool) -> dict[str, Any]:
    line = {
        "name": record.op,
        "summary": record.summary,
        "required_args": list(record.required_args),
        "mutates": record.mutates,
        "auth_required": record.metadata.auth_required,
    }
    if with_schema:
        line["arguments_schema"] = record.parameters
    return line


def list_tools(gateway: Any, arguments: dict[str, Any]) -> dict[str, Any]:
    limit = min(max(int(arguments.get("limit", LIST_DEFAULT_LIMIT)), 1), LIST_MAX_LIMIT)
    offset = max(int(arguments.get("offset", 0)), 0)
    category = (arguments.get("category") or "").strip(".")
    if arguments.get("query"):
        hits = gateway.search(arguments["query"], path=category or None, limit=LIST_MAX_LIMIT).get("results", [])
        records = [gateway.registry.get(hit["op"]) for hit in hits]
    else:
        records = [r for r in gateway.registry if gateway.is_visible(r.op) and (not category or r.op == category or r.op.startswith(category + "."))]
    records = [r for r in records if r is not None and r.runnable]
    if arguments.get("mutating_only"):
        records = [r for r in records if r.mutates]
    if arguments.get("auth_required_only"):
        records = [r for r in records if r.metadata.auth_required]
    page = records[offset : offset + limit]
    with_schema = arguments.get("detail") == "schema"
    budget = LIST_SCHEMA_MAX_BYTES if with_schema else LIST_MAX_BYTES
    lines, size, cut = [], 0, False
    for record in page:
        line = _line(record, with_schema)
        size += len(json.dumps(line, separators=(",", ":")))
        # The first line always goes out: an op whose schema alone is over budget must still be readable.
        if size > budget and lines:
            cut = True
            break
        lines.append(line)
    shown_to = offset + len(lines)
    return {
        "ok": True,
        "tools": lines,
        "total": len(records),
        "offset": offset,
        "next_offset": shown_to if shown_to < len(records) else None,
        "truncated_by_bytes": cut,
    }


def generic_call(router: Any, name: str, arguments: Any) -> Any:
    """Answer list_tools / run_tool; ``None`` for any other name.

    Both are recorded (seed 003's generic list and run counts); a run_tool
    whose arguments do not fit, its own or the op's, counts as a validation
    failure. The exec a run_tool makes is recorded as its child.
    """
    if name not in ("list_tools", "run_tool"):
        return None
    gateway = router.gateway
    raw_target = arguments.get("name") if isinstance(arguments, dict) else None
    with gateway.telemetry.step(name, router.session, raw_target or "", lane="generic", wraps=name == "run_tool") as step:
        answer = _generic_answer(router, name, arguments)
        if name == "list_tools":
            asked = arguments if isinstance(arguments, dict) else {}
            query = asked.get("query") if isinstance(asked.get("query"), str) else None
            step.answered(answer, subject=query or asked.get("category") or "", surfaced=search_surfaced(answer), new_chain=bool(query),
                          category=asked.get("category") if isinstance(asked.get("category"), str) else None)
        else:
            code = (answer.get("error") or {}).get("code") if isinstance(answer, dict) else None
            target = answer.get("op") if isinstance(answer, dict) and isinstance(answer.get("op"), str) and answer.get("op") != name else raw_target
            step.answered(answer, subject=target, validation_failure=True if code == "VALIDATION_ERROR" else None)
    return answer


def _generic_answer(router: Any, name: str, arguments: Any) -> Any:
    arguments = check_arguments(name, arguments, LIST_TOOLS_SCHEMA if name == "list_tools" else RUN_TOOL_SCHEMA, text_object="arguments" if name == "run_tool" else None)
    if is_envelope_error(arguments):
        return arguments
    if name == "list_tools":
        answer = list_tools(router.gateway, arguments)
        if arguments.get("detail") == "schema":
            for line in answer["tools"]:
                router.session.note_inspected(line["name"])
        return answer
    target = arguments.get("name")
    if not isinstance(target, str) or not target:
        return failure(name, "VALIDATION_ERROR", "run_tool needs 'name': an op from list_tools", help_path="root")
    if target in SELF_DISPATCH:
        return failure(target, "VALIDATION_ERROR", "run_tool cannot run run_tool; name the op itself", help_path="root")
    # exec resolves op names, tool names and exported names (hash-shortened ones included).
    return router._guarded_exec(target, arguments.get("arguments") or {}, dry_run=bool(arguments.get("dry_run", False)))
