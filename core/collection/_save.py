"""Saving a call to a collection folder: a new numbered TOML file, never overwriting one."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from . import _toml
from ._errors import CollectionError
from ._load import call_name, load_call
from ._model import COLLECTION_FILE

_NUMBER = re.compile(r"^(\d+)")
_SLUG = re.compile(r"[^a-z0-9]+")
STEP = 10  # room to put a call between two others by hand


def saved_call_text(op: str, args: dict[str, Any], *, notes: str = "", expect: dict[str, Any] | None = None) -> str:
    """The TOML text of a saved call (arguments that TOML cannot hold are kept as ``args_json``)."""
    lines = [f"op = {_toml.string(op)}"]
    if notes:
        lines.append(f"notes = {_toml.multiline(notes) if chr(10) in notes else _toml.string(notes)}")
    if not _toml.representable(args):
        lines.append(f"args_json = {_toml.string(json.dumps(args, ensure_ascii=False))}")
    elif args:
        lines += ["", *_toml.table("args", args)]
    expect = dict(expect or {})
    top = {k: v for k, v in expect.items() if not isinstance(v, dict)}
    if top or not expect:
        lines += ["", *_toml.table("expect", top or {"ok": True})]
    for part in ("result", "diff"):
        if expect.get(part):
            lines += ["", *_toml.table(f"expect.{part}", expect[part])]
    return "\n".join(lines) + "\n"


def _slug(text: str) -> str:
    return _SLUG.sub("_", text.lower()).strip("_")[:48] or "call"


def _next_number(folder: Path) -> int:
    numbers = [int(m.group(1)) for p in folder.glob("*.toml") if (m := _NUMBER.match(p.name))]
    return (max(numbers) // STEP + 1) * STEP if numbers else STEP


def save_call(folder: str | Path, op: str, args: dict[str, Any], *, name: str = "", notes: str = "",
              expect: dict[str, Any] | None = None) -> Path:
    """Write the call as the collection's next file (``030_create_task.toml``) and return its path.

    ``name`` becomes the file's (and the call's) name; by default it comes
    from the op (``onto.task.create`` -> ``task_create``). The folder is
    made if needed. The file is read back before this returns, so a saved
    call always loads; :class:`CollectionError` says why if it would not.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    slug = _slug(name or ".".join(op.split(".")[-2:]))
    if not slug[0].isalpha() and slug[0] != "_":
        slug = f"call_{slug}"
    names = {call_name(p.name) for p in folder.glob("*.toml") if p.name != COLLECTION_FILE}
    unique, suffix = slug, 2
    while unique in names:  # call names are unique in a collection: references use them
        unique, suffix = f"{slug}_{suffix}", suffix + 1
    path = folder / f"{_next_number(folder):03d}_{unique}.toml"
    try:
        text = saved_call_text(op, args, notes=notes, expect=expect)
    except (RecursionError, TypeError) as exc:
        raise CollectionError([f"{op}: the arguments cannot be saved ({'they nest too deeply' if isinstance(exc, RecursionError) else exc})"]) from None
    with open(path, "x", encoding="utf-8") as handle:  # "x": never replaces a file someone else just wrote
        handle.write(text)
    try:
        load_call(path)
    except CollectionError:
        path.unlink()
        raise
    return path
