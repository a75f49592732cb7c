"""Paths and a file writer shared by the collection tests (a module name of its own: conftest names clash across folders)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "fixtures" / "collections" / "demo"
PROJECT = "10000000-0000-4000-8000-000000000001"


def write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder
