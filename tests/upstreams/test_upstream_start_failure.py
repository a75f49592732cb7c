"""A stdio server that exits at once says why on its stderr: opgate quotes the end of it, not only "Connection closed"."""

from __future__ import annotations

import json

import upstream_servers as us
from test_upstream_cli import run_json

SECRET = "hunter2-secret-value"


def _config(tmp_path):
    # node prints "Error: Cannot find module '<path>'" and exits; the env value is configured, so it is a secret
    missing = tmp_path / "gone" / f"server-{SECRET}.js"
    return us.write_config(tmp_path / "servers.json", {"broken": {"command": us.node(), "args": [str(missing)], "env": {"TOKEN": SECRET}}})


def test_a_missing_script_is_reported_with_the_end_of_its_stderr_in_opgate_upstreams(tmp_path, db):
    config = _config(tmp_path)
    code, listing = run_json("--mcp-servers", str(config), "--db", str(db), "upstreams")
    [line] = listing["upstreams"]
    assert line["state"] == "failed", line
    error = line["last_error"]
    assert "Cannot find module" in error and "its stderr ended with:" in error, error
    assert SECRET not in json.dumps(listing) and "\n" not in error and len(error) < 1500, error


def test_control_characters_on_stderr_are_escaped(tmp_path, db):
    script = tmp_path / "noisy.py"
    script.write_text("import sys\nsys.stderr.write('\\x1b[2J\\x1b[31mboom\\rforged line\\x07\\n')\nsys.exit(3)\n", encoding="utf-8")
    import sys

    config = us.write_config(tmp_path / "servers.json", {"noisy": {"command": sys.executable, "args": [str(script)]}})
    code, listing = run_json("--mcp-servers", str(config), "--db", str(db), "upstreams")
    error = listing["upstreams"][0]["last_error"]
    assert "boom | forged line" in error and "\\x1b[31m" in error and "\\x07" in error, error  # a carriage return splits a line, as a terminal would show it
    assert not any(ord(ch) < 32 for ch in error), error


def test_closing_while_a_server_has_not_answered_initialize_is_prompt(tmp_path, db):
    """A server that never answers initialize (here it reads nothing and writes nothing) kept every command that had
    tried to list it waiting 10 s more at its end (12.7 s in all): closing waited for a session end that a start cannot have."""
    import sys
    import time

    from opgate.core import Gateway
    from opgate.core.executors.mcp import Upstreams

    script = tmp_path / "mute.py"
    script.write_text("import time\ntime.sleep(600)\n", encoding="utf-8")
    config = us.write_config(tmp_path / "servers.json", {"mute": {"command": sys.executable, "args": [str(script)]}})
    gateway = Gateway(db_path=db, upstreams=Upstreams.from_files([config], list_timeout_s=1.0))
    try:
        root = gateway.help("")
        assert [line["name"] for line in root["unavailable"]] == ["mute"], root.get("unavailable")
    finally:
        started = time.monotonic()
        gateway.close()
        closing_s = time.monotonic() - started
    assert closing_s < 4, f"closing took {closing_s:.1f} s"
