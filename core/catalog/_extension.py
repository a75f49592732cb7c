"""Reading orchestration metadata and the ``x-opgate`` extension block.

Tool folders (``schema.json``) and the built-in catalogue (``x-opgate``) use
the same camelCase keys, so both are read here.
"""

from __future__ import annotations

from typing import Any

from ._tool import ToolMetadata


def _tuple_of_str(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)):
        return tuple(str(v) for v in value)
    return ()


def metadata_from_mapping(data: dict[str, Any]) -> ToolMetadata:
    """Build :class:`ToolMetadata` from seed-style camelCase keys; missing keys stay unknown."""
    budget = data.get("latencyBudgetMs")
    return ToolMetadata(
        category=data.get("category"),
        side_effects=data.get("sideEffects"),
        idempotent=data.get("idempotent"),
        requires_confirmation=bool(data.get("requiresConfirmation", False)),
        destructive=data.get("destructive"),
        allowed_modes=_tuple_of_str(data.get("allowedModes")) or ("text", "voice"),
        latency_budget_ms=int(budget) if isinstance(budget, (int, float)) else None,
        contexts=_tuple_of_str(data.get("contexts")),
        tags=_tuple_of_str(data.get("tags")),
        auth_required=bool(data.get("authRequired", False)),
        version=data.get("version") if isinstance(data.get("version"), str) else None,
        supports_dry_run=data.get("supportsDryRun") is True,
        search_phrases=_tuple_of_str(data.get("search_phrases", data.get("searchPhrases"))),
    )


def extension_fields(ext: dict[str, Any]) -> dict[str, Any]:
    """The :class:`ToolDefinition` keyword arguments an ``x-opgate`` block provides."""
    examples = tuple(e for e in ext.get("examples", ()) if isinstance(e, dict))
    policy = ext.get("policy") if isinstance(ext.get("policy"), dict) else None
    return {
        "summary": ext.get("summary"),
        "metadata": metadata_from_mapping(ext),
        "notes": _tuple_of_str(ext.get("notes")),
        "examples": examples,
        "policy": policy,
        "op": ext.get("op") if isinstance(ext.get("op"), str) else None,
        "result_schema": ext.get("resultSchema"),
    }
