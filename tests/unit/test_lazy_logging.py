"""The command line's log lines still reach stderr, though logging loads only when something first logs."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys
from opgate.cli._logging import configure_logging
from opgate.core._log import LazyLogger

configure_logging()
print("loaded before:", "logging" in sys.modules, flush=True)
log = LazyLogger("opgate.exec")
try:
    raise ValueError("the detail")
except ValueError:
    log.exception("unexpected failure in %s", "onto.task.list")
log.debug("not shown")  # below WARNING unless OPGATE_DEBUG
LazyLogger("opgate.cache").warning("a warning")
"""


def _run(env_debug: str | None) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", **({"OPGATE_DEBUG": env_debug} if env_debug else {})}
    return subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=60, env=env)


def test_the_first_line_logged_loads_logging_and_is_written_briefly():
    result = _run(None)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "loaded before: False"
    assert result.stderr.splitlines() == ["opgate: unexpected failure in onto.task.list (ValueError: the detail)", "opgate: a warning"]


def test_debug_keeps_the_traceback():
    result = _run("1")
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("opgate: ERROR unexpected failure in onto.task.list\nTraceback")
    assert "opgate: DEBUG not shown" in result.stderr and "opgate: WARNING a warning" in result.stderr  # debug shows debug lines too


def test_logging_already_loaded_is_configured_at_once():
    code = "import logging\n" + CODE.replace('print("loaded before:", "logging" in sys.modules, flush=True)', "")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == ["opgate: unexpected failure in onto.task.list (ValueError: the detail)", "opgate: a warning"]


SWAPPED = """
import io, logging, sys  # logging already loaded: configured at once, while stderr is swapped
from opgate.cli._logging import configure_logging
from opgate.core._log import LazyLogger

real = sys.stderr
sys.stderr = swapped = io.StringIO()
configure_logging()  # configured while stderr is swapped, as a test's capture or a host program may do
sys.stderr = real
swapped.close()
LazyLogger("opgate.exec").warning("after the swap")
"""


def test_lines_go_to_the_current_stderr_not_a_closed_one():
    result = subprocess.run([sys.executable, "-c", SWAPPED], capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert result.stderr == "opgate: after the swap\n"
