"""Tool folders in the authoring layout: ``<dir>/<tool>/{schema.json, guide.md, handler.py}``.

Every problem of every folder is collected (with its file and field), so a
build reports all of them at once instead of stopping at the first.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .. import safe_json
from ._extension import metadata_from_mapping
from ._handler_source import check_handler_source
from ._tool import CATEGORIES, SIDE_EFFECTS, Binding, LoadProblem, ToolDefinition

REQUIRED_FILES = ("schema.json", "guide.md", "handler.py")
REQUIRED_FIELDS = {
    "toolId": str,
    "version": str,
    "description": str,
    "category": str,
    "sideEffects": str,
    "idempotent": bool,
    "requiresConfirmation": bool,
    "allowedModes": list,
    "latencyBudgetMs": int,
    "parameters": dict,
}
SUMMARY_LIMIT = 250
_SEMVER = re.compile(r"^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$")
_JSON_BLOCK = re.compile(r"```json\s*\n(.*?)```", re.DOTALL)


def is_tool_folder(path: Path) -> bool:
    """One tool's own folder: a ``schema.json`` beside its ``handler.py`` or ``guide.md``."""
    return path.is_dir() and (path / "schema.json").is_file() and ((path / "handler.py").is_file() or (path / "guide.md").is_file())


def is_tool_folder_tree(path: Path) -> bool:
    return path.is_dir() and any((child / "schema.json").is_file() for child in path.iterdir() if child.is_dir())


def guide_summary(text: str) -> str | None:
    """The first line of prose: not a heading, not blank."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped
    return None


def _guide_sections(text: str) -> dict[str, str]:
    sections: dict[str, str] = {}
    current = ""
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:].strip().lower()
            sections[current] = ""
        elif current:
            sections[current] += line + "\n"
    return sections


def _guide_examples(sections: dict[str, str]) -> tuple[list[dict[str, Any]], list[str]]:
    examples: list[dict[str, Any]] = []
    errors: list[str] = []
    for i, block in enumerate(_JSON_BLOCK.findall(sections.get("examples", ""))):
        try:
            args = safe_json.loads(block, max_chars=None, what=f"example {i + 1}")
        except safe_json.JsonInputError as exc:
            errors.append(exc.message)
            continue
        if isinstance(args, dict):
            examples.append({"title": f"Example {i + 1}", "args": args})
    return examples, errors


def _bullets(section: str) -> tuple[str, ...]:
    return tuple(line.strip()[2:].strip() for line in section.splitlines() if line.strip().startswith(("- ", "* ")))


def _check_consistency(data: dict[str, Any], file: str, tool: str) -> list[LoadProblem]:
    """Metadata that contradicts itself: callers would retry or skip confirmation on a false promise."""
    problems = []
    if data.get("category") == "retrieval":
        if data.get("sideEffects") == "writes":
            problems.append(LoadProblem(file, "a retrieval tool cannot write: use category 'action', or sideEffects 'read_only'", tool=tool, field="sideEffects"))
        if data.get("idempotent") is False:
            problems.append(LoadProblem(file, "a retrieval tool must be idempotent (safe to retry): set idempotent to true, or use category 'action'", tool=tool, field="idempotent"))
    if data.get("category") == "utility" and data.get("sideEffects") == "writes":
        problems.append(LoadProblem(file, "a utility that writes is an action: use category 'action'", tool=tool, field="category", severity="warning"))
    if data.get("supportsDryRun") is True and data.get("sideEffects") in ("none", "read_only"):
        problems.append(LoadProblem(file, "a tool without side effects has nothing to rehearse; its dry-run simply runs it", tool=tool, field="supportsDryRun", severity="warning"))
    return problems


def _check_schema_file(folder: Path, data: dict[str, Any], source: str) -> list[LoadProblem]:
    tool = folder.name
    file = f"{source}/{tool}/schema.json"
    problems = []
    for key, kind in REQUIRED_FIELDS.items():
        if key not in data:
            problems.append(LoadProblem(file, "required field is missing", tool=tool, field=key))
        elif not isinstance(data[key], kind) or (kind is int and isinstance(data[key], bool)):
            problems.append(LoadProblem(file, f"must be {kind.__name__}", tool=tool, field=key))
    if isinstance(data.get("toolId"), str) and data["toolId"] != tool.replace("-", "_"):
        problems.append(LoadProblem(file, f"toolId {data['toolId']!r} does not match the folder (expected {tool.replace('-', '_')!r})", tool=tool, field="toolId"))
    if isinstance(data.get("version"), str) and not _SEMVER.match(data["version"]):
        problems.append(LoadProblem(file, "must be a semantic version (major.minor.patch)", tool=tool, field="version"))
    if isinstance(data.get("category"), str) and data["category"] not in CATEGORIES:
        problems.append(LoadProblem(file, f"must be one of {', '.join(CATEGORIES)}", tool=tool, field="category"))
    if isinstance(data.get("sideEffects"), str) and data["sideEffects"] not in SIDE_EFFECTS:
        problems.append(LoadProblem(file, f"must be one of {', '.join(SIDE_EFFECTS)}", tool=tool, field="sideEffects"))
    if isinstance(data.get("allowedModes"), list) and not data["allowedModes"]:
        problems.append(LoadProblem(file, "must name at least one mode", tool=tool, field="allowedModes"))
    if "supportsDryRun" in data and not isinstance(data["supportsDryRun"], bool):
        problems.append(LoadProblem(file, "must be true or false", tool=tool, field="supportsDryRun"))
    problems += _check_consistency(data, file, tool)
    if isinstance(data.get("parameters"), dict):
        from .._schema_check import check_parameters  # loads jsonschema: only when a folder is checked

        _, findings = check_parameters(data["parameters"], require_closed=True)
        problems += [LoadProblem(file, f.message, tool=tool, field=f"parameters{f.pointer}", severity=f.severity) for f in findings]
    return problems


def load_tool_folder(folder: Path, *, source: str, namespace: str) -> tuple[ToolDefinition | None, list[LoadProblem]]:
    tool = folder.name
    problems = [
        LoadProblem(f"{source}/{tool}", f"{name} is missing", tool=tool, field=name)
        for name in REQUIRED_FILES
        if not (folder / name).is_file()
    ]
    data: dict[str, Any] = {}
    if (folder / "schema.json").is_file():
        try:
            loaded = safe_json.loads((folder / "schema.json").read_bytes(), max_chars=None, what="schema.json")
            data = loaded if isinstance(loaded, dict) else {}
            if not isinstance(loaded, dict):
                problems.append(LoadProblem(f"{source}/{tool}/schema.json", "must hold a JSON object", tool=tool))
        except safe_json.JsonInputError as exc:
            problems.append(LoadProblem(f"{source}/{tool}/schema.json", exc.message, tool=tool))
        else:
            problems += _check_schema_file(folder, data, source)
    summary = None
    examples: list[dict[str, Any]] = []
    notes: tuple[str, ...] = ()
    if (folder / "guide.md").is_file():
        guide = (folder / "guide.md").read_text(encoding="utf-8")
        summary = guide_summary(guide)
        where = f"{source}/{tool}/guide.md"
        if summary is None:
            problems.append(LoadProblem(where, "no summary: the first line of prose after the heading becomes the summary", tool=tool, field="summary"))
        elif len(summary) >= SUMMARY_LIMIT:
            problems.append(LoadProblem(where, f"summary is {len(summary)} characters; keep it under {SUMMARY_LIMIT}", tool=tool, field="summary"))
        sections = _guide_sections(guide)
        examples, example_errors = _guide_examples(sections)
        problems += [LoadProblem(where, message, tool=tool, field="examples") for message in example_errors]
        notes = _bullets(sections.get("watch out", ""))
    if (folder / "handler.py").is_file():
        problems += check_handler_source(folder / "handler.py", where=f"{source}/{tool}/handler.py", tool=tool)
    if any(p.severity == "error" for p in problems):
        return None, problems
    definition = ToolDefinition(
        name=data["toolId"],
        description=data["description"],
        parameters=data["parameters"],
        namespace=namespace,
        source=source,
        summary=summary,
        metadata=metadata_from_mapping(data),
        notes=notes,
        examples=tuple(examples),
        handler_path=str((folder / "handler.py").resolve()),
        binding=Binding("python", target=str((folder / "handler.py").resolve())),
        op=data.get("op") if isinstance(data.get("op"), str) else None,
    )
    return definition, problems


def load_single_tool_folder(folder: Path, *, namespace: str) -> tuple[list[ToolDefinition], list[LoadProblem]]:
    """One tool folder given on its own: it loads as it would among its siblings."""
    definition, problems = load_tool_folder(folder, source=str(folder.parent), namespace=namespace)
    return ([definition] if definition is not None else []), problems


def load_tool_folders(root: Path, *, source: str, namespace: str) -> tuple[list[ToolDefinition], list[LoadProblem]]:
    tools: list[ToolDefinition] = []
    problems: list[LoadProblem] = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        definition, found = load_tool_folder(folder, source=source, namespace=namespace)
        problems += found
        if definition is not None:
            tools.append(definition)
    return tools, problems
