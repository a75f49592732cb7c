"""opgate.toml: found, checked whole, every problem named by file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from opgate.cli import main
from opgate.core.config import ConfigError, find_config, load_config, read_config

DOCUMENT = Path(__file__).resolve().parents[1] / "http" / "loopback_openapi.json"

COMPLETE = f"""
database = "workspace.db"
context = "project"

[upstreams.items]
openapi = "{DOCUMENT}"
base_url = "http://127.0.0.1:9"
timeout_s = 5
retries = 1
read_only = false
confirm = ["DELETE", "createItem"]
idempotency_header = "Idempotency-Key"
headers = {{ "X-Env" = "test" }}

[upstreams.items.auth]
api_key_env = "ITEMS_API_KEY"

[upstreams.items.operations.listItems]
kind = "read"

[upstreams.github]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]
env = {{ GITHUB_PERSONAL_ACCESS_TOKEN = "token" }}

[upstreams.remote]
url = "https://mcp.example.com/mcp"
headers = {{ Authorization = "Bearer x" }}

[explorer]
theme = "textual-dark"
keymap = {{ "opgate.dry_run" = "f8" }}
"""


def test_a_complete_file_is_read(tmp_path):
    path = tmp_path / "opgate.toml"
    path.write_text(COMPLETE)
    config = read_config(path)
    assert config.database == tmp_path / "workspace.db" and config.context == "project"
    items = config.http_upstreams["items"]
    assert items.timeout_s == 5 and items.auth.api_key_env == "ITEMS_API_KEY"
    assert items.policy().operations["createItem"]["confirm"] is True
    assert config.mcp_servers["github"] == {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "token"}}
    assert config.mcp_servers["remote"] == {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer x"}}
    assert config.keymap == {"opgate.dry_run": "f8"} and config.theme == "textual-dark"


def test_every_problem_is_named_by_file_and_key(tmp_path):
    path = tmp_path / "opgate.toml"
    path.write_text(f"""
colour = "blue"
[upstreams.items]
openapi = "{DOCUMENT}"
base_ulr = "http://x"
timeout_s = "soon"
[upstreams.items.auth]
token = "literal-secret"
[upstreams.gone]
openapi = "missing.yaml"
[upstreams.odd]
nothing = 1
[explorer]
keymap = {{ "opgate.run" = 5 }}
""")
    with pytest.raises(ConfigError) as caught:
        read_config(path)
    where = {p.key: p.message for p in caught.value.problems}
    assert all(p.file == str(path) for p in caught.value.problems)
    assert "unknown key" in where["colour"]
    assert "unknown key" in where["upstreams.items.base_ulr"]
    assert "expected a number of seconds" in where["upstreams.items.timeout_s"]
    assert "unknown key" in where["upstreams.items.auth.token"]
    assert "no such file" in where["upstreams.gone.openapi"]
    assert "expected 'openapi'" in where["upstreams.odd"]
    assert "expected keys" in where["explorer.keymap.opgate.run"]


def test_the_file_is_found_in_the_current_folder(tmp_path):
    (tmp_path / "opgate.toml").write_text('context = "work"\n')
    assert find_config(cwd=tmp_path) == tmp_path / "opgate.toml"
    assert load_config(cwd=tmp_path).context == "work"


def test_config_check_reports_and_fails(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[upstreams.x]\nopenapi = 3\n")
    assert main(["config", "check", "--config", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "upstreams.x.openapi" in out and str(bad) in out
    good = tmp_path / "good.toml"
    good.write_text(COMPLETE)
    assert main(["--config", str(good), "config", "check"]) == 0
    assert "ok" in capsys.readouterr().out


def test_a_broken_configuration_stops_a_command_with_its_problems(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("unknown = 1\n")
    assert main(["help", "--config", str(bad)]) == 2
    assert "unknown" in capsys.readouterr().err


def test_the_serve_mode_is_checked(tmp_path):
    path = tmp_path / "opgate.toml"
    path.write_text('mode = "hybrid"\n')
    assert read_config(path).mode == "hybrid"
    path.write_text('mode = "adaptive"\n')
    with pytest.raises(ConfigError) as caught:
        read_config(path)
    assert "mode" in str(caught.value.problems[0]) and "'protocol'" in str(caught.value.problems[0])


@pytest.mark.parametrize(("text", "key", "words"), [
    ('database = "~nosuchuser_opgate/w.db"', "database", "cannot find the home folder of '~nosuchuser_opgate'"),
    ('cache_dir = "~nosuchuser_opgate"', "cache_dir", "cannot find the home folder"),
    ('database = "work\\u0000space.db"', "database", "cannot hold a NUL character"),
    ('[upstreams.items]\nopenapi = "' + "a" * 5_000 + '"', "upstreams.items.openapi", "cannot look for"),
    ('[upstreams.files]\ncommand = "node"\ncwd = "~nosuchuser_opgate/x"', "upstreams.files.cwd", "cannot find the home folder"),
], ids=["unknown user", "unknown user's cache", "NUL", "name too long", "unknown user's cwd"])
def test_paths_the_machine_cannot_use_are_problems_not_tracebacks(tmp_path, capsys, text, key, words):
    """Each of these raised out of the check (RuntimeError from expanduser, OSError from exists) and `opgate config
    check` printed a traceback; a NUL in the database path was accepted and failed later, when the store opened."""
    path = tmp_path / "opgate.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        read_config(path)
    [problem] = caught.value.problems
    assert problem.key == key and words in problem.message, problem
    assert len(problem.message) < 500, "a 5,000-character name is not repeated whole"
    assert main(["config", "check", "--config", str(path)]) == 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err and words in captured.out


def test_arrays_nested_past_the_parser_are_a_problem_not_a_traceback(tmp_path):
    path = tmp_path / "opgate.toml"
    path.write_text("x = " + "[" * 5_000 + "]" * 5_000, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        read_config(path)
    assert "nested too deeply" in str(caught.value)


def test_a_huge_wrong_value_is_quoted_in_part(tmp_path):
    path = tmp_path / "opgate.toml"
    path.write_text('search = "' + "x" * 1_000_000 + '"\n[explorer.keymap]\n"opgate.dry_run" = "' + "!" * 100_000 + '"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        read_config(path)
    assert len(caught.value.problems) == 2 and all(len(p.message) < 600 for p in caught.value.problems), [len(p.message) for p in caught.value.problems]
    assert "1,000,002 characters" in str(caught.value)


def test_an_http_apis_headers_are_ones_http_can_carry(tmp_path):
    path = tmp_path / "opgate.toml"
    path.write_text(f'[upstreams.items]\nopenapi = "{DOCUMENT}"\nheaders = {{ "X-Key" = "s3cret-9876\\n", "Bad Name" = "x" }}\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        read_config(path)
    found = {p.key: p.message for p in caught.value.problems}
    assert "line break" in found["upstreams.items.headers.X-Key"] and "not a header name" in found["upstreams.items.headers.Bad Name"], found
    assert "s3cret" not in str(caught.value)
