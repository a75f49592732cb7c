"""Stops the test session's PostgreSQL cluster when the session ends, however it ends.

``python3 pg_watchdog.py ROOT STOP_COMMAND...``: waits until its standard
input reaches its end, then runs STOP_COMMAND and removes the folder ROOT.
The session holds the only writing end of that pipe, and the kernel closes it
when the session's process ends for any reason: a finished run (PgCluster.stop
closes it), an error, SIGTERM, SIGKILL, a CI job killed. pg_ctl starts the
server in a session of its own, so without this a killed test run left the
server and its data folder behind.

It runs in a session of its own too (Ctrl-C in a terminal reaches the whole
foreground group, and it must outlive pytest to do its work) and ignores the
signals a terminal sends.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys


def main(argv: list[str]) -> int:
    root, stop_command = argv[1], argv[2:]
    for number in (signal.SIGINT, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)
    while sys.stdin.buffer.read(4096):  # nothing is ever written: this returns once the writing end is closed
        pass
    # Not running (never started, or stopped already) is fine: the folder goes either way.
    subprocess.run(stop_command, capture_output=True, cwd="/")
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
