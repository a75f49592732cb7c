"""An HTTP upstream's name is its namespace, so it must be its own: sharing it with another catalogue or upstream
merged two APIs into one group, and the other's ops then failed at run time against the wrong API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from opgate.cli import main
from opgate.core import Gateway
from opgate.core.config import read_config
from opgate.core.executors.mcp import Upstreams

DOCUMENT = Path(__file__).resolve().parents[1] / "http" / "loopback_openapi.json"


def _config(tmp_path: Path, name: str) -> Path:
    path = tmp_path / "opgate.toml"
    path.write_text(f'[upstreams.{name}]\nopenapi = "{DOCUMENT}"\n', encoding="utf-8")
    return path


def _other_api(tmp_path: Path) -> Path:
    other = tmp_path / "things.json"
    other.write_text(json.dumps({
        "openapi": "3.0.0", "info": {"title": "things", "version": "1"}, "servers": [{"url": "http://127.0.0.1:9"}],
        "paths": {"/things": {"get": {"operationId": "listThings", "summary": "list things"}}},
    }), encoding="utf-8")
    return other


def test_an_upstream_named_after_a_builtin_group_is_refused(tmp_path):
    with pytest.raises(ValueError) as caught:
        Gateway.from_catalogs([], include_builtin=True, config=read_config(_config(tmp_path, "onto")), call_log=False, cache=False)
    assert "'onto'" in str(caught.value) and "upstreams.onto" in str(caught.value)


def test_an_upstream_sharing_its_name_with_a_catalogue_is_refused(tmp_path, capsys):
    config = _config(tmp_path, "items")
    with pytest.raises(ValueError) as caught:
        Gateway.from_catalogs([f"items={_other_api(tmp_path)}"], config=read_config(config), call_log=False, cache=False)
    assert "'items'" in str(caught.value) and "things.json" in str(caught.value)
    assert main(["--config", str(config), "--catalog", f"items={_other_api(tmp_path)}", "help", "items"]) == 2
    captured = capsys.readouterr()
    assert "'items'" in captured.err and "Traceback" not in captured.err


def test_an_upstream_sharing_its_name_with_an_mcp_server_is_refused(tmp_path):
    servers = tmp_path / "servers.json"
    servers.write_text(json.dumps({"mcpServers": {"items": {"command": "never-started"}}}), encoding="utf-8")
    upstreams = Upstreams.from_files([servers])
    try:
        with pytest.raises(ValueError) as caught:
            Gateway.from_catalogs([], config=read_config(_config(tmp_path, "items")), upstreams=upstreams, call_log=False, cache=False)
    finally:
        upstreams.close()
    assert "'items'" in str(caught.value) and "servers.json" in str(caught.value)


def test_an_upstream_with_a_name_of_its_own_loads(tmp_path):
    gateway = Gateway.from_catalogs([f"things={_other_api(tmp_path)}"], include_builtin=True, config=read_config(_config(tmp_path, "items")), call_log=False, cache=False)
    try:
        assert "items.item.list" in gateway.registry and "things.thing.list" in gateway.registry and "onto.task.list" in gateway.registry
    finally:
        gateway.close()
