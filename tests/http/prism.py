"""Stoplight Prism serving a real OpenAPI document on 127.0.0.1, validating every request against it.

Installed by ensure_prism.sh into .cache/; a missing install fails the
tests, it never skips them. The documents are read in place from
../shared/data/openapi/.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
START_TIMEOUT_S = 120


def prism_bin() -> Path:
    result = subprocess.run(["bash", str(HERE / "ensure_prism.sh")], capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        pytest.fail(f"Prism could not be installed: {result.stderr.strip()}")
    return Path(result.stdout.strip().splitlines()[-1])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Prism:
    def __init__(self, document: Path, log: Path):
        self.document = document
        self.log = log
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self, bin_dir: Path) -> Prism:
        env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "NO_COLOR": "1"}
        with self.log.open("w") as out:
            self.process = subprocess.Popen([str(bin_dir / "prism"), "mock", "-h", "127.0.0.1", "-p", str(self.port), str(self.document)], stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if "Prism is listening" in self.log.read_text(errors="replace"):
                return self
            if self.process.poll() is not None:
                pytest.fail(f"Prism exited while starting on {self.document.name}:\n{self.log.read_text()[-2000:]}")
            time.sleep(0.2)
        self.stop()
        pytest.fail(f"Prism did not start within {START_TIMEOUT_S} s on {self.document.name}")

    def requests_received(self) -> int:
        """How many requests Prism has logged (its 'Request received' lines)."""
        return len(re.findall(r"Request received", self.log.read_text(errors="replace")))

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
