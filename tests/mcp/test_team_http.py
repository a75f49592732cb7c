"""The HTTP server for a team: bearer tokens, roles, revocation, a rate per caller, the audit log.

Every test runs a real ``opgate serve --http`` subprocess on a workspace whose
tokens were made with the real ``opgate token`` command, and speaks to it with
the SDK's client (streamable HTTP, ``Authorization: Bearer``) or httpx.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import anyio
import httpx
import pytest

from opgate.core.access import VERIFIED_FOR

from mcp_checks import answer
from mcp_server_driver import CALL_TIMEOUT, DEMO_PROJECT, ERAS, HttpServer, answering, serve_command
from team_driver import logged_call, connect_as, make_token, opgate, revoke_token

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "team-test", "version": "1"}}}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
DELETED_BY_APPROVER = {"2026-07-28": "20000000-0000-4000-8000-000000000007", "legacy": "20000000-0000-4000-8000-000000000024"}
KEPT_FROM_WRITER = "20000000-0000-4000-8000-000000000009"


@pytest.fixture(scope="module")
def team(tmp_path_factory):
    """One authenticated server for the module, with a token per role (the workspace gets the demo first)."""
    db = tmp_path_factory.mktemp("team") / "workspace.db"
    tokens = {role: make_token(db, role, role) for role in ("reader", "writer", "approver")}
    server = HttpServer(db, "--allow-write", "--rate-limit", "1000", "--rate-burst", "1000").start()
    yield server, db, tokens
    server.stop()


def tasks_titled(db, title: str) -> int:
    from opgate.core.store import SQLiteStore

    with SQLiteStore(db) as store, store.read() as tx:
        return tx.list("task", {"title": title}).total


def create_task(title: str, **extra):
    return {"op": "onto.task.create", "args": {"project_id": DEMO_PROJECT, "title": title}, **extra}


def test_a_request_without_a_token_gets_401_and_the_metadata_url(team):
    server, _, _ = team
    response = httpx.post(server.url, json=INITIALIZE, headers=HEADERS, timeout=CALL_TIMEOUT)
    assert response.status_code == 401
    challenge = response.headers["www-authenticate"]
    assert challenge.startswith("Bearer ") and 'resource_metadata="' in challenge
    metadata_url = challenge.split('resource_metadata="')[1].split('"')[0]
    document = httpx.get(metadata_url, timeout=CALL_TIMEOUT).json()
    assert document["resource"] == server.url
    assert document["authorization_servers"] and document["bearer_methods_supported"] == ["header"]
    root = httpx.get(server.url.removesuffix("/mcp") + "/.well-known/oauth-protected-resource", timeout=CALL_TIMEOUT).json()
    assert root["resource"] == server.url and root["scopes_supported"] == ["reader", "writer", "approver"]


@pytest.mark.parametrize("header", ["Bearer opg_not-a-real-token", "Bearer not-even-ours", "Basic dXNlcjpwYXNz", "bearer"])
def test_a_wrong_token_gets_401(team, header):
    server, _, _ = team
    response = httpx.post(server.url, json=INITIALIZE, headers=HEADERS | {"Authorization": header}, timeout=CALL_TIMEOUT)
    assert response.status_code == 401 and "www-authenticate" in response.headers


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_reader_reads_but_cannot_write(team, era):
    server, db, tokens = team
    title = f"reader tried this ({era})"
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect_as(server.url, tokens["reader"], era) as client:
            listed = answer(await client.call_tool("exec", {"op": "onto.project.list"}))
            assert listed["ok"] is True
            refused = answer(await client.call_tool("exec", create_task(title)))
            assert refused["ok"] is False and refused["error"]["code"] == "PERMISSION_DENIED"
            assert "reader" in refused["error"]["message"]
            in_batch = answer(await client.call_tool("batch", {"steps": [{"tool": "exec", "args": create_task(title)}]}))
            assert in_batch["results"][0]["error"]["code"] == "PERMISSION_DENIED"
            preview = answer(await client.call_tool("exec", create_task(title, dry_run=True)))
            assert preview["ok"] is True  # a dry-run writes nothing, so a reader may rehearse
    assert tasks_titled(db, title) == 0


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_a_writer_writes_but_cannot_confirm(team, era):
    server, db, tokens = team
    title = f"writer made this ({era})"
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect_as(server.url, tokens["writer"], era, elicitation_callback=answering(confirm=True)) as client:
            made = answer(await client.call_tool("exec", create_task(title)))
            assert made["ok"] is True, made
            refused = answer(await client.call_tool("exec", {"op": "onto.task.delete", "args": {"task_id": KEPT_FROM_WRITER}}))
            assert refused["error"]["code"] == "PERMISSION_DENIED" and "approver" in refused["error"]["message"]
            still = answer(await client.call_tool("exec", {"op": "onto.task.get", "args": {"task_id": KEPT_FROM_WRITER}}))
            assert still["ok"] is True
    assert tasks_titled(db, title) == 1


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
async def test_an_approver_answers_a_confirmation(team, era):
    server, _, tokens = team
    task = DELETED_BY_APPROVER[era]
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect_as(server.url, tokens["approver"], era, elicitation_callback=answering(confirm=True)) as client:
            deleted = answer(await client.call_tool("exec", {"op": "onto.task.delete", "args": {"task_id": task}}))
            assert deleted["ok"] is True, deleted
            gone = answer(await client.call_tool("exec", {"op": "onto.task.get", "args": {"task_id": task}}))
            assert gone["error"]["code"] == "NOT_FOUND"


@pytest.mark.anyio
async def test_the_audit_log_names_the_caller(team):
    server, db, tokens = team
    title = "audited write"
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect_as(server.url, tokens["writer"]) as client:
            made = answer(await client.call_tool("exec", create_task(title)))
    entry = logged_call(db, made["meta"]["trace_id"])
    assert entry is not None, "the call was not logged"
    assert (entry["caller"], entry["op"], entry["ok"], entry["code"]) == ("writer", "onto.task.create", True, None)
    assert len(entry["args_digest"]) == 16 and entry["args"]["title"] == title
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect_as(server.url, tokens["reader"]) as client:
            refused = answer(await client.call_tool("exec", create_task(title)))
    entry = logged_call(db, refused["meta"]["trace_id"])
    assert entry is not None and (entry["caller"], entry["ok"], entry["code"]) == ("reader", False, "PERMISSION_DENIED")


@pytest.mark.anyio
async def test_idempotency_keys_are_scoped_per_caller(team):
    server, db, tokens = team
    title = "one key, two callers"
    call = create_task(title, idempotency_key="shared-key-1")
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect_as(server.url, tokens["writer"]) as writer, connect_as(server.url, tokens["approver"]) as approver:
            first = answer(await writer.call_tool("exec", call))
            again = answer(await writer.call_tool("exec", call))
            other = answer(await approver.call_tool("exec", call))
    assert first["ok"] and again["meta"].get("idempotent_replay") is True
    assert again["result"]["task"]["id"] == first["result"]["task"]["id"]
    assert other["ok"] and not other["meta"].get("idempotent_replay")
    assert other["result"]["task"]["id"] != first["result"]["task"]["id"]
    assert tasks_titled(db, title) == 2


@pytest.mark.anyio
async def test_a_revoked_token_is_refused(team):
    server, db, _ = team
    token = make_token(db, "short-lived", "writer")
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect_as(server.url, token) as client:
            assert answer(await client.call_tool("exec", {"op": "onto.project.list"}))["ok"] is True
    revoke_token(db, "short-lived")
    # The server process remembers a live check for VERIFIED_FOR seconds; past that the revocation holds.
    time.sleep(VERIFIED_FOR + 0.2)
    response = httpx.post(server.url, json=INITIALIZE, headers=HEADERS | {"Authorization": f"Bearer {token}"}, timeout=CALL_TIMEOUT)
    assert response.status_code == 401
    listed = opgate(db, "token", "list", "--json")
    assert [row["revoked_at"] is not None for row in json.loads(listed.stdout) if row["name"] == "short-lived"] == [True]


def test_a_burst_past_the_rate_gets_429_with_retry_after(tmp_path):
    db = tmp_path / "workspace.db"
    token = make_token(db, "eager", "reader")
    server = HttpServer(db, "--rate-limit", "0.5", "--rate-burst", "3").start()
    try:
        headers = HEADERS | {"Authorization": f"Bearer {token}"}
        statuses = [httpx.post(server.url, json=INITIALIZE, headers=headers, timeout=CALL_TIMEOUT) for _ in range(5)]
        assert [r.status_code for r in statuses[:3]] == [200, 200, 200]
        limited = statuses[3]
        assert limited.status_code == 429 and 1 <= int(limited.headers["retry-after"]) <= 2
        # Another caller has a bucket of its own.
        other = make_token(db, "patient", "reader")
        assert httpx.post(server.url, json=INITIALIZE, headers=HEADERS | {"Authorization": f"Bearer {other}"}, timeout=CALL_TIMEOUT).status_code == 200
    finally:
        server.stop()


def test_a_non_loopback_bind_without_authentication_refuses_to_start(tmp_path):
    done = subprocess.run(serve_command(tmp_path / "workspace.db", "--http", "0.0.0.0:0"), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "not loopback, without authentication" in done.stderr and "opgate token create" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_non_loopback_bind_with_tokens_serves_and_asks_for_them(tmp_path):
    db = tmp_path / "workspace.db"
    make_token(db, "remote", "reader")
    server = HttpServer(db)
    server.command = [sys.executable, "-m", "opgate", "--db", str(db), "serve", "--http", "0.0.0.0:0"]
    server.start()
    try:
        assert "with bearer-token authentication" in server.stderr
        port = server.url.rsplit(":", 1)[1].split("/")[0]
        response = httpx.post(f"http://127.0.0.1:{port}/mcp", json=INITIALIZE, headers=HEADERS, timeout=CALL_TIMEOUT)
        assert response.status_code == 401
    finally:
        server.stop()


def test_listed_hosts_and_origins_pass_and_get_cors(tmp_path):
    db = tmp_path / "workspace.db"
    token = make_token(db, "browser", "reader")
    (tmp_path / "opgate.toml").write_text('[serve]\nallowed_hosts = ["opgate.example.com"]\nallowed_origins = ["https://app.example.com"]\n')
    server = HttpServer(db, "--public-url", "https://opgate.example.com/mcp")
    server.command[3:3] = ["--config", str(tmp_path / "opgate.toml")]
    server.start()
    try:
        auth = {"Authorization": f"Bearer {token}"}
        proxied = httpx.post(server.url, json=INITIALIZE, headers=HEADERS | auth | {"Host": "opgate.example.com", "Origin": "https://app.example.com"}, timeout=CALL_TIMEOUT)
        assert proxied.status_code == 200, proxied.text
        assert proxied.headers["access-control-allow-origin"] == "https://app.example.com"
        foreign = httpx.post(server.url, json=INITIALIZE, headers=HEADERS | auth | {"Host": "elsewhere.example.com"}, timeout=CALL_TIMEOUT)
        assert foreign.status_code == 421
        evil = httpx.post(server.url, json=INITIALIZE, headers=HEADERS | auth | {"Origin": "https://evil.example.com"}, timeout=CALL_TIMEOUT)
        assert evil.status_code == 403
        preflight = httpx.options(server.url, headers={"Origin": "https://app.example.com", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type, mcp-session-id"}, timeout=CALL_TIMEOUT)
        assert preflight.status_code == 200 and "authorization" in preflight.headers["access-control-allow-headers"].lower()
        unauthenticated = httpx.post(server.url, json=INITIALIZE, headers=HEADERS, timeout=CALL_TIMEOUT)
        assert 'resource_metadata="https://opgate.example.com/.well-known/oauth-protected-resource/mcp"' in unauthenticated.headers["www-authenticate"]
    finally:
        server.stop()


@pytest.mark.parametrize("options", [["--public-url", "https://opgate.example.com/mcp"], ["--allow-host", "opgate.example.com"]])
def test_a_proxy_name_without_authentication_refuses_to_start(tmp_path, options):
    # Behind a reverse proxy the bind is loopback, but the proxy exposes it just the same.
    done = subprocess.run(serve_command(tmp_path / "workspace.db", "--http", "127.0.0.1:0", *options), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "opgate.example.com, which is not loopback, without authentication" in done.stderr


def test_a_session_belongs_to_the_token_that_opened_it(team):
    server, _, tokens = team
    opened = httpx.post(server.url, json=INITIALIZE, headers=HEADERS | {"Authorization": f"Bearer {tokens['reader']}"}, timeout=CALL_TIMEOUT)
    session = opened.headers["mcp-session-id"]
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    session_headers = HEADERS | {"Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-11-25"}
    borrowed = httpx.post(server.url, json=listing, headers=session_headers | {"Authorization": f"Bearer {tokens['approver']}"}, timeout=CALL_TIMEOUT)
    assert borrowed.status_code == 404
    own = httpx.post(server.url, json=listing, headers=session_headers | {"Authorization": f"Bearer {tokens['reader']}"}, timeout=CALL_TIMEOUT)
    assert own.status_code == 200 and "exec" in own.text
