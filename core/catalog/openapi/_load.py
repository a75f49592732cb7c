"""An OpenAPI document as a catalogue: one op per operation, bound to the HTTP executor."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..._record import replace
from ...registry._naming import words_of
from .._extension import extension_fields
from .._tool import Binding, LoadProblem, ToolDefinition, ToolMetadata
from ._arguments import ArgumentsBuilder
from ._describe import describe_operation
from ._document import HTTP_METHODS, OpenApiDocument
from ._operation import IDEMPOTENT_METHODS, READ_METHODS, HttpApi, HttpOperation
from ._schema import SchemaConverter

_METHOD_ACTIONS = {"get": "fetch", "head": "check", "options": "describe", "post": "create", "put": "update", "patch": "update", "delete": "delete", "trace": "trace"}


@dataclass(frozen=True)
class ApiPolicy:
    """What the configuration changes about an API's ops.

    ``read_only`` leaves its writes browse-only; ``confirm_methods`` are the
    methods that need a person's confirmation (DELETE by default);
    ``operations`` maps an ``operationId`` or ``METHOD /path`` to overrides
    (``kind``: read or write, ``destructive``, ``confirm``).
    """

    read_only: bool = False
    confirm_methods: frozenset[str] = frozenset({"DELETE"})
    operations: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def overrides(self, operation: HttpOperation) -> Mapping[str, Any]:
        return self.operations.get(operation.operation_id or "") or self.operations.get(operation.target) or {}


def unmatched_selectors(selectors: Iterable[str], operations: Iterable[HttpOperation]) -> list[tuple[str, list[str]]]:
    """Each selector (an ``operationId`` or ``METHOD /path``) that names no operation, with the closest names there are.

    Such a selector changes nothing: a misspelt ``confirm`` entry would leave
    a write that was meant to ask a person running without asking.
    """
    known = [name for operation in operations for name in (operation.operation_id, operation.target) if name]
    found = set(known)
    return [(s, difflib.get_close_matches(s, known, n=3, cutoff=0.6)) for s in selectors if s not in found]


def _auth_headers(document: OpenApiDocument) -> frozenset[str]:
    names = {"authorization"}
    for scheme in document.security_schemes.values():
        if scheme.get("type") == "apiKey" and scheme.get("in") == "header" and isinstance(scheme.get("name"), str):
            names.add(scheme["name"].lower())
    return frozenset(names)


def _tool_name(operation: dict[str, Any], method: str, path: str) -> str:
    """The operationId, or words made from the method and the path (``GET /pets/{id}`` gives ``fetch_pets``)."""
    operation_id = operation.get("operationId")
    if isinstance(operation_id, str) and operation_id.strip():
        return operation_id.strip()
    segments = [s for s in path.split("/") if s and not s.startswith("{")]
    # A segment in another script (or with accents) is spelled as op names spell it: dropped, /文档 and /وثائق were both "list_".
    segments = [s if s.isascii() else "_".join(words_of(s)) for s in segments]
    nouns = [re.sub(r"[^A-Za-z0-9]+", "_", re.sub(r"\.(json|xml)$", "", s)) for s in segments[-2:]]
    action = _METHOD_ACTIONS[method]
    if method == "get" and not path.rstrip("/").endswith("}"):
        action = "list"
    return "_".join([action, *[n for n in nouns if n]]) or action


def _op_hint(tool_name: str) -> str | None:
    """An operationId's own groups (GitHub's ``gists/create-comment``), as a dotted path that guides naming.

    Read as one name, ``gists/create-comment`` has its verb in the middle and names
    no entity: ``gists_create_comment``. Its first part is the operation's group, as
    a tag is, so the op is ``gists.comment.create``, beside ``gists.get`` and the rest.
    """
    parts = [part for part in tool_name.split("/") if part.strip()]
    return ".".join(parts) if len(parts) > 1 else None


def _metadata(method: str, operation: dict[str, Any], extension: dict[str, Any], overrides: Mapping[str, Any], policy: ApiPolicy) -> ToolMetadata:
    reads = method in READ_METHODS
    kind = overrides.get("kind") or extension.get("kind")
    if kind in ("read", "write"):
        reads = kind == "read"
    base = extension.get("metadata") if isinstance(extension.get("metadata"), ToolMetadata) else ToolMetadata()
    destructive = overrides.get("destructive", base.destructive if base.destructive is not None else method == "DELETE")
    confirm = overrides.get("confirm", extension.get("confirm", base.requires_confirmation or method in policy.confirm_methods))
    tags = tuple(t for t in operation.get("tags") or [] if isinstance(t, str))
    return replace(
        base,
        category="retrieval" if reads else "action",
        side_effects="read_only" if reads else "writes",
        idempotent=base.idempotent if base.idempotent is not None else method in IDEMPOTENT_METHODS,
        destructive=bool(destructive) and not reads,
        requires_confirmation=bool(confirm),
        tags=base.tags or tags,
        auth_required=bool(base.auth_required),
    )


def _parameters(document: OpenApiDocument, path_item: dict[str, Any], operation: dict[str, Any]) -> list[dict[str, Any]]:
    """Path-level parameters, overridden by the operation's own of the same name and place."""
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for raw in [*(path_item.get("parameters") or []), *(operation.get("parameters") or [])]:
        parameter = document.deref(raw)
        if isinstance(parameter, dict) and isinstance(parameter.get("name"), str):
            merged[(parameter["name"], str(parameter.get("in")))] = parameter
    return list(merged.values())


_PATH_VARIABLE = re.compile(r"\{([^{}/]+)\}")


def _undeclared_path_variables(builder: ArgumentsBuilder, path: str) -> None:
    """A ``{name}`` in the path that no parameter declares becomes a required text argument (it was sent as ``%7Bname%7D``)."""
    declared = {place.name for place in builder.places if place.location == "path"}
    for name in dict.fromkeys(_PATH_VARIABLE.findall(path)):
        if name not in declared:
            builder.add_parameter({"name": name, "in": "path", "required": True, "schema": {"type": "string"}})
            builder.notes.append(f"the path names {{{name}}}, which no parameter declares: it is taken as a required text argument")
    if _PATH_VARIABLE.sub("", path).count("{") or _PATH_VARIABLE.sub("", path).count("}"):
        builder.notes.append(f"the path {path!r} has a brace that opens or closes no variable; it is sent as written")


def _servers(*nodes: dict[str, Any]) -> tuple[str, ...]:
    for node in nodes:
        urls = [s["url"] for s in node.get("servers") or [] if isinstance(s, dict) and isinstance(s.get("url"), str)]
        if urls:
            return tuple(urls)
    return ()


def _security(node: dict[str, Any]) -> tuple[dict[str, Any], ...] | None:
    security = node.get("security")
    return tuple(s for s in security if isinstance(s, dict)) if isinstance(security, list) else None


def _one_operation(document: OpenApiDocument, namespace: str, path: str, method: str, path_item: dict[str, Any], operation: dict[str, Any], policy: ApiPolicy, auth_headers: frozenset[str]) -> tuple[ToolDefinition, HttpOperation, list[str]]:
    builder = ArgumentsBuilder(document, SchemaConverter(document), auth_headers)
    unfollowed_before = len(document.unfollowed)
    for parameter in _parameters(document, path_item, operation):
        builder.add_parameter(parameter)
    _undeclared_path_variables(builder, path)
    media = builder.add_body(document.deref(operation["requestBody"])) if isinstance(operation.get("requestBody"), dict) else None
    # A reference that led nowhere was read as "anything" (or a parameter left out): said, so nobody trusts a schema that is not there.
    builder.notes.extend(f"{why}; what it stood for is read as no constraint (a parameter, left out)" for why in dict.fromkeys(document.unfollowed[unfollowed_before:]))
    http = HttpOperation(
        method=method.upper(), path=path,
        operation_id=operation.get("operationId") if isinstance(operation.get("operationId"), str) else None,
        places=tuple(builder.places), content_type=media, security=_security(operation), servers=_servers(operation, path_item),
    )
    raw_extension = operation.get("x-opgate")
    extension = extension_fields(raw_extension) if isinstance(raw_extension, dict) else {}
    if isinstance(raw_extension, dict):
        if raw_extension.get("kind") in ("read", "write"):
            extension["kind"] = raw_extension["kind"]
        if isinstance(raw_extension.get("requiresConfirmation"), bool):
            extension["confirm"] = raw_extension["requiresConfirmation"]  # an explicit false turns DELETE's default off
    overrides = policy.overrides(http)
    metadata = _metadata(http.method, operation, extension, overrides, policy)
    binding = Binding("http", upstream=namespace, target=http.target)
    if policy.read_only and metadata.side_effects == "writes":
        binding = Binding("none", reason=f"the upstream {namespace!r} is configured read_only, so its writes can be browsed but not run")
    summary = operation.get("summary") if isinstance(operation.get("summary"), str) and operation["summary"].strip() else extension.get("summary")
    name = _tool_name(operation, method, path)
    tool = ToolDefinition(
        name=name,
        op_hint=_op_hint(name),
        description=describe_operation(operation, http.method, path, list(builder.properties)),
        parameters=builder.schema(),
        namespace=namespace,
        source=document.source,
        op=extension.get("op"),
        summary=summary,
        metadata=metadata,
        notes=tuple(builder.notes) + tuple(extension.get("notes") or ()),
        examples=tuple(extension.get("examples") or ()),
        http=http.target,
        arguments_in={place.arg: place.location for place in http.places},
        binding=binding,
    )
    return tool, http, builder.notes


def read_openapi(document: OpenApiDocument, namespace: str, policy: ApiPolicy | None = None) -> tuple[list[ToolDefinition], list[LoadProblem], HttpApi]:
    """Every operation of ``document`` as a tool, the problems found, and the API the executor runs."""
    policy = policy or ApiPolicy()
    api = HttpApi(namespace, document.source, tuple(document.servers), document.security_schemes, _security(document.data) or ())
    tools: list[ToolDefinition] = []
    problems: list[LoadProblem] = []
    auth_headers = _auth_headers(document)
    for path, raw_item in document.data["paths"].items():
        path_item = document.deref(raw_item)
        if not isinstance(path_item, dict):
            problems.append(LoadProblem(document.source, "the path item is not an object", field=f"paths.{path}"))
            continue
        for method in HTTP_METHODS:
            operation = path_item.get(method)
            if not isinstance(operation, dict):
                continue
            try:
                tool, http, notes = _one_operation(document, namespace, path, method, path_item, operation, policy, auth_headers)
            except (TypeError, ValueError, KeyError, AttributeError) as exc:  # a malformed operation is reported; the others load
                problems.append(LoadProblem(document.source, f"cannot read this operation: {exc}", tool=operation.get("operationId"), field=f"paths.{path}.{method}"))
                continue
            problems.extend(LoadProblem(document.source, note, tool=tool.name, severity="warning") for note in notes)
            tools.append(tool)
            api.operations[http.target] = http
    for selector, closest in unmatched_selectors(policy.operations, api.operations.values()):
        problems.append(LoadProblem(document.source, selector_problem(namespace, selector, closest)))
    return tools, problems, api


def selector_problem(namespace: str, selector: str, closest: list[str]) -> str:
    """What is wrong with a configured selector that names no operation of the document, and the names that would."""
    hint = f"; did you mean {' or '.join(map(repr, closest))}?" if closest else "; selectors are operationIds or 'METHOD /path' as the document writes them"
    return f"the configuration of upstream {namespace!r} names {selector!r}, which is no operationId or 'METHOD /path' of this document, so it applies to nothing{hint}"
