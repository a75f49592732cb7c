"""The user's data, config and cache folders for opgate, as platformdirs names them.

On Linux the answer is the XDG rule (``$XDG_DATA_HOME``, ``$XDG_CONFIG_HOME``,
``$XDG_CACHE_HOME`` when absolute, else ``~/.local/share``, ``~/.config``,
``~/.cache``), worked out here: importing platformdirs costs every command
line about 27 million instructions (it loads tempfile, shutil, random and
the compression modules), more than the folder lookup it serves.
Elsewhere, and on Linux when the home folder cannot be told, platformdirs
answers. tests/unit/test_user_dirs.py checks both agree.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["user_cache_dir", "user_config_dir", "user_data_dir"]

APP = "opgate"
_XDG = {"data": ("XDG_DATA_HOME", ".local/share"), "config": ("XDG_CONFIG_HOME", ".config"), "cache": ("XDG_CACHE_HOME", ".cache")}


def _xdg(kind: str) -> Path | None:
    variable, under_home = _XDG[kind]
    base = os.environ.get(variable, "")
    if os.path.isabs(base):
        return Path(base, APP)
    # No $HOME: the password database's, as os.path.expanduser (and platformdirs) find it. A relative
    # $HOME: platformdirs' own rule (it asks the password database), so it answers.
    home = os.environ["HOME"] if "HOME" in os.environ else os.path.expanduser("~")
    if not os.path.isabs(home):
        return None
    return Path(home, under_home, APP)


def _folder(kind: str, **platformdirs_options: bool) -> Path:
    if sys.platform == "linux" and (found := _xdg(kind)) is not None:
        return found
    import platformdirs

    return Path(getattr(platformdirs, f"user_{kind}_dir")(APP, **platformdirs_options))


def user_data_dir() -> Path:
    """Where the default workspace lives (``~/.local/share/opgate`` on Linux)."""
    return _folder("data", appauthor=False)


def user_config_dir() -> Path:
    """Where the user's ``opgate.toml`` lives (``~/.config/opgate`` on Linux; on Windows under an ``opgate`` author folder, as it always was)."""
    return _folder("config")


def user_cache_dir() -> Path:
    """Where cached registries and indexes live (``~/.cache/opgate`` on Linux)."""
    return _folder("cache", appauthor=False)
