"""Finding ``opgate.toml`` and reading it once.

The first of: the file named by ``--config``, ``./opgate.toml``, and
``opgate.toml`` in the user's config folder. No file is not an error: the
defaults apply. A named file that does not exist is.
"""

from __future__ import annotations

from pathlib import Path

from typing import TYPE_CHECKING

from ._model import OpgateConfig

if TYPE_CHECKING:
    from ._check import ConfigError  # noqa: F401 - raised by read_config

FILE_NAME = "opgate.toml"


def user_config_path() -> Path:
    from .._user_dirs import user_config_dir

    return user_config_dir() / FILE_NAME


def find_config(explicit: str | Path | None = None, *, cwd: Path | None = None) -> Path | None:
    """The configuration file to read, or ``None`` when there is none (``explicit`` is returned even if missing)."""
    if explicit:
        return Path(explicit).expanduser()
    for candidate in ((cwd or Path.cwd()) / FILE_NAME, user_config_path()):
        if candidate.is_file():
            return candidate
    return None


def read_config(path: Path) -> OpgateConfig:
    """The checked configuration in ``path``; :class:`ConfigError` lists every problem."""
    import tomllib  # only when there is a file: most command lines have none, and the parser costs them ~5 ms

    from ._check import ConfigError, ConfigProblem, check_config

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError([ConfigProblem(str(path), "", "no such file")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError([ConfigProblem(str(path), "", f"cannot read: {exc}")]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([ConfigProblem(str(path), "", f"not valid TOML: {exc}")]) from None
    except RecursionError:  # tomllib reads nested arrays and inline tables by recursion
        raise ConfigError([ConfigProblem(str(path), "", "not valid TOML here: arrays or inline tables nested too deeply")]) from None
    config, problems = check_config(data, path)
    if problems:
        raise ConfigError(problems)
    assert config is not None
    return config


def load_config(explicit: str | Path | None = None, *, cwd: Path | None = None) -> OpgateConfig:
    """Find and read the configuration; the defaults when there is no file."""
    path = find_config(explicit, cwd=cwd)
    return read_config(path) if path is not None else OpgateConfig()
