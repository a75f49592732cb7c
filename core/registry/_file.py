"""Writing a built registry: every record, its version, each provider's schemas, and where it came from."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from ..export._providers import export_tool
from ._registry import Registry

REGISTRY_PROVIDERS = ("openai", "anthropic", "gemini")
_GIT_TIMEOUT_S = 5


def git_commit(folder: Path) -> str | None:
    """The commit checked out in the repository that holds ``folder``; ``None`` outside one (or without git)."""
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True, timeout=_GIT_TIMEOUT_S, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and len(commit) >= 40 else None


def _relative(path: Any, base: Path) -> Any:
    """A handler path as the loader reads it back: relative to the registry file, with forward slashes."""
    if not isinstance(path, str) or not os.path.isabs(path):
        return path
    try:
        return Path(os.path.relpath(path, base)).as_posix()
    except ValueError:  # another drive on Windows: only the absolute path can say where
        return path


def _relative_handlers(op: dict[str, Any], base: Path) -> dict[str, Any]:
    runs_on = op.get("runs_on") or {}
    if runs_on.get("kind") != "python":
        return op
    return {**op, "runs_on": {**runs_on, "target": _relative(runs_on.get("target"), base)}, "handler_path": _relative(op.get("handler_path"), base)}


def registry_document(registry: Registry, *, relative_to: Path | None = None, commit: str | None = None) -> dict[str, Any]:
    """The ``registry.json`` document. Handler paths are made relative to ``relative_to`` (the file's folder)."""
    document = registry.to_dict()
    if relative_to is not None:
        base = relative_to.resolve()
        document["ops"] = [_relative_handlers(op, base) for op in document["ops"]]
    if commit:
        document["git_commit"] = commit
    document["provider_schemas"] = {p: [export_tool(r, p) for r in registry] for p in REGISTRY_PROVIDERS}
    return document


def write_registry(registry: Registry, path: Path, *, commit: str | None = None) -> None:
    document = registry_document(registry, relative_to=path.parent, commit=commit)
    text = json.dumps(document, indent=2, ensure_ascii=False, sort_keys=False)
    path.write_text(text + "\n", encoding="utf-8")
