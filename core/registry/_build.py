"""Building the registry: check every schema once, name every tool, resolve collisions."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from .._record import replace
from ..catalog._sources import CatalogLoad
from ..catalog._tool import LoadProblem, ToolDefinition
from ._naming import NamingRules, default_rules, is_destructive, kind_of, name_tool
from ._record import OpRecord
from ._registry import Registry

_OPEN_SCHEMA: dict[str, Any] = {"type": "object"}
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
SUMMARY_LIMIT = 120


def summarize(tool: ToolDefinition, op: str) -> str:
    """A one-line summary: the declared one, else the description's first sentence, else words from the op."""
    text = (tool.summary or "").strip() or _SENTENCE_END.split(tool.description.strip(), maxsplit=1)[0].strip()
    text = " ".join(text.split())
    if not text and not tool.name.isascii():
        # The op spells another script by code point ("u641cu7d22"): the tool's own name reads better.
        text = " ".join(tool.name.replace("_", " ").split())
    if not text:
        words = op.split(".")[-2:] if "." in op else [op]
        text = " ".join(reversed(words)).replace("_", " ").capitalize()
    if len(text) > SUMMARY_LIMIT:
        text = text[: SUMMARY_LIMIT - 1].rstrip() + "…"
    return text


def _record(tool: ToolDefinition, parameters: dict[str, Any], rules: NamingRules, warnings: tuple[str, ...]) -> OpRecord:
    name = name_tool(tool, rules)
    kind = kind_of(tool, name.action, rules)
    metadata = tool.metadata
    metadata = replace(
        metadata,
        side_effects=metadata.side_effects or ("read_only" if kind == "read" else "writes"),
        category=metadata.category or ("retrieval" if kind == "read" else "action"),
        idempotent=metadata.idempotent if metadata.idempotent is not None else kind == "read",
        destructive=kind == "write" and is_destructive(tool, name.action, rules),
    )
    return OpRecord(
        op=name.op,
        tool_name=tool.name,
        description=tool.description,
        summary=summarize(tool, name.op),
        parameters=parameters,
        group=name.op.split(".")[0],
        kind=kind,
        entity=name.entity,
        action=name.action,
        metadata=metadata,
        namespace=tool.namespace,
        source=tool.source,
        examples=tool.examples,
        notes=tool.notes,
        policy=tool.policy,
        result_schema=tool.result_schema,
        http=tool.http,
        arguments_in=tool.arguments_in,
        handler_path=tool.handler_path,
        warnings=warnings,
        binding=tool.binding,
        annotations=tool.annotations,
        title=tool.title,
    )


def _resolve_collisions(records: list[OpRecord], problems: list[LoadProblem]) -> list[OpRecord]:
    """Keep names unique: the first tool (by tool name, then source) keeps the op, the others get ``_2``, ``_3``."""
    by_op: dict[str, list[OpRecord]] = defaultdict(list)
    for record in records:
        by_op[record.op].append(record)
    taken = set(by_op)
    result: list[OpRecord] = []
    for op, group in by_op.items():
        # A built-in op keeps its name whatever else claims it; the newcomer is renamed and reported.
        group.sort(key=lambda r: (r.binding.kind != "store", r.tool_name, r.source))
        result.append(group[0])
        for n, record in enumerate(group[1:], start=2):
            new_op = f"{op}_{n}"
            while new_op in taken:
                n += 1
                new_op = f"{op}_{n}"
            taken.add(new_op)
            problems.append(
                LoadProblem(record.source, f"op {op!r} is already {group[0].tool_name!r}'s; this tool is {new_op!r}", tool=record.tool_name, severity="warning")
            )
            result.append(replace(record, op=new_op))
    return result


def _source_summaries(loads: list[CatalogLoad]) -> dict[str, str]:
    """A summary for each catalogue's namespace that has none of its own: where its tools came from."""
    summaries: dict[str, str] = {}
    for load in loads:
        if load.namespace and load.tools:
            name = load.source.replace("\\", "/").rsplit("/", 1)[-1]
            summaries.setdefault(load.namespace, f"{load.title} ({name})" if load.title else f"Tools from {name}.")
    return summaries


def _checked(schema: Any) -> tuple[dict[str, Any] | None, list]:
    # Imported here: the check loads jsonschema, which a registry of checked loads never needs.
    from .._schema_check import check_parameters

    return check_parameters(schema)


def build_registry(loads: Iterable[CatalogLoad], rules: NamingRules | None = None, *, group_summaries: dict[str, str] | None = None) -> Registry:
    """A registry from catalogue loads. Broken tools are left out and reported; the rest load."""
    rules = rules or default_rules()
    problems: list[LoadProblem] = []
    records: list[OpRecord] = []
    loads_seen: list[CatalogLoad] = []
    for load in loads:
        loads_seen.append(load)
        problems.extend(load.problems)
        for tool in load.tools:
            raw = tool.parameters
            warnings: list[str] = []
            if raw is None:
                raw = _OPEN_SCHEMA
                warnings.append("the source gives no parameters schema, so arguments are not checked")
                problems.append(LoadProblem(tool.source, warnings[-1], tool=tool.name, field="parameters", severity="warning"))
            parameters, findings = (raw, []) if load.checked and tool.parameters is not None else _checked(raw)
            for finding in findings:
                problems.append(LoadProblem(tool.source, finding.message, tool=tool.name, field=f"parameters{finding.pointer}", severity=finding.severity))
            if parameters is None:
                continue
            warnings += _op_warnings(findings)
            records.append(_record(tool, parameters, rules, tuple(warnings)))
    summaries = {**rules.group_summaries, **_source_summaries(loads_seen), **(group_summaries or {})}
    return Registry(_resolve_collisions(records, problems), problems, group_summaries=summaries)


def _op_warnings(findings: list[Any]) -> list[str]:
    """The schema's warnings for the op's help: each said once, with the arguments it concerns.

    A catalogue that gives five arguments one unknown format said the same
    sentence five times, naming none of them.
    """
    where: dict[str, list[str]] = {}
    for finding in findings:
        if finding.severity != "warning":
            continue
        names = where.setdefault(finding.message, [])
        parts = finding.pointer.split("/")
        if len(parts) > 2 and parts[1] == "properties" and parts[2] not in names:
            names.append(parts[2])
    return [f"{message} ({', '.join(names)})" if names else message for message, names in where.items()]


def merge_registries(base: Registry, extra: Registry) -> Registry:
    """``base`` with ``extra``'s ops added (upstream servers' ops); an op ``base`` already has stays ``base``'s, reported."""
    if not len(extra) and not extra.problems:
        return base
    records, problems = list(base), [*base.problems, *extra.problems]
    for record in extra:
        if record.op in base:
            problems.append(LoadProblem(record.source, f"op {record.op!r} already exists in the catalogue; this tool is left out", tool=record.tool_name))
        else:
            records.append(record)
    return Registry(records, problems, group_summaries={**extra.group_summaries, **base.group_summaries})
