"""The explorer's widget and screen packages load each name on first use: every name in ``__all__`` is reachable,
each from a fresh interpreter (no import cycle whichever comes first), ``dir()`` lists them before they load,
and an unknown name is an AttributeError."""

from __future__ import annotations

import subprocess
import sys

import pytest

PACKAGES = ("opgate.tui.widgets", "opgate.tui.screens")

_CHECK = """
import importlib, pkgutil, sys
package = importlib.import_module(sys.argv[1])
listed = set(dir(package))
missing = [name for name in package.__all__ if name not in listed]
assert not missing, f"dir() leaves out {missing}"
try:
    package.NoSuchWidget
except AttributeError as exc:
    assert "NoSuchWidget" in str(exc)
else:
    raise SystemExit("an unknown name did not raise AttributeError")
assert not hasattr(package, "no_such_name")
names = {}
exec(f"from {sys.argv[1]} import *", names)
assert set(package.__all__) <= set(names)
for module in pkgutil.iter_modules(package.__path__):
    importlib.import_module(f"{sys.argv[1]}.{module.name}")
"""


@pytest.mark.parametrize("package", PACKAGES)
def test_every_name_is_reachable_listed_and_unknown_names_raise_attribute_error(package):
    done = subprocess.run([sys.executable, "-c", _CHECK, package], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("package", PACKAGES)
def test_each_name_imports_first_in_a_fresh_interpreter(package):
    names = subprocess.run([sys.executable, "-c", f"import {package} as p; print(*p.__all__)"], capture_output=True, text=True, timeout=120).stdout.split()
    assert names
    for name in names:
        done = subprocess.run([sys.executable, "-c", f"from {package} import {name}"], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (name, done.stderr[-1500:])
