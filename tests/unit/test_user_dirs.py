"""core/_user_dirs.py names the folders platformdirs names, without importing it on Linux."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

CODE = """
import json, sys
from pathlib import Path
from opgate.core import _user_dirs
ours = [str(_user_dirs.user_data_dir()), str(_user_dirs.user_config_dir()), str(_user_dirs.user_cache_dir())]
loaded = "platformdirs" in sys.modules
import platformdirs
theirs = [platformdirs.user_data_dir("opgate", appauthor=False), platformdirs.user_config_dir("opgate"), platformdirs.user_cache_dir("opgate", appauthor=False)]
print(json.dumps([ours, theirs, loaded]))
"""

ENVIRONMENTS = {
    "home only": {"HOME": "/home/someone"},
    "xdg set": {"HOME": "/home/someone", "XDG_DATA_HOME": "/d", "XDG_CONFIG_HOME": "/c/", "XDG_CACHE_HOME": "/k"},
    "xdg relative": {"HOME": "/home/someone", "XDG_DATA_HOME": "d", "XDG_CONFIG_HOME": "", "XDG_CACHE_HOME": "./k"},
    "home with a slash": {"HOME": "/home/someone/"},
    "home relative": {"HOME": "someone"},
    "no home": {},
}


@pytest.mark.parametrize("env", ENVIRONMENTS.values(), ids=list(ENVIRONMENTS))
def test_the_folders_are_platformdirs_folders(env):
    result = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin", **env}, check=False)
    assert result.returncode == 0, result.stderr
    ours, theirs, loaded = json.loads(result.stdout)
    assert ours == theirs
    if sys.platform == "linux" and env.get("HOME", "/").startswith("/"):
        assert not loaded  # the lookup was ours
