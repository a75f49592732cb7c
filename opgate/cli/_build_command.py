"""``opgate build``: check tool folders (or the built-in catalogue) and write ``registry.json``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


# The catalogue and registry code is imported by this command when it runs, not by every command line.


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "build",
        help="check tool folders and write registry.json",
        description=(
            "Check every tool folder (schema.json, guide.md, handler.py) and write a versioned registry with provider schemas. "
            "Every problem is reported, not only the first. Handlers are parsed, never imported."
        ),
    )
    parser.add_argument("folder", type=Path, nargs="?", help="a folder of tool folders, or one tool folder")
    parser.add_argument("--builtin", action="store_true", help="write the built-in catalogue's registry instead of a folder's")
    parser.add_argument("--out", type=Path, default=Path("registry.json"), help="where to write the registry (default: registry.json)")
    parser.add_argument("--namespace", help="the namespace for ops whose names have no known shape (default: from the folder name)")
    parser.add_argument("--run-examples", action="store_true", help="then run every example through a gateway over the written registry (writes as dry-runs); exit 1 if any fails")
    parser.set_defaults(run=run)
    return parser


def _folder_load(folder: Path, namespace: str | None):
    from opgate.core.catalog._folders import is_tool_folder, load_single_tool_folder, load_tool_folders
    from opgate.core.catalog._sources import CatalogLoad, default_namespace

    if is_tool_folder(folder):
        ns = namespace if namespace is not None else default_namespace(folder.resolve().parent)
        tools, problems = load_single_tool_folder(folder, namespace=ns)
    else:
        ns = namespace if namespace is not None else default_namespace(folder)
        tools, problems = load_tool_folders(folder, source=str(folder), namespace=ns)
    return CatalogLoad(str(folder), ns, tools, problems)


def _report(registry, console: Console) -> int:
    from rich.text import Text

    for problem in registry.problems:
        style = "red" if problem.severity == "error" else "yellow"
        # Problems quote the catalogue (field names, patterns, descriptions): plain text, never markup.
        where = f" {problem.source}" + (f" {problem.field}" if problem.field else "")
        console.print(Text.assemble((problem.severity, style), f"{where}: {problem.message}"), highlight=False, soft_wrap=True)
    return sum(p.severity == "error" for p in registry.problems)


def _run_examples(out: Path, console: Console) -> int:
    from rich.text import Text

    from ._examples_run import run_examples

    runs = run_examples(out)
    failed = [run for run in runs if not run.ok]
    for run in failed:
        console.print(Text.assemble(("failed", "red"), f" {run.op} ({run.title}): {run.problem}"), highlight=False, soft_wrap=True)
    style = "red" if failed else "green"
    console.print(f"[{style}]{len(runs)} example(s) ran, {len(failed)} failed[/]")
    return 1 if failed else 0


def run(args: argparse.Namespace, console: Console) -> int:
    from rich.text import Text

    from opgate.core._builtin import builtin_catalog_loads, fixtures_dir
    from opgate.core.registry import build_registry
    from opgate.core.registry._file import git_commit, write_registry

    folder: Path | None = args.folder
    if args.builtin == (folder is not None):
        console.print("[red]error:[/] give a folder of tool folders, or --builtin (not both)")
        return 2
    if folder is not None and not folder.is_dir():
        console.print(Text.assemble(("error:", "red"), f" {folder} is not a folder"), soft_wrap=True)
        return 2
    loads = builtin_catalog_loads() if args.builtin else [_folder_load(folder, args.namespace)]
    registry = build_registry(loads)
    errors = _report(registry, console)
    if errors:
        console.print(f"[red]{errors} error(s); {len(registry)} tool(s) are fine. Nothing written.[/]")
        return 1
    if len(registry) == 0:
        console.print(Text.assemble(("error:", "red"), f" no tool folders in {folder}: a tool folder holds schema.json, guide.md and handler.py (`opgate new tool NAME {folder}` makes one). Nothing written."), soft_wrap=True)
        return 1
    try:
        write_registry(registry, args.out, commit=git_commit(fixtures_dir() if args.builtin else folder))
    except OSError as exc:
        console.print(Text.assemble(("error:", "red"), f" cannot write {args.out}: {exc.strerror or exc}"), soft_wrap=True)
        return 2
    console.print(Text(f"wrote {args.out}: {len(registry)} ops, registry_version {registry.version}"), soft_wrap=True)
    return _run_examples(args.out, console) if args.run_examples else 0
