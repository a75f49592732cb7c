"""Bearer tokens in a real SQLite workspace, the per-caller rate, and the ``[serve]`` configuration."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from opgate.core.access import TOKEN_PREFIX, TokenBook, TokenError, token_digest
from opgate.core.config import ServeConfig, check_config
from opgate.core.store import connect_store


@pytest.fixture
def token_store(tmp_path, new_workspace):
    """A workspace on each backend (the tokens live in the store)."""
    store = connect_store(new_workspace(tmp_path, "ws.db"))
    yield store
    store.close()


@pytest.fixture
def book(token_store):
    return TokenBook(token_store)


def test_only_the_digest_is_stored_and_the_token_verifies(book, token_store, tmp_path, backend):
    issued = book.create("qa-bot", "writer")
    assert issued.secret.startswith(TOKEN_PREFIX) and len(issued.secret) > 40
    assert book.verify(issued.secret) == ("qa-bot", "writer")
    with token_store.read() as tx:
        rows = tx._fetch("SELECT name, role, token_hash FROM api_tokens")
    assert [tuple(r) for r in rows] == [("qa-bot", "writer", token_digest(issued.secret))]
    if backend == "sqlite":
        assert issued.secret not in (tmp_path / "ws.db").read_bytes().decode("latin-1")


def test_wrong_and_revoked_tokens_do_not_verify(book):
    issued = book.create("alice", "reader")
    assert book.verify(issued.secret[:-1] + ("A" if issued.secret[-1] != "A" else "B")) is None
    assert book.verify("not-even-ours") is None and book.verify("") is None
    assert book.revoke("alice")["revoked_at"]
    assert book.verify(issued.secret) is None and not book.has_live_tokens()
    renewed = book.create("alice", "approver")  # a revoked name may be issued again
    assert book.verify(renewed.secret) == ("alice", "approver") and book.verify(issued.secret) is None


def test_a_revocation_reaches_another_process_within_the_remembered_time(book, token_store):
    issued = book.create("ci-runner", "writer")
    # Another server process: its own book over the same workspace, remembering live checks briefly.
    other = TokenBook(token_store, verified_for=0.3)
    assert other.verify(issued.secret) == ("ci-runner", "writer")
    assert other.verified_lately(issued.secret) == ("ci-runner", "writer")
    book.revoke("ci-runner")
    assert book.verify(issued.secret) is None  # at once where it was revoked
    assert other.verify(issued.secret) == ("ci-runner", "writer")  # remembered for a moment elsewhere
    time.sleep(0.35)
    assert other.verified_lately(issued.secret) is None and other.verify(issued.secret) is None


def test_a_failed_check_is_never_remembered(book):
    assert book.verify(TOKEN_PREFIX + "guess") is None and book.verified_lately(TOKEN_PREFIX + "guess") is None
    issued = book.create("late", "reader")
    assert book.verified_lately(issued.secret) is None  # made, never checked yet
    assert book.verify(issued.secret) == ("late", "reader")


def test_revoking_forgets_the_remembered_check_in_that_process(book):
    issued = book.create("bob", "reader")
    assert book.verify(issued.secret) == ("bob", "reader")
    book.revoke("bob")
    assert book.verified_lately(issued.secret) is None and book.verify(issued.secret) is None


def test_two_tokens_are_never_alike(book):
    secrets = {book.create(f"user{n}", "reader").secret for n in range(20)}
    assert len(secrets) == 20


@pytest.mark.parametrize(("name", "role", "words"), [
    ("Alice", "reader", "lower-case"), ("", "reader", "lower-case"), ("a" * 65, "reader", "1-64"),
    ("local", "reader", "unauthenticated"), ("bob", "admin", "reader, writer, approver"), ("x y", "reader", "lower-case"),
])
def test_bad_names_and_roles_are_refused_before_anything_is_written(book, name, role, words):
    with pytest.raises(TokenError, match=words):
        book.create(name, role)
    assert book.list() == []


def test_a_live_name_cannot_be_issued_twice_and_an_unknown_one_cannot_be_revoked(book):
    book.create("carol", "reader")
    from opgate.core.store import Conflict

    with pytest.raises(Conflict, match="revoke it first"):
        book.create("carol", "writer")
    with pytest.raises(TokenError, match="no live token"):
        book.revoke("dave")
    assert [(row["name"], row["role"]) for row in book.list()] == [("carol", "reader")]


def test_the_rate_allows_a_burst_then_one_request_per_interval():
    from opgate.mcp_server._auth import RateLimits

    now = [100.0]
    limits = RateLimits(2.0, 3, clock=lambda: now[0])
    assert [limits.wait_for("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limits.wait_for("a") == pytest.approx(0.5)
    assert limits.wait_for("b") == 0.0  # each caller has its own bucket
    now[0] += 0.5
    assert limits.wait_for("a") == 0.0 and limits.wait_for("a") > 0
    assert RateLimits(0, 1).wait_for("a") == 0.0  # 0: no limit


def test_the_serve_table_is_checked_whole():
    config, problems = check_config({"serve": {"auth": True, "public_url": "https://opgate.example.com/mcp", "allowed_hosts": ["opgate.example.com"], "allowed_origins": ["https://app.example.com/"], "rate_limit": 5, "rate_burst": 10}}, Path("opgate.toml"))
    assert problems == [] and config.serve == ServeConfig(True, "https://opgate.example.com/mcp", ("https://app.example.com",), ("opgate.example.com",), 5.0, 10)
    _, problems = check_config({"serve": {"auth": "yes", "allowed_hosts": ["h:80"], "allowed_origins": ["https://a.example/path"], "rate_limit": -1, "rate_burst": 0, "tls": True}}, Path("opgate.toml"))
    assert sorted(p.key for p in problems) == ["serve.allowed_hosts", "serve.allowed_origins", "serve.auth", "serve.rate_burst", "serve.rate_limit", "serve.tls"]


def _opgate(db: Path, *words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "opgate", "--db", str(db), *words], capture_output=True, text=True, timeout=60, env=os.environ)


def test_the_token_command_shows_a_token_once_and_never_lists_it(tmp_path):
    db = tmp_path / "ws.db"
    made = _opgate(db, "token", "create", "--name", "ci", "--role", "reader")
    assert made.returncode == 0 and "shown only now" in made.stderr
    secret = made.stdout.strip()
    listed = _opgate(db, "token", "list", "--json")
    assert json.loads(listed.stdout)[0] | {"created_at": "-"} == {"name": "ci", "role": "reader", "created_at": "-", "revoked_at": None}
    assert secret not in _opgate(db, "token", "list").stdout
    again = _opgate(db, "token", "create", "--name", "ci", "--role", "reader")
    assert again.returncode == 2 and "revoke it first" in again.stderr and "Traceback" not in again.stderr
    assert _opgate(db, "token", "revoke", "ci").returncode == 0
    missing = _opgate(db, "token", "revoke", "ci")
    assert missing.returncode == 2 and "no live token" in missing.stderr
    bad = _opgate(db, "token", "create", "--name", "[red]x", "--role", "reader")
    assert bad.returncode == 2 and "[red]x" in bad.stderr


@pytest.mark.parametrize(("flag", "value", "words"), [("--public-url", "opgate.example.com/mcp", "http:// or https:// URL"), ("--allow-host", "opgate.example.com:443", "no scheme, no port"), ("--rate-limit", "-1", "from 0"), ("--rate-burst", "0", "from 1")])
def test_serve_flags_are_checked_before_anything_starts(tmp_path, flag, value, words):
    done = _opgate(tmp_path / "ws.db", "serve", "--http", "127.0.0.1:0", flag, value)
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "ws.db").exists()
