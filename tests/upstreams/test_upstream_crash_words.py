"""An upstream that fails is shown, with its own last words: at help's root, and when it dies after a good start.

A server that failed to start vanished from help's root (only asking for its
namespace told why), and one that died later, mid-call or between calls,
said only "closed the connection": its stderr, which a failed start quotes,
was not read for it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import upstream_servers as us
from opgate.core import Gateway
from opgate.core.executors.mcp import Upstreams

HERE = Path(__file__).resolve().parent


def _erring() -> dict:
    return {"command": sys.executable, "args": [str(HERE / "erring_server.py")], "env": {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}}


def _broken(tmp_path) -> dict:
    script = tmp_path / "broken.js"
    script.write_text("console.error('boot failure: no API key in BROKEN_KEY'); process.exit(3);\n", encoding="utf-8")
    return {"command": us.node(), "args": [str(script)]}


def test_help_root_lists_an_upstream_that_failed_to_start_with_its_state_and_why(tmp_path, modules, capfd):
    config = us.write_config(tmp_path / "servers.json", {"memory": us.memory(modules, tmp_path), "broken": _broken(tmp_path)})
    gateway = Gateway(db_path=tmp_path / "w.db", upstreams=Upstreams.from_files([config]))
    try:
        root = gateway.help("")
        assert "memory" in [g["name"] for g in root["groups"]]
        (down,) = root["unavailable"]
        assert down["name"] == "broken" and down["state"] == "failed" and "boot failure: no API key" in down["why"], down
        assert gateway.exec("broken.anything", {})["error"]["details"]["upstream"] == "broken"
        assert "unavailable" not in gateway.help("memory")
    finally:
        gateway.close()
    assert "Future exception was never retrieved" not in capfd.readouterr().err
    shown = subprocess.run([sys.executable, "-m", "opgate", "--db", str(tmp_path / "w.db"), "--mcp-servers", str(config), "help"], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert "unavailable now" in shown.stdout and "broken" in shown.stdout and "failed" in shown.stdout, shown.stdout
    assert "Traceback" not in shown.stderr and "Future exception" not in shown.stderr, shown.stderr


def test_a_server_that_dies_mid_call_is_reported_with_its_last_words(tmp_path):
    config = us.write_config(tmp_path / "servers.json", {"erring": _erring()})
    gateway = Gateway(db_path=tmp_path / "w.db", upstreams=Upstreams.from_files([config]), allow_write=True)
    try:
        assert gateway.exec("erring.whoami", {})["ok"]
        died = gateway.exec("erring.crash", {"words": "fatal: the disk cache is corrupt"})
        assert died["error"]["code"] == "INTERNAL" and died["error"]["details"]["retryable"] is True, died
        assert "fatal: the disk cache is corrupt" in died["error"]["message"], died["error"]["message"]
        (line,) = gateway.upstreams.status()
        assert "fatal: the disk cache is corrupt" in line["last_error"], line
        assert gateway.exec("erring.whoami", {})["ok"], "the server was not restarted on the next call"
    finally:
        gateway.close()


def test_a_server_that_dies_between_calls_says_why_in_its_state(tmp_path):
    config = us.write_config(tmp_path / "servers.json", {"erring": _erring()})
    gateway = Gateway(db_path=tmp_path / "w.db", upstreams=Upstreams.from_files([config]), allow_write=True)
    try:
        assert gateway.exec("erring.leave", {"words": "out of memory: bye", "after_s": 0.2})["ok"]
        deadline = time.monotonic() + 10
        while gateway.upstreams.status()[0]["state"] != "failed" and time.monotonic() < deadline:
            time.sleep(0.05)
        (line,) = gateway.upstreams.status()
        assert line["state"] == "failed" and "out of memory: bye" in (line["last_error"] or ""), line
    finally:
        gateway.close()


def test_a_start_nobody_waits_for_any_more_prints_nothing_when_it_fails(tmp_path):
    """A listing that waited 0 s, then close(): the start failed with no waiter, and Python printed its exception."""
    script = tmp_path / "run.py"
    script.write_text(
        "import sys\n"
        "from opgate.core.executors.mcp import Upstreams\n"
        "import gc\n"
        "for _ in range(3):\n"
        "    upstreams = Upstreams.from_files([sys.argv[1]])\n"
        "    upstreams.ensure_listed(timeout=0)\n"
        "    upstreams.close()\n"
        "    gc.collect()\n",
        encoding="utf-8",
    )
    config = us.write_config(tmp_path / "servers.json", {"broken": _broken(tmp_path)})
    ran = subprocess.run([sys.executable, str(script), str(config)], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert "Future exception was never retrieved" not in ran.stderr and "Traceback" not in ran.stderr, ran.stderr
