"""Registry records as plain JSON and back, field for field (the cache's record format)."""

from __future__ import annotations

from typing import Any

from ..catalog._tool import Binding, LoadProblem, ToolMetadata
from ..registry._record import OpRecord

_TUPLE_METADATA = ("allowed_modes", "contexts", "tags", "search_phrases")


def record_to_json(record: OpRecord) -> dict[str, Any]:
    """Every field of ``record``; :func:`record_from_json` gives back an equal record."""
    metadata = dict(record.metadata.__dict__)
    for name in _TUPLE_METADATA:
        metadata[name] = list(metadata[name])
    return {
        "op": record.op,
        "tool_name": record.tool_name,
        "description": record.description,
        "summary": record.summary,
        "parameters": record.parameters,
        "group": record.group,
        "kind": record.kind,
        "entity": record.entity,
        "action": record.action,
        "metadata": metadata,
        "namespace": record.namespace,
        "source": record.source,
        "examples": list(record.examples),
        "notes": list(record.notes),
        "policy": record.policy,
        "result_schema": record.result_schema,
        "http": record.http,
        "arguments_in": record.arguments_in,
        "handler_path": record.handler_path,
        "warnings": list(record.warnings),
        "binding": dict(record.binding.__dict__),
        "annotations": record.annotations,
        "title": record.title,
    }


def record_from_json(data: dict[str, Any]) -> OpRecord:
    metadata = dict(data["metadata"])
    for name in _TUPLE_METADATA:
        metadata[name] = tuple(metadata[name])
    return OpRecord(
        op=data["op"],
        tool_name=data["tool_name"],
        description=data["description"],
        summary=data["summary"],
        parameters=data["parameters"],
        group=data["group"],
        kind=data["kind"],
        entity=data["entity"],
        action=data["action"],
        metadata=ToolMetadata(**metadata),
        namespace=data["namespace"],
        source=data["source"],
        examples=tuple(data["examples"]),
        notes=tuple(data["notes"]),
        policy=data["policy"],
        result_schema=data["result_schema"],
        http=data["http"],
        arguments_in=data["arguments_in"],
        handler_path=data["handler_path"],
        warnings=tuple(data["warnings"]),
        binding=Binding(**data["binding"]),
        annotations=data["annotations"],
        title=data["title"],
    )


def problem_to_json(problem: LoadProblem) -> dict[str, Any]:
    return dict(problem.__dict__)


def problem_from_json(data: dict[str, Any]) -> LoadProblem:
    return LoadProblem(**data)
