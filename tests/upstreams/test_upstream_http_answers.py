"""Answers from an upstream over streamable HTTP: bounded like a stdio server's, and ended with the call that waits for them.

Before: a JSON answer was read whole however long (200 MB held 2 GB at the
peak); an event-stream answer past the SDK's 1 MiB event limit was refused
as a retryable "SSE stream failed" although a stdio server may send 64 MiB;
and a call that ran out of time left its POST reading for as long as the
server kept sending (a byte every 0.2 s: for ever).
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import upstream_servers as us
from opgate.core import Gateway
from opgate.core.executors._base import MAX_ANSWER_BYTES
from opgate.core.executors.mcp import Upstreams
from opgate.core.settings import GatewaySettings

HERE = Path(__file__).parent
TIMEOUT_S = 3.0


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


@contextlib.contextmanager
def _server(tmp_path: Path, name: str, *args: str, timeout_s: float = TIMEOUT_S):
    """A gateway in front of one of this folder's servers, started on a free loopback port."""
    port = us.free_port()
    process = subprocess.Popen([sys.executable, str(HERE / args[0]), *[a.replace("PORT", str(port)) for a in args[1:]]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        us.wait_until(lambda: _listening(port), timeout=20, what="the HTTP server to listen")
        config = us.write_config(tmp_path / "servers.json", {name: {"type": "http", "url": f"http://127.0.0.1:{port}/mcp"}})
        gateway = Gateway(db_path=tmp_path / "workspace.db", upstreams=Upstreams.from_files([config]), allow_write=True, settings=GatewaySettings(hard_timeout_s=timeout_s))
        try:
            yield gateway
        finally:
            gateway.close()
    finally:
        process.terminate()
        process.wait(10)


def _too_large(answer: dict) -> None:
    error = answer["error"]
    assert error["code"] == "INTERNAL" and not error["details"].get("retryable"), error
    assert f"more than {MAX_ANSWER_BYTES:,} bytes" in error["message"] and "ask for less" in error["message"], error


@pytest.mark.parametrize("body", ["json", "sse"])
def test_an_answer_past_the_bound_is_refused_and_the_same_session_answers_next(tmp_path, body):
    # 64 MiB of events take the SDK's parser seconds: the time allowed is not what this test is about.
    with _server(tmp_path, "erring", "erring_server.py", "http", "PORT", *(["json"] if body == "json" else []), timeout_s=60) as gateway:
        before = gateway.exec("erring.whoami", {})
        assert before["ok"], before
        answer = gateway.exec("erring.sized", {"size": MAX_ANSWER_BYTES + 1_000_000})
        _too_large(answer)
        after = gateway.exec("erring.whoami", {})
        assert after["ok"] and after["result"] == before["result"], after
        [line] = gateway.upstreams.status()
        assert line["state"] == "connected" and line["last_error"] is None, line


def test_an_event_stream_answer_of_two_megabytes_comes_back_cut_as_over_stdio(tmp_path):
    with _server(tmp_path, "erring", "erring_server.py", "http", "PORT", timeout_s=60) as gateway:
        answer = gateway.exec("erring.sized", {"size": 2_000_000})
        assert answer["ok"], answer.get("error")
        [cut] = answer["meta"]["truncated"]
        assert cut["total_chars"] == 2_000_000, cut


@pytest.mark.parametrize("tool", ["declared", "flood"])
def test_a_body_that_says_or_turns_out_too_large_is_refused_at_once(tmp_path, tool):
    with _server(tmp_path, "drip", "dripping_server.py", "PORT") as gateway:
        started = time.monotonic()
        _too_large(gateway.exec(f"drip.{tool}", {}))
        assert time.monotonic() - started < TIMEOUT_S
        us.wait_until(lambda: gateway.exec("drip.open_bodies", {}).get("result") == "0", timeout=5, what="the server to see the client hang up")


@pytest.mark.parametrize("tool", ["drip", "sse_drip"])
def test_an_answer_that_never_ends_fails_at_the_deadline_and_its_body_is_hung_up(tmp_path, tool):
    with _server(tmp_path, "drip", "dripping_server.py", "PORT") as gateway:
        before = gateway.exec("drip.whoami", {})
        started = time.monotonic()
        answer = gateway.exec(f"drip.{tool}", {})
        assert time.monotonic() - started < TIMEOUT_S + 2
        error = answer["error"]
        assert error["code"] == "INTERNAL" and error["details"]["retryable"] and f"did not finish within {TIMEOUT_S:g} s" in error["message"], error
        # Left running, the POST kept the connection and a task for as long as the server sent a byte now and then.
        us.wait_until(lambda: gateway.exec("drip.open_bodies", {}).get("result") == "0", timeout=5, what="the server to see the client hang up")
        assert gateway.exec("drip.whoami", {})["result"] == before["result"]


def test_a_listing_that_never_ends_stops_at_the_bound_on_tools(tmp_path):
    """Each page named a next one: the listing went on until its time ran out (15 s), every page kept meanwhile, and
    ended as an unexplained timeout. It now stops past MAX_LISTED_TOOLS, saying so."""
    from opgate.core.executors.mcp._connection import MAX_LISTED_TOOLS

    with _server(tmp_path, "drip", "dripping_server.py", "PORT", "pages") as gateway:
        started = time.monotonic()
        gateway.upstreams.ensure_listed()
        [line] = gateway.upstreams.status()
        assert line["tools"] is None and f"lists more than {MAX_LISTED_TOOLS:,} tools" in (line["last_error"] or ""), line
        assert time.monotonic() - started < gateway.upstreams.list_timeout_s


def test_a_start_that_never_answers_fails_and_is_tried_again(tmp_path, monkeypatch):
    """A server whose answer to initialize never ended kept the connection "connecting" for ever: every call waited on
    that one start, and the server was never tried again. The start is bounded by START_TIMEOUT_S, then backs off."""
    from opgate.core.executors.mcp import _connection

    monkeypatch.setattr(_connection, "START_TIMEOUT_S", 1.0)
    with _server(tmp_path, "drip", "dripping_server.py", "PORT", "drip_start") as gateway:
        gateway.upstreams.ensure_listed(timeout=5)
        [line] = gateway.upstreams.status()
        assert line["state"] == "failed" and "did not answer initialize within 1 s" in (line["last_error"] or ""), line
        us.wait_until(lambda: _started_again(gateway), timeout=10, what="a second start")


def _started_again(gateway) -> bool:
    gateway.upstreams.ensure_listed(timeout=3)
    return gateway.upstreams._upstreams["drip"].connection.starts >= 2


@pytest.mark.parametrize("tool", ["deep", "sse_deep"])
def test_an_answer_too_deep_to_read_fails_saying_why_in_a_line_as_over_stdio(tmp_path, caplog, tool):
    """Over stdio such an answer fails at once, in a line (test_upstream_hostile_listing.py). Over HTTP the SDK's parse
    error came through: a pydantic dump quoting the answer, called retryable (the same call gets the same answer), and
    a traceback in the operator's log for each."""
    with _server(tmp_path, "drip", "dripping_server.py", "PORT", timeout_s=20) as gateway:
        started = time.monotonic()
        answer = gateway.exec(f"drip.{tool}", {})
        assert time.monotonic() - started < 10, "the call waited for an answer that had been dropped"
        error = answer["error"]
        assert error["code"] == "INTERNAL" and "could not read the server's answer" in error["message"], error
        assert "recursion limit" in error["message"] and "pydantic" not in error["message"] and '{"a"' not in error["message"], error
        assert not error["details"].get("retryable"), error
        assert gateway.exec("drip.whoami", {})["ok"]
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records if r.exc_info]
