"""An upstream that floods its caller with progress, against a hand-written stdio server (hostile_server.py's ``chatty``).

Each report was relayed to the client as it came, its message whatever
length the server chose; and while reports kept arriving, the caller's
thread never found its inbox empty, which is the only time it looked
whether the client had cancelled: a cancelled call ran on to its end.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import anyio
import pytest
import upstream_servers as us
from mcp import Client
from opgate.core import Gateway
from test_upstream_serve import serve

pytestmark = pytest.mark.anyio
HERE = Path(__file__).resolve().parent
CHATTY = {"name": "chatty", "description": "Talks.", "inputSchema": {"type": "object", "properties": {"seconds": {"type": "number"}, "size": {"type": "integer"}, "message_env": {"type": "string"}, "values": {"type": "array"}, "total": {"type": "string"}}}}
SECRET = "tok-r16-progress-77"


def _config(tmp_path: Path) -> Path:
    (tmp_path / "tools.json").write_text(json.dumps([CHATTY]), encoding="utf-8")
    env = {"HOSTILE_TOOLS": str(tmp_path / "tools.json"), "API_TOKEN": "${R16_TOKEN}"}
    server = {"command": sys.executable, "args": [str(HERE / "hostile_server.py")], "env": env}
    return us.write_config(tmp_path / "servers.json", {"hostile": server})


async def test_a_flood_of_progress_is_relayed_bounded_and_a_cancel_still_stops_the_call(tmp_path):
    db = tmp_path / "w.db"
    messages: list[str | None] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        messages.append(message)

    async with Client(serve(_config(tmp_path), db, "--allow-write", env={"R16_TOKEN": SECRET}), mode="legacy", read_timeout_seconds=60) as client:
        short = await client.call_tool("exec", {"op": "hostile.chatty", "args": {"seconds": 0.5, "size": 100_000}}, progress_callback=on_progress)
        assert short.is_error is False, short
        assert messages and max(len(m or "") for m in messages) <= 1_000, max(len(m or "") for m in messages)
        # A configured secret in a report is masked, as in the call's answer.
        messages.clear()
        telling = await client.call_tool("exec", {"op": "hostile.chatty", "args": {"seconds": 0.2, "message_env": "API_TOKEN"}}, progress_callback=on_progress)
        assert telling.is_error is False and messages, telling
        assert not [m for m in messages if SECRET in (m or "")], messages[:3]
        # Numbers JSON has no word for are not relayed: the client got progress null (which MCP refuses), and after a
        # NaN every later report passed as growing.
        reports: list[tuple[float, float | None]] = []

        async def on_numbers(progress: float, total: float | None, message: str | None) -> None:
            reports.append((progress, total))

        odd = await client.call_tool("exec", {"op": "hostile.chatty", "args": {"seconds": 0, "values": ["1", "NaN", "2", "inf", "1.5", "3"], "total": "Infinity"}}, progress_callback=on_numbers)
        assert odd.is_error is False, odd
        assert reports == [(1.0, None), (2.0, None), (3.0, None)], reports
        started = time.monotonic()
        with anyio.move_on_after(1.0):
            await client.call_tool("exec", {"op": "hostile.chatty", "args": {"seconds": 15, "size": 10}}, progress_callback=on_progress)
        assert time.monotonic() - started < 5
    gateway = Gateway(db_path=db)
    try:
        calls = [c for c in gateway.recent_calls(20) if c["op"] == "hostile.chatty"]
        assert len(calls) == 4, f"no entry for the cancelled call: it was still running when the server exited ({calls})"
        assert calls[0]["duration_ms"] < 8_000 and calls[0]["ok"] is False, calls[0]
    finally:
        gateway.close()


def test_a_configured_secret_in_a_servers_question_is_masked_before_the_person_sees_it(tmp_path, monkeypatch):
    """An upstream's elicitation message went to the asker (a terminal, an MCP client) as the server wrote it."""
    from opgate.core.executors.mcp import Upstreams

    monkeypatch.setenv("R16_TOKEN", SECRET)
    ask = {"name": "ask", "description": "Asks.", "inputSchema": {"type": "object", "properties": {"message_env": {"type": "string"}}}}
    (tmp_path / "tools.json").write_text(json.dumps([ask]), encoding="utf-8")
    env = {"HOSTILE_TOOLS": str(tmp_path / "tools.json"), "API_TOKEN": "${R16_TOKEN}"}
    config = us.write_config(tmp_path / "servers.json", {"hostile": {"command": sys.executable, "args": [str(HERE / "hostile_server.py")], "env": env}})
    shown: list[str] = []

    def asker(question):
        shown.append(question.message)
        return {"ok": True}

    gateway = Gateway(db_path=tmp_path / "w.db", upstreams=Upstreams.from_files([config]), allow_write=True, asker=asker)
    try:
        answer = gateway.exec("hostile.ask", {"message_env": "API_TOKEN"})
        assert answer["ok"], answer
        assert shown and SECRET not in shown[0] and "***" in shown[0], shown
    finally:
        gateway.close()
