"""Shared names for the store tests, importable from tests and subprocesses alike.

Kept out of conftest.py so that ``from store_testing import ...`` can never
pick up another folder's conftest module.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


def make_importable() -> None:
    """Map opgate.core to the repo's core/ until the package is installed.

    pyproject.toml maps ``opgate.core`` to ``core/`` with package-dir; before
    ``pip install -e .`` covers the store, the same mapping is made here.
    """
    if importlib.util.find_spec("opgate") is None:
        sys.path.insert(0, str(REPO))
    import opgate

    if importlib.util.find_spec("opgate.core") is None:
        opgate.__path__.append(str(REPO))


make_importable()

SMALL_WORKSPACE = HERE / "small_workspace.json"


def uid(prefix: str, n: int) -> str:
    """The readable fixed ids the workspace files use (see docs/ontology.md)."""
    return f"{prefix}-0000-4000-8000-{n:012d}"


P1, P2 = uid("10000000", 1), uid("10000000", 2)
ENGINEERING, API_SPEC, DEPLOY_NOTES, MARKETING = (uid("50000000", n) for n in (1, 2, 3, 4))
TASK_SPEC, TASK_HOSTING, TASK_BLOG = (uid("20000000", n) for n in (1, 2, 3))
GOAL, PLAN, MILESTONE = uid("30000000", 1), uid("40000000", 1), uid("70000000", 1)
