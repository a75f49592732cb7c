"""The one-shot discovery commands end the upstream servers they started before they return, not at interpreter exit.

`opgate help`, `search` and `discover` run in this process (``opgate.cli.main``),
as an embedding program or a test would call them: the upstream server they
started must be gone when main() returns.
"""

from __future__ import annotations

import os

import pytest
import upstream_servers as us

from opgate.cli import main

COMMANDS = {
    "help": ["help", "shifty", "--json"],
    "search": ["search", "greet a person", "--json"],
    "discover": ["discover", "list", "shifty"],
}


@pytest.mark.parametrize("words", COMMANDS.values(), ids=COMMANDS.keys())
def test_a_discovery_command_ends_its_upstream_before_it_returns(tmp_path, capsys, words):
    config = us.write_config(tmp_path / "servers.json", {"shifty": us.shifty()})
    assert main(["--mcp-servers", str(config), "--db", str(tmp_path / "w.db"), *words]) == 0, capsys.readouterr()
    assert "shifty" in capsys.readouterr().out
    assert us.server_pids(os.getpid(), "shifty_server.py") == []
