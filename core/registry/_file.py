"""Writing a built registry: every record, its version, and each provider's schemas."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..export._providers import export_tool
from ._registry import Registry

REGISTRY_PROVIDERS = ("openai", "anthropic", "gemini")


def registry_document(registry: Registry) -> dict[str, Any]:
    document = registry.to_dict()
    document["provider_schemas"] = {p: [export_tool(r, p) for r in registry] for p in REGISTRY_PROVIDERS}
    return document


def write_registry(registry: Registry, path: Path) -> None:
    text = json.dumps(registry_document(registry), indent=2, ensure_ascii=False, sort_keys=False)
    path.write_text(text + "\n", encoding="utf-8")
