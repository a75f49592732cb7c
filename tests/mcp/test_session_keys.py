"""Which session a call belongs to, without a server: stdio, the Mcp-Session-Id, the Opgate-Session header, and the caller's identity."""

from __future__ import annotations

from types import SimpleNamespace

import anyio
import pytest

from opgate.core.exec import PermissionDenied
from opgate.mcp_server._clients import Client, ConfirmationBudget
from opgate.mcp_server._session_keys import SessionKey, caller_identity, scope_identity, session_key


def request(headers: dict[str, str], user=None):
    return SimpleNamespace(headers=headers, scope={"type": "http", **({"user": user} if user is not None else {})})


def user(identity: str, authenticated: bool = True):
    return SimpleNamespace(is_authenticated=authenticated, identity=identity, display_name=identity)


def test_stdio_is_one_session():
    assert session_key(None) == SessionKey(None, "stdio")


def test_http_sessions_come_from_the_transport_or_the_opgate_header():
    assert session_key(request({"mcp-session-id": "abc"})).transport == "http:abc"
    assert session_key(request({"opgate-session": "mine"})).transport == "named:mine"
    alone = session_key(request({}))
    assert alone.kept is False and alone.caller == session_key(request({})).caller, "unkept requests of one caller share an idempotency scope"


def test_the_callers_identity_is_part_of_the_key():
    alice = session_key(request({"mcp-session-id": "abc"}, user("alice")))
    bob = session_key(request({"mcp-session-id": "abc"}, user("bob")))
    anonymous = session_key(request({"mcp-session-id": "abc"}, user("x", authenticated=False)))
    assert (alice.identity, bob.identity, anonymous.identity) == ("alice", "bob", None)
    assert len({alice.text, bob.text, anonymous.text}) == 3 and len({alice.caller, bob.caller, anonymous.caller}) == 3
    assert session_key(request({}, user("alice"))).caller != session_key(request({}, user("bob"))).caller


def test_the_sdks_bearer_auth_user_is_identified_by_its_tokens_principal():
    from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
    from mcp.server.auth.provider import AccessToken

    def token_user(client: str, subject: str) -> AuthenticatedUser:
        return AuthenticatedUser(AccessToken(token="secret-token", client_id=client, scopes=[], subject=subject))

    alice, bob = (session_key(request({"mcp-session-id": "abc"}, token_user("app", who))) for who in ("alice", "bob"))
    assert alice.identity and alice.identity != bob.identity and "secret-token" not in alice.identity


class Anonymous:
    is_authenticated = True

    @property
    def identity(self) -> str:
        raise NotImplementedError


def test_a_user_without_an_identity_counts_as_unauthenticated():
    assert session_key(request({}, Anonymous())).identity is None


def test_an_authentication_layer_can_set_the_identity_for_the_running_call():
    token = caller_identity.set("carol")
    try:
        assert scope_identity(request({})) == "carol" and session_key(None).identity == "carol"
    finally:
        caller_identity.reset(token)


def test_the_caller_name_never_holds_the_session_id():
    key = session_key(request({"mcp-session-id": "secret-session-id"}))
    assert "secret" not in key.caller and key.caller.startswith("mcp:")


def test_the_confirmation_budget_bounds_each_client_and_all():
    async def run() -> None:
        budget = ConfirmationBudget(per_client=1, total=2)
        a, b, c = (Client(SessionKey(None, name), None, None, None) for name in "abc")  # type: ignore[arg-type]
        budget.take(a, "op")
        with pytest.raises(PermissionDenied, match="this session already has 1 waiting"):
            budget.take(a, "op")
        budget.take(b, "op")
        with pytest.raises(PermissionDenied, match="the server already has 2 waiting"):
            budget.take(c, "op")
        budget.give_back(a)
        budget.take(c, "op")
        assert (budget.waiting, a.waiting, b.waiting, c.waiting) == (2, 0, 1, 1)

    anyio.run(run)


def test_the_server_keeps_a_bounded_number_of_sessions(tmp_path):
    from opgate.core import Gateway
    from opgate.mcp_server._clients import Clients

    async def run() -> None:
        gateway = Gateway(db_path=tmp_path / "w.db")
        try:
            clients = Clients(gateway, gateway, "hybrid", max_clients=3, idle_seconds=60)
            first = clients.get(SessionKey(None, "http:0"))
            assert clients.get(SessionKey(None, "http:0")) is first
            for i in range(10):
                clients.get(SessionKey(None, f"http:{i}"))
            assert len(clients) == 3 and clients.evicted == 7
            assert clients.get(SessionKey(None, "http:0")) is not first, "a forgotten session starts afresh"
            unkept = clients.get(SessionKey(None, None))
            assert unkept is not clients.get(SessionKey(None, None)) and len(clients) == 3
            assert clients.get(SessionKey("alice", "http:9")) is not clients.get(SessionKey(None, "http:9"))
        finally:
            gateway.close()

    anyio.run(run)
