"""Reading a collection folder and an environment file, with every problem reported precisely.

A collection is a folder of ``*.toml`` files, one saved call each, run in
file-name order (``010_list_projects.toml`` before ``020_create_task.toml``).
A call's name is its file name without the number prefix and the suffix
(``create_task``); later calls refer to its answer by that name or by its
position. ``collection.toml``, if present, is not a call: it gives the
collection's ``name``, ``description`` and default ``[vars]``.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from ._errors import CollectionError, problem
from ._expect import parse_expectation
from ._model import COLLECTION_FILE, Collection, SavedCall
from ._values import NAME, Resolver, uses

CALL_KEYS = {"op", "args", "args_json", "notes", "expect"}
COLLECTION_KEYS = {"name", "description", "vars"}
_PREFIX = re.compile(r"^\d+[_\-. ]*")
MAX_FILE_BYTES = 1_000_000


def call_name(file_name: str) -> str:
    """``020_create_task.toml`` -> ``create_task``."""
    stem = file_name[:-5] if file_name.endswith(".toml") else file_name
    return _PREFIX.sub("", stem) or stem


def _read_toml(path: Path, problems: list[str]) -> dict[str, Any] | None:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            problems.append(problem(path.name, None, f"is larger than {MAX_FILE_BYTES // 1000} KB; a saved call is a few lines"))
            return None
        return tomllib.loads(path.read_text("utf-8"))
    except UnicodeDecodeError:
        problems.append(problem(path.name, None, "is not UTF-8 text"))
    except tomllib.TOMLDecodeError as exc:
        problems.append(problem(path.name, None, f"is not valid TOML ({exc})"))
    except RecursionError:
        problems.append(problem(path.name, None, "nests tables or arrays too deeply to read"))
    except OSError as exc:
        problems.append(problem(path.name, None, f"cannot be read ({exc.strerror or exc})"))
    return None


def _unknown_keys(file: str, data: dict[str, Any], allowed: set[str], where: str = "") -> list[str]:
    return [
        problem(file, f"{where}{key}", f"is not a known key; expected one of {', '.join(sorted(allowed))}")
        for key in data if key not in allowed
    ]


def _args(file: str, data: dict[str, Any], problems: list[str]) -> dict[str, Any]:
    if "args" in data and "args_json" in data:
        problems.append(problem(file, "args_json", "cannot be given with [args]; use one of them"))
        return {}
    if "args_json" in data:
        # TOML has no null: arguments that hold one are kept as JSON text.
        text = data["args_json"]
        try:
            args = json.loads(text) if isinstance(text, str) else None
        except ValueError as exc:
            problems.append(problem(file, "args_json", f"is not valid JSON ({exc})"))
            return {}
        if not isinstance(args, dict):
            problems.append(problem(file, "args_json", "must be the text of a JSON object"))
            return {}
        return args
    args = data.get("args", {})
    if not isinstance(args, dict):
        problems.append(problem(file, "args", f"must be a table of arguments, not a {type(args).__name__}"))
        return {}
    return args


def load_call(path: Path, problems: list[str] | None = None) -> SavedCall | None:
    """One saved call; its problems are added to ``problems`` (raised as :class:`CollectionError` if none is given)."""
    own = problems is None
    problems = [] if problems is None else problems
    found = len(problems)
    data = _read_toml(path, problems)
    call = None
    if data is not None:
        file = path.name
        problems.extend(_unknown_keys(file, data, CALL_KEYS))
        op = data.get("op")
        if not isinstance(op, str) or not op.strip():
            problems.append(problem(file, "op", "is missing; expected the op to call, e.g. op = \"onto.task.list\""))
        notes = data.get("notes", "")
        if not isinstance(notes, str):
            problems.append(problem(file, "notes", "must be a string"))
        args = _args(file, data, problems)
        expect = parse_expectation(file, data.get("expect"), problems)
        name = call_name(file)
        if not NAME.fullmatch(name):
            problems.append(problem(file, None, f"gives the call name {name!r}; a name starts with a letter or _ and holds letters, digits, _ and - (e.g. 020_create_task.toml)"))
        if len(problems) == found:
            call = SavedCall(name, op.strip(), args, notes, expect, path)
    if own and problems:
        raise CollectionError(problems)
    return call


def _collection_file(folder: Path, problems: list[str]) -> dict[str, Any]:
    path = folder / COLLECTION_FILE
    if not path.exists():
        return {}
    data = _read_toml(path, problems) or {}
    problems.extend(_unknown_keys(COLLECTION_FILE, data, COLLECTION_KEYS))
    for key in ("name", "description"):
        if key in data and not isinstance(data[key], str):
            problems.append(problem(COLLECTION_FILE, key, "must be a string"))
    if "vars" in data and not isinstance(data["vars"], dict):
        problems.append(problem(COLLECTION_FILE, "vars", "must be a table of variables ([vars] project_id = \"...\")"))
    return data


def _check_references(calls: list[SavedCall], problems: list[str]) -> None:
    """References must name an earlier call: caught when the collection loads, before anything runs."""
    resolver = Resolver([c.name for c in calls], {})
    for position, call in enumerate(calls):
        steps, _ = uses(call.args)
        for ref, where in steps:
            index = resolver.step_index(ref)
            if index is None:
                problems.append(problem(call.file_name, where, f"${ref} names no call of this collection (names: {', '.join(c.name for c in calls)})"))
            elif index >= position:
                problems.append(problem(call.file_name, where, f"${ref} is call {index}, which does not run before this one; refer to earlier calls only"))


def shipped_collections() -> dict[str, Path]:
    """The collections that ship with opgate (``demo``), by name."""
    from .._builtin import fixtures_dir

    root = fixtures_dir() / "collections"
    return {p.name: p for p in sorted(root.iterdir()) if p.is_dir()} if root.is_dir() else {}


def find_collection(text: str | Path) -> Path:
    """A folder, or else the name of a collection shipped with opgate (``opgate run demo``)."""
    folder = Path(text)
    if folder.is_dir():
        return folder
    shipped = shipped_collections()
    if str(text) in shipped:
        return shipped[str(text)]
    names = ", ".join(shipped) or "none"
    raise CollectionError([f"{text}: is not a folder; a collection is a folder of .toml files, one call each (shipped collections: {names})"])


def load_collection(folder: str | Path) -> Collection:
    """The collection in ``folder`` (or shipped under that name); :class:`CollectionError` lists every problem found."""
    folder = find_collection(folder)
    problems: list[str] = []
    meta = _collection_file(folder, problems)
    calls: list[SavedCall] = []
    names: dict[str, str] = {}
    for path in sorted(p for p in folder.iterdir() if p.suffix == ".toml" and p.name != COLLECTION_FILE and p.is_file()):
        call = load_call(path, problems)
        if call is None:
            continue
        if call.name in names:
            problems.append(problem(path.name, None, f"gives the call name {call.name!r}, which {names[call.name]} already has; rename one file"))
        names[call.name] = path.name
        calls.append(call)
    if not calls and not problems:
        problems.append(f"{folder}: holds no saved call (*.toml besides {COLLECTION_FILE})")
    _check_references(calls, problems)
    if problems:
        raise CollectionError(problems)
    variables = meta.get("vars") if isinstance(meta.get("vars"), dict) else {}
    return Collection(folder, str(meta.get("name") or folder.name), str(meta.get("description") or ""), dict(variables), tuple(calls))


def load_env(path: str | Path) -> dict[str, Any]:
    """The variables of an environment file: a TOML file of ``name = value`` lines (``[vars]`` is accepted too)."""
    path = Path(path)
    problems: list[str] = []
    data = _read_toml(path, problems)
    if data is None:
        raise CollectionError(problems)
    if set(data) == {"vars"} and isinstance(data["vars"], dict):
        data = data["vars"]
    bad = [problem(path.name, key, "is not a variable name (letters, digits, _ and -, starting with a letter or _)") for key in data if not NAME.fullmatch(key)]
    if bad:
        raise CollectionError(bad)
    return dict(data)
