"""``opgate build DIR --out registry.json``: check tool folders and write the registry."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console



def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "build",
        help="check tool folders and write registry.json",
        description="Check every tool folder (schema.json, guide.md, handler.py) and write a versioned registry with provider schemas. Every problem is reported, not only the first.",
    )
    parser.add_argument("folder", type=Path, help="a folder of tool folders")
    parser.add_argument("--out", type=Path, default=Path("registry.json"), help="where to write the registry (default: registry.json)")
    parser.add_argument("--namespace", help="the namespace for ops whose names have no known shape (default: from the folder name)")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, console: Console) -> int:
    # Imported by the command that uses them, not by every command line.
    from opgate.core.catalog import load_tool_folders
    from opgate.core.catalog._sources import CatalogLoad, default_namespace
    from opgate.core.registry import build_registry
    from opgate.core.registry._file import write_registry

    folder: Path = args.folder
    if not folder.is_dir():
        console.print(f"[red]error:[/] {folder} is not a folder")
        return 2
    namespace = args.namespace if args.namespace is not None else default_namespace(folder)
    tools, problems = load_tool_folders(folder, source=str(folder), namespace=namespace)
    registry = build_registry([CatalogLoad(str(folder), namespace, tools, problems)])
    for problem in registry.problems:
        style = "red" if problem.severity == "error" else "yellow"
        console.print(f"[{style}]{problem.severity}[/] {problem.source}" + (f" {problem.field}" if problem.field else "") + f": {problem.message}", highlight=False, soft_wrap=True)
    errors = sum(p.severity == "error" for p in registry.problems)
    if errors:
        console.print(f"[red]{errors} error(s); {len(registry)} tool(s) are fine. Nothing written.[/]")
        return 1
    try:
        write_registry(registry, args.out)
    except OSError as exc:
        console.print(f"[red]error:[/] cannot write {args.out}: {exc.strerror or exc}")
        return 2
    console.print(f"wrote {args.out}: {len(registry)} ops, registry_version {registry.version}")
    return 0
