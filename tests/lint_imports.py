"""Check the import-linter contracts of pyproject.toml against opgate as installed.

Run: python tests/lint_imports.py [more lint-imports options, e.g. --verbose]

core/, tui/ and fixtures/ sit at the top of the repo and install as opgate.core,
opgate.tui and opgate.fixtures (``package-dir`` in pyproject.toml). import-linter
(through grimp) finds a root package by walking its folder, and the opgate/
folder holds no core/: run in the repo, ``lint-imports`` stops at "Module
'opgate.core' does not exist" and checks nothing. So this script lays the
installed package out in a temp folder, as symlinks to wherever the import
system finds each package, and runs ``lint-imports`` there with this repo's
pyproject.toml. Its exit status is lint-imports' own.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = REPO / "pyproject.toml"


def installed_packages() -> list[str]:
    """The packages the distribution installs, as pyproject.toml lists them."""
    return tomllib.loads(PYPROJECT.read_text())["tool"]["setuptools"]["packages"]


def stage_installed_layout(stage: Path) -> None:
    """Symlink each installed package into ``stage`` at the path its dotted name gives."""
    for name in sorted(installed_packages(), key=lambda package: package.count(".")):
        target = stage.joinpath(*name.split("."))
        if target.exists():
            continue  # inside a folder already linked whole
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            raise SystemExit(f"lint_imports: package {name} is not installed; run pip install -e '.[dev]' first")
        location = Path(next(iter(spec.submodule_search_locations)))
        if "." in name:
            target.symlink_to(location, target_is_directory=True)
            continue
        # A top-level package gets a real folder, so that mapped subpackages can be linked into it.
        target.mkdir(parents=True)
        for child in location.iterdir():
            if child.name != "__pycache__":
                (target / child.name).symlink_to(child)


def lint_imports_command() -> str:
    beside_python = Path(sys.executable).parent / "lint-imports"
    found = str(beside_python) if beside_python.exists() else shutil.which("lint-imports")
    if found is None:
        raise SystemExit("lint_imports: lint-imports is not installed; it comes with the dev extra (import-linter)")
    return found


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="opgate-lint-imports-") as folder:
        stage = Path(folder)
        stage_installed_layout(stage)
        # lint-imports puts its working folder first on sys.path: there, opgate is the staged one.
        command = [lint_imports_command(), "--no-cache", str(PYPROJECT), *argv]
        return subprocess.run(command, cwd=stage).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
