"""Upstream MCP servers behind the Python Gateway, against the real npm reference servers."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

import upstream_servers as us
from opgate.core import Gateway
from opgate.core.executors.mcp import Upstreams
from opgate.core.settings import GatewaySettings

ENTITY = {"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}


def gateway(config, db, **options) -> Gateway:
    return Gateway(db_path=db, upstreams=Upstreams.from_files([config]), **options)


def graph(gw: Gateway) -> dict:
    envelope = gw.exec("memory.graph.read", {})
    assert envelope["ok"], envelope
    return envelope["result"]


def names(gw: Gateway) -> list[str]:
    return sorted(e["name"] for e in graph(gw)["entities"])


def test_nothing_connects_until_the_registry_is_needed_and_close_leaves_no_process(config, db):
    gw = gateway(config, db)
    try:
        assert us.server_pids(os.getpid(), "server-") == [], "a server started at construction"
        assert gw.upstreams.status()[0]["state"] == "not connected"
        assert gw.help("memory")["ok"]
        running = us.server_pids(os.getpid(), "server-")
        assert len(running) == 3, running
        assert {line["state"] for line in gw.upstreams.status()} == {"connected"}
    finally:
        gw.close()
    us.wait_until(lambda: not us.server_pids(os.getpid(), "server-"), what="every server process to exit after close()")


def test_list_then_help_then_a_read(config, db):
    gw = gateway(config, db)
    try:
        root = gw.help("")
        groups = {g["name"] for g in root["groups"]}
        assert {"memory", "everything", "files", "onto"} <= groups
        help_ = gw.help("memory.entity.create")
        assert help_["ok"] and help_["tool_name"] == "create_entities" and help_["kind"] == "write"
        assert gw.registry.resolve("read_graph").op == "memory.graph.read"
        assert graph(gw) == {"entities": [], "relations": []}
        # The tool's own name runs the op too.
        assert gw.exec("read_graph", {})["ok"]
        hits = gw.search_hits("create entities in the knowledge graph memory")
        assert "memory.entity.create" in [h.op for h in hits[:5]]
        # Structured content is the result; content blocks otherwise (an image by type and size, never base64).
        weather = gw.exec("everything.structured_content.get", {"location": "Chicago"})
        assert weather["ok"] and isinstance(weather["result"], dict) and "temperature" in weather["result"], weather
        image = gw.exec("everything.tiny_image.get", {})
        assert image["ok"], image
        blocks = image["result"]
        assert any(b["type"] == "image" and b["mimeType"] == "image/png" and b["bytes"] > 0 and "data" not in b for b in blocks), blocks
        assert gw.exec("files.text_file.read", {"path": str(config.parent / "files" / "hello.txt")})["result"]["content"].startswith("hello from")
    finally:
        gw.close()


def test_a_write_is_refused_while_writes_are_off(config, db):
    gw = gateway(config, db)
    try:
        envelope = gw.exec("memory.entity.create", {"entities": [ENTITY]})
        assert not envelope["ok"] and envelope["error"]["code"] == "PERMISSION_DENIED", envelope
        assert envelope["error"]["details"]["dry_run_available"] is True
        assert names(gw) == []
    finally:
        gw.close()


def test_a_dry_run_of_a_write_sends_nothing_and_shows_the_request(config, db):
    gw = gateway(config, db, allow_write=True)
    try:
        before = graph(gw)
        envelope = gw.exec("memory.entity.create", {"entities": [ENTITY]}, dry_run=True)
        assert envelope["ok"], envelope
        meta = envelope["meta"]
        assert meta["dry_run"] is True and meta["dry_run_kind"] == "preview"
        assert meta["preview"] == {"upstream": "memory", "request": {"method": "tools/call", "params": {"name": "create_entities", "arguments": {"entities": [ENTITY]}}}}
        assert graph(gw) == before
        # A read that says readOnlyHint on a trusted server really runs under dry-run.
        read = gw.exec("memory.graph.read", {}, dry_run=True)
        assert read["ok"] and read["meta"]["dry_run_kind"] == "read" and read["result"] == before
    finally:
        gw.close()


def test_a_real_write_after_confirmation_is_visible_through_a_read(config, db):
    asked = []
    gw = gateway(config, db, allow_write=True, approver=lambda request: asked.append(request) or True)
    try:
        envelope = gw.exec("memory.entity.create", {"entities": [ENTITY]})
        assert envelope["ok"], envelope
        assert envelope["result"] == {"entities": [ENTITY]} or envelope["result"] == [ENTITY] or "Ada" in str(envelope["result"])
        assert names(gw) == ["Ada"]
        added = gw.exec("memory.observation.add", {"observations": [{"entityName": "Ada", "contents": ["met Babbage"]}]})
        assert added["ok"], added
        assert graph(gw)["entities"][0]["observations"] == ["wrote the first program", "met Babbage"]
    finally:
        gw.close()


def test_an_idempotency_key_replays_without_a_second_upstream_call(config, db):
    gw = gateway(config, db, allow_write=True)
    try:
        first = gw.exec("memory.entity.create", {"entities": [ENTITY]}, idempotency_key="create-ada")
        assert first["ok"] and names(gw) == ["Ada"]
        # Remove it behind the key's back: a second real call would create it again.
        assert gw.exec("memory.entity.delete", {"entityNames": ["Ada"]})["ok"]
        assert names(gw) == []
        again = gw.exec("memory.entity.create", {"entities": [ENTITY]}, idempotency_key="create-ada")
        assert again["ok"] and again["meta"]["idempotent_replay"] is True
        assert again["result"] == first["result"]
        assert names(gw) == [], "the repeat reached the server"
        other = gw.exec("memory.entity.create", {"entities": [{**ENTITY, "name": "Grace"}]}, idempotency_key="create-ada")
        assert not other["ok"] and other["error"]["code"] == "CONFLICT"
    finally:
        gw.close()


def test_a_slow_tool_is_stopped_by_the_timeout_and_the_next_call_works(config, db):
    gw = gateway(config, db, settings=GatewaySettings(hard_timeout_s=1.0))
    try:
        assert gw.exec("everything.echo", {"message": "warm"})["ok"]
        started = time.monotonic()
        envelope = gw.exec("everything.long_running_operation.trigger", {"duration": 6, "steps": 3})
        took = time.monotonic() - started
        assert not envelope["ok"], envelope
        error = envelope["error"]
        assert error["code"] == "INTERNAL" and error["details"]["retryable"] is True
        assert "did not finish within 1 s" in error["message"] and "everything" in error["message"]
        assert took < 4.0, took
        after = gw.exec("everything.echo", {"message": "still here"})
        assert after["ok"] and after["result"] == "Echo: still here", after
    finally:
        gw.close()


def test_a_killed_server_is_restarted_on_the_next_call(config, db):
    gw = gateway(config, db, allow_write=True)
    try:
        assert gw.exec("memory.entity.create", {"entities": [ENTITY]})["ok"]
        [pid] = us.server_pids(os.getpid(), "server-memory")
        os.kill(pid, signal.SIGKILL)
        us.wait_until(lambda: gw.upstreams.status()[0]["state"] == "failed", what="the gateway to notice the server died")
        # The other namespaces kept working meanwhile.
        assert gw.exec("everything.echo", {"message": "x"})["ok"]
        assert gw.exec("onto.project.list", {})["ok"]
        assert names(gw) == ["Ada"], "the restarted server reads the same memory file"
        [new_pid] = us.server_pids(os.getpid(), "server-memory")
        assert new_pid != pid
        assert gw.upstreams.status()[0]["state"] == "connected"
    finally:
        gw.close()


def test_elicitation_is_answered_by_the_asker_and_declined_without_one(config, db):
    questions = []

    def asker(question):
        questions.append(question)
        return {"name": "Ada Lovelace", "check": True, "integer": 7}

    gw = gateway(config, db, allow_write=True, asker=asker)
    try:
        answered = gw.exec("everything.elicitation_request.trigger", {})
        assert answered["ok"], answered
        assert "Ada Lovelace" in str(answered["result"]) and "accept" in str(answered["result"])
        [question] = questions
        assert question.upstream == "everything" and question.op == "everything.elicitation_request.trigger"
        assert "name" in question.schema["properties"]
        gw.asker = None
        declined = gw.exec("everything.elicitation_request.trigger", {})
        assert declined["ok"], declined
        assert "decline" in str(declined["result"]).lower() and "Ada Lovelace" not in str(declined["result"])
    finally:
        gw.close()


def test_an_invalid_call_sends_nothing_and_a_tool_error_keeps_the_servers_words(config, db):
    gw = gateway(config, db)
    try:
        invalid = gw.exec("everything.sum.get", {"a": "one", "b": 2})
        assert invalid["error"]["code"] == "VALIDATION_ERROR"
        assert gw.upstreams.status()[1]["calls"] == 0, "an invalid call reached the server"
        outside = gw.exec("files.text_file.read", {"path": "/etc/hostname"})
        assert not outside["ok"] and outside["error"]["code"] == "PERMISSION_DENIED", outside
        assert "outside allowed directories" in outside["error"]["message"]
        missing = gw.exec("files.text_file.read", {"path": str(config.parent / "files" / "nope.txt")})
        assert not missing["ok"] and missing["error"]["code"] in ("NOT_FOUND", "INTERNAL"), missing
        assert "nope.txt" in missing["error"]["message"]
    finally:
        gw.close()


def test_a_server_that_will_not_start_fails_alone(tmp_path, modules, db):
    config = us.write_config(tmp_path / "servers.json", {
        "memory": us.memory(modules, tmp_path),
        "broken": {"command": str(tmp_path / "no-such-server")},
    })
    gw = gateway(config, db)
    try:
        assert gw.exec("memory.graph.read", {})["ok"]
        assert gw.exec("onto.project.list", {})["ok"]
        broken = {line["name"]: line for line in gw.upstreams.status()}["broken"]
        assert broken["state"] == "failed" and "no-such-server" in broken["last_error"]
        assert any("broken" in p.source and "could not be listed" in p.message for p in gw.registry.problems)
    finally:
        gw.close()


def test_untrusted_annotations_make_every_tool_a_write(tmp_path, modules, db):
    config = us.write_config(tmp_path / "servers.json", {"memory": us.memory(modules, tmp_path, trust_annotations=False)})
    gw = gateway(config, db)
    try:
        record = gw.registry.get("memory.graph.read")
        assert record.kind == "write" and record.annotations is None
        assert gw.exec("memory.graph.read", {})["error"]["code"] == "PERMISSION_DENIED"
        dry = gw.exec("memory.graph.read", {}, dry_run=True)
        assert dry["meta"]["dry_run_kind"] == "preview"
    finally:
        gw.close()


def test_secrets_stay_out_of_previews_results_state_and_errors(tmp_path, modules, db, monkeypatch):
    monkeypatch.setenv("UPSTREAM_TOKEN", "s3cret-value-42")
    config = us.write_config(tmp_path / "servers.json", {"everything": us.everything(modules, env={"API_TOKEN": "${UPSTREAM_TOKEN}"})})
    gw = gateway(config, db, allow_write=True)
    try:
        env = gw.exec("everything.env.get", {})
        assert env["ok"] and "API_TOKEN" in str(env["result"]), env
        assert "s3cret-value-42" not in str(env)
        preview = gw.exec("everything.simulate_research.query", {"topic": "s3cret-value-42"}, dry_run=True)
        assert "s3cret-value-42" not in str(preview), preview
        assert "s3cret-value-42" not in str(gw.upstreams.status())
    finally:
        gw.close()


def test_the_same_server_over_streamable_http(tmp_path, modules, db, monkeypatch):
    import subprocess

    port = us.free_port()
    process = subprocess.Popen([us.node(), us.script(modules, "everything"), "streamableHttp"], env={**os.environ, "PORT": str(port)}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        us.wait_until(lambda: _listening(port), timeout=20, what="the HTTP server to listen")
        monkeypatch.setenv("HTTP_TOKEN", "Bearer http-secret-123")
        config = tmp_path / "vscode.json"
        config.write_text('{"servers": {"remote": {"type": "http", "url": "http://127.0.0.1:%d/mcp", "headers": {"Authorization": "${env:HTTP_TOKEN}"}}}}' % port)
        gw = gateway(config, db, settings=GatewaySettings(hard_timeout_s=1.0))
        try:
            echo = gw.exec("remote.echo", {"message": "over http"})
            assert echo["ok"] and echo["result"] == "Echo: over http", echo
            [line] = gw.upstreams.status()
            assert line["state"] == "connected" and line["transport"] == "http" and line["protocol_version"]
            assert "http-secret-123" not in str(line)
            slow = gw.exec("remote.long_running_operation.trigger", {"duration": 5, "steps": 5})
            assert slow["error"]["code"] == "INTERNAL" and slow["error"]["details"]["retryable"] is True
            assert gw.exec("remote.sum.get", {"a": 2, "b": 3})["ok"]
        finally:
            gw.close()
    finally:
        process.terminate()
        process.wait(10)


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_import_opgate_core_does_not_import_the_sdk():
    import subprocess

    code = "import sys, opgate.core, opgate.core.executors.mcp; print('mcp' in sys.modules or 'mcp_types' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False", result.stdout + result.stderr
