"""pyproject lists every package folder, so a normal (non-editable) install ships them all."""

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MAPPED = {"opgate": "opgate", "opgate.core": "core", "opgate.tui": "tui", "opgate.fixtures": "fixtures"}


def _package_folders() -> set[str]:
    found = set()
    for package, folder in MAPPED.items():
        root = REPO / folder
        for init in root.rglob("__init__.py"):
            if "__pycache__" in init.parts:
                continue
            relative = init.parent.relative_to(root).parts
            found.add(".".join((package, *relative)))
    return found


def test_every_package_folder_is_listed():
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert set(config["packages"]) == _package_folders()
    assert config["package-dir"] == MAPPED


def test_no_top_level_core_or_tui_package_is_installed():
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert not {"core", "tui"} & set(config["packages"])
