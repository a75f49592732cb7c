"""An upstream's command line is shown (help, `opgate upstreams`), but never the secrets in it."""

from __future__ import annotations

import json

import upstream_servers as us
from opgate.core import Gateway
from opgate.core.executors.mcp import Upstreams
from test_upstream_cli import run_json

SECRET_ARGS = ["postgresql://app:hunter2@db.internal/prod", "--token", "tok-abcdef-123", "--api-key=key-ghijkl-456", "https://h.example/x?sig=sig-mnopqr-789"]
SECRETS = ("hunter2", "tok-abcdef-123", "key-ghijkl-456", "sig-mnopqr-789")


def _config(tmp_path, modules):
    memory = us.memory(modules, tmp_path)
    memory["args"] = [*memory["args"], *SECRET_ARGS]  # the memory server ignores arguments it does not know
    return us.write_config(tmp_path / "servers.json", {"memory": memory})


def _assert_masked(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"{secret!r} shown in: {text[:2000]}"


def test_help_root_and_group_summary_mask_secrets_in_the_command_line(tmp_path, db, modules):
    gateway = Gateway(db_path=db, upstreams=Upstreams.from_files([_config(tmp_path, modules)]))
    try:
        root, group = gateway.help(), gateway.help("memory")
        assert root["ok"] and group["ok"], (root, group)
        for answer in (root, group):
            text = json.dumps(answer)
            _assert_masked(text)
            assert "postgresql://***@db.internal/prod" in text and "--token ***" in text and "--api-key=***" in text, text[:2000]
    finally:
        gateway.close()


def test_opgate_upstreams_json_masks_secrets_in_the_command_line(tmp_path, db, modules):
    code, listing = run_json("--mcp-servers", str(_config(tmp_path, modules)), "--db", str(db), "upstreams")
    assert code == 0, listing
    where = listing["upstreams"][0]["where"]
    _assert_masked(json.dumps(listing))
    assert "postgresql://***@db.internal/prod" in where and "https://h.example/x?***" in where, where
