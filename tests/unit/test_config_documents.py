"""opgate.toml's words about an HTTP API are checked against its document: a selector that names no
operation would change nothing, silently (a misspelt ``confirm`` entry leaves a write unconfirmed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from opgate.cli import main
from opgate.core import Gateway
from opgate.core.config import read_config

DOCUMENT = Path(__file__).resolve().parents[1] / "http" / "loopback_openapi.json"


def _config(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "opgate.toml"
    path.write_text(f'[upstreams.items]\nopenapi = "{DOCUMENT}"\n{body}', encoding="utf-8")
    return path


def _check(path: Path, capsys) -> tuple[int, str]:
    code = main(["config", "check", "--config", str(path)])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return code, captured.out.replace(": \n", ": ")  # a long path folds the line after the file's name


def test_a_misspelt_confirm_selector_is_a_problem_naming_the_closest_operation(tmp_path, capsys):
    path = _config(tmp_path, 'confirm = ["DELETE", "createItm"]\n')
    code, out = _check(path, capsys)
    assert code == 1
    assert "upstreams.items.confirm" in out and "'createItm'" in out and "'createItem'" in out, out


def test_an_operations_table_naming_no_operation_is_a_problem(tmp_path, capsys):
    path = _config(tmp_path, '[upstreams.items.operations."get /items"]\nkind = "write"\n')
    code, out = _check(path, capsys)
    assert code == 1
    assert "upstreams.items.operations.get /items" in out and "'GET /items'" in out, out


def test_selectors_that_name_operations_pass(tmp_path, capsys):
    path = _config(tmp_path, 'confirm = ["DELETE", "createItem", "GET /items/{id}"]\n[upstreams.items.operations.listItems]\nkind = "read"\n')
    code, out = _check(path, capsys)
    assert code == 0, out


def test_a_confirm_entry_in_capitals_must_be_an_http_method(tmp_path, capsys):
    """Upper-case entries are read as methods: "DELET" matched no request and asked nobody."""
    path = _config(tmp_path, 'confirm = ["DELET"]\n')
    code, out = _check(path, capsys)
    assert code == 1 and "upstreams.items.confirm" in out and "'DELET'" in out and "HTTP method" in out, out


def test_a_file_that_is_not_an_openapi_document_is_a_problem(tmp_path, capsys):
    other = tmp_path / "notes.json"
    other.write_text('{"hello": "world"}', encoding="utf-8")
    path = tmp_path / "opgate.toml"
    path.write_text(f'[upstreams.items]\nopenapi = "{other}"\n', encoding="utf-8")
    code, out = _check(path, capsys)
    assert code == 1 and "upstreams.items.openapi" in out, out


def test_every_command_is_told_of_a_selector_that_names_nothing(tmp_path, capsys):
    """Commands other than config check see the same problem, on stderr, from the catalogue load."""
    path = _config(tmp_path, 'confirm = ["createItm"]\n')
    gateway = Gateway.from_catalogs([], config=read_config(path), call_log=False, cache=False)
    try:
        problems = [str(p) for p in gateway.registry.errors()]
    finally:
        gateway.close()
    assert any("'createItm'" in p and "'createItem'" in p for p in problems), problems
    assert main(["--config", str(path), "help", "items"]) == 0
    assert "'createItm'" in capsys.readouterr().err


@pytest.mark.parametrize("selector", ["createItem", "POST /items"])
def test_a_matched_confirm_selector_still_asks(tmp_path, selector):
    path = _config(tmp_path, f'confirm = ["{selector}"]\n')
    gateway = Gateway.from_catalogs([], config=read_config(path), call_log=False, cache=False)
    try:
        assert gateway.registry.get("items.item.create").metadata.requires_confirmation
        assert not gateway.registry.errors()
    finally:
        gateway.close()


def test_an_unknown_context_is_a_problem_of_config_check(tmp_path, capsys):
    """config check said ok to context = "work", and then every command stopped at 'unknown context'."""
    path = tmp_path / "opgate.toml"
    path.write_text('context = "wrok"\n', encoding="utf-8")
    code, out = _check(path, capsys)
    assert code == 1 and ": context:" in out and "'wrok'" in out and "project" in out, out
    path.write_text('context = "project"\n', encoding="utf-8")
    assert _check(path, capsys)[0] == 0


def test_a_command_names_the_file_an_unknown_context_came_from(tmp_path, capsys):
    path = tmp_path / "opgate.toml"
    path.write_text('context = "wrok"\n', encoding="utf-8")
    assert main(["--config", str(path), "help"]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "context" in err and "'wrok'" in err, err


@pytest.mark.parametrize(("entry", "key"), [
    ('url = "https://mcp.example.com/mcp"\nheaders = { "X-Team" = "a\\nb" }', "upstreams.remote.headers.X-Team"),
    ('url = "https://mcp.example.com/mcp"\nheaders = { "Bad Name" = "x" }', "upstreams.remote.headers"),
])
def test_what_stops_every_command_in_an_mcp_upstream_is_a_problem_of_config_check(tmp_path, capsys, entry, key):
    """config check said ok, and every command then stopped with 'the MCP upstream configuration has problems'."""
    path = tmp_path / "opgate.toml"
    path.write_text(f"[upstreams.remote]\n{entry}\n", encoding="utf-8")
    assert main(["--config", str(path), "help"]) == 2
    capsys.readouterr()
    code, out = _check(path, capsys)
    assert code == 1 and key in " ".join(out.split()), out
