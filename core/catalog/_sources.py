"""Finding out what kind of catalogue a path holds, and reading it.

Accepted: a JSON list of OpenAI-style functions (wrapped or bare), an object
whose ``tools`` list holds such functions, an MCP ``tools/list`` result, a
built ``registry.json``, an OpenAPI 3.0/3.1 document (JSON or YAML), a
folder of tool folders, one tool folder, or a folder of JSON catalogue files.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import safe_json
from .._record import field, record
from ._tool import LoadProblem, ToolDefinition

if TYPE_CHECKING:
    from .openapi import ApiPolicy, OpenApiDocument

# Each reader (OpenAPI, tool folders, tool lists) is imported where a file needs it: a command
# whose registry comes from the cache reads no catalogue at all (tests/unit/test_import_cost.py).

_NOISE_WORDS = {"mcp", "tools", "tool", "list", "openapi", "catalog", "catalogue", "functions", "registry", "definitions", "json", "schema", "schemas"}


@record
class CatalogLoad:
    """What one source gave: its tools and every problem found in it."""

    source: str
    namespace: str
    tools: list[ToolDefinition] = field(default_factory=list)
    problems: list[LoadProblem] = field(default_factory=list)
    # For an OpenAPI document: the API its ops run against (opgate.core.catalog.openapi.HttpApi).
    http_api: Any = None
    # What the source says it is (an OpenAPI document's info.title and description), for its group's summary.
    title: str = ""
    checked: bool = False
    """True when every parameters schema is known to pass the registry's check
    unchanged and without findings (the built-in catalogue: a test proves it),
    so building a registry need not check them again (nor import jsonschema)."""


def default_namespace(path: Path) -> str:
    """A short namespace from a file name: ``github_mcp_tools_list.json`` gives ``github``."""
    words = [w for w in re.split(r"[^a-z0-9]+", path.stem.lower()) if w and w not in _NOISE_WORDS]
    return "_".join(words) or "tools"


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # a name too long for the file system (Path.exists lets ENAMETOOLONG through)
        return False


def split_catalog_spec(spec: str) -> tuple[str | None, str]:
    """``NAME=PATH`` names the namespace; a bare path lets it be derived."""
    name, sep, rest = spec.partition("=")
    if sep and re.fullmatch(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*", name):
        return name, rest
    return None, spec


def _is_mcp_list(tools: list[Any]) -> bool:
    return any(isinstance(t, dict) and "inputSchema" in t for t in tools)


def _openapi_load(document: OpenApiDocument, namespace: str, policies: Mapping[str, ApiPolicy] | None) -> CatalogLoad:
    from .openapi import read_openapi

    tools, problems, api = read_openapi(document, namespace, (policies or {}).get(namespace))
    return CatalogLoad(document.source, namespace, tools, problems, http_api=api, title=_document_title(document.data))


# A group's summary is one line of help: the document's own words, cut to this many characters.
_TITLE_CHARS = 160


def _document_title(data: Any) -> str:
    """``info.title``, and the first sentence of ``info.description``: "Twilio - Api: This is the public Twilio REST API."."""
    info = data.get("info") if isinstance(data, dict) else None
    if not isinstance(info, dict):
        return ""
    title = info.get("title") if isinstance(info.get("title"), str) else ""
    description = info.get("description") if isinstance(info.get("description"), str) else ""
    first_sentence = re.split(r"(?<=[.!?])\s|\n", description.strip(), maxsplit=1)[0] if description.strip() else ""
    text = " ".join(f"{title.strip()}: {first_sentence}".strip(": ").split())
    return text if len(text) <= _TITLE_CHARS else text[: _TITLE_CHARS - 1].rstrip() + "…"


def load_openapi_file(path: Path, namespace: str | None = None, policies: Mapping[str, ApiPolicy] | None = None) -> CatalogLoad:
    """An OpenAPI document (JSON or YAML) as a catalogue; a Swagger 2.0 file is a clear problem."""
    from .openapi import OpenApiError, load_document

    namespace = namespace or default_namespace(path)
    try:
        document = load_document(path)
    except OpenApiError as exc:
        return CatalogLoad(str(path), namespace, [], [LoadProblem(str(path), str(exc))])
    return _openapi_load(document, namespace, policies)


def _parse_document(data: Any, *, source: str, namespace: str | None, stem_namespace: str, policies: Mapping[str, ApiPolicy] | None = None) -> CatalogLoad:
    from ._functions import parse_function_list
    from ._mcp import parse_mcp_tools
    from ._registry_file import parse_registry_file
    from .openapi import OpenApiDocument, OpenApiError, check_version, looks_like_openapi

    if looks_like_openapi(data):
        try:
            version = check_version(data)
        except OpenApiError as exc:
            return CatalogLoad(source, namespace or stem_namespace, [], [LoadProblem(source, str(exc))])
        return _openapi_load(OpenApiDocument(data, version, source), namespace or stem_namespace, policies)
    if isinstance(data, dict) and "registry_version" in data and isinstance(data.get("ops"), list):
        tools, problems = parse_registry_file(data, source=source)
        return CatalogLoad(source, namespace or "", tools, problems)
    if namespace is not None:
        stem_namespace = namespace
    items = data.get("tools") if isinstance(data, dict) else data
    if not isinstance(items, list):
        return CatalogLoad(source, namespace or stem_namespace, [], [LoadProblem(source, "not a catalogue: expected a list of tools, or an object with a 'tools' list")])
    if _is_mcp_list(items):
        ns = namespace if namespace is not None else f"mcp.{stem_namespace}"
        tools, problems = parse_mcp_tools(items, source=source, namespace=ns)
    else:
        ns = stem_namespace
        tools, problems = parse_function_list(items, source=source, namespace=ns)
    return CatalogLoad(source, ns, tools, problems)


def load_json_file(path: Path, namespace: str | None = None, policies: Mapping[str, ApiPolicy] | None = None) -> CatalogLoad:
    if path.suffix.lower() in (".yaml", ".yml"):
        return load_openapi_file(path, namespace, policies)
    source = str(path)
    try:
        data = safe_json.loads(path.read_bytes(), max_chars=None, what="the file")
    except OSError as exc:
        return CatalogLoad(source, namespace or "", [], [LoadProblem(source, f"cannot read: {exc}")])
    except safe_json.JsonInputError as exc:
        return CatalogLoad(source, namespace or "", [], [LoadProblem(source, exc.message)])
    return _parse_document(data, source=source, namespace=namespace, stem_namespace=default_namespace(path), policies=policies)


def load_catalog(spec: str | Path, namespace: str | None = None, *, policies: Mapping[str, ApiPolicy] | None = None) -> list[CatalogLoad]:
    """Read one catalogue path (``NAME=PATH`` allowed); a folder of JSON files gives one load per file.

    ``policies`` are the configured overrides of OpenAPI upstreams, by namespace.
    """
    if isinstance(spec, str):
        named, raw = split_catalog_spec(spec)
        namespace = namespace or named
        path = Path(raw).expanduser()
    else:
        path = spec
    if not _exists(path):
        return [CatalogLoad(str(path), namespace or "", [], [LoadProblem(str(path), "no such file or folder")])]
    from ._folders import is_tool_folder, is_tool_folder_tree, load_single_tool_folder, load_tool_folders

    if is_tool_folder(path):
        ns = namespace or default_namespace(path.resolve().parent)
        tools, problems = load_single_tool_folder(path, namespace=ns)
        return [CatalogLoad(str(path), ns, tools, problems)]
    if is_tool_folder_tree(path):
        ns = namespace or default_namespace(path)
        tools, problems = load_tool_folders(path, source=str(path), namespace=ns)
        return [CatalogLoad(str(path), ns, tools, problems)]
    if path.is_dir():
        files = sorted(path.glob("*.json"))
        if not files:
            return [CatalogLoad(str(path), namespace or "", [], [LoadProblem(str(path), "the folder holds neither tool folders nor JSON catalogues")])]
        return [load_json_file(f, namespace, policies) for f in files]
    return [load_json_file(path, namespace, policies)]
