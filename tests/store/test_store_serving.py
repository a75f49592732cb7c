"""What several server processes share through the store: waiting confirmations and named sessions' state (both backends)."""

from __future__ import annotations

import threading

from opgate.core.store._locate import connect_store

NOW = "2026-11-26T10:00:00.000000Z"
LATER = "2026-11-26T10:10:00.000000Z"


def pending(state_hash: str, caller: str = "dana", *, expires_at: str = LATER, done_steps=None) -> dict:
    return {
        "state_hash": state_hash, "caller": caller, "call_fingerprint": "fp-" + state_hash, "op": "onto.task.delete",
        "args_fingerprint": "args", "state_digest": "digest", "id_seed": "seed-1234", "done_steps": done_steps,
        "created_at": NOW, "expires_at": expires_at,
    }


def test_a_waiting_confirmation_is_claimed_once_and_only_by_its_caller_and_call(store):
    with store.write() as tx:
        tx.put_pending_confirmation(pending("h1", done_steps={"step": 1, "done": {"0": {"ok": True, "step": 0}}}))
        tx.put_pending_confirmation(pending("h2", caller="erin"))
    with store.read() as tx:
        assert tx.pending_confirmation_counts("dana", NOW) == (1, 2)
        assert tx.pending_confirmation_counts("dana", LATER) == (0, 0), "expired ones are not counted"
    with store.write() as tx:
        assert tx.claim_pending_confirmation("h1", "erin", "fp-h1", NOW) is None, "another caller cannot take it"
        assert tx.claim_pending_confirmation("h1", "dana", "fp-other", NOW) is None, "nor another call"
        row = tx.claim_pending_confirmation("h1", "dana", "fp-h1", NOW)
    assert row is not None and row["done_steps"] == {"step": 1, "done": {"0": {"ok": True, "step": 0}}}
    assert (row["op"], row["state_digest"], row["id_seed"]) == ("onto.task.delete", "digest", "seed-1234")
    with store.write() as tx:
        assert tx.claim_pending_confirmation("h1", "dana", "fp-h1", NOW) is None, "an answer is redeemed once"
        assert tx.claim_pending_confirmation("h2", "erin", "fp-h2", LATER) is None, "an expired one cannot be redeemed"
    with store.read() as tx:
        assert tx.pending_confirmation_counts("erin", NOW) == (0, 0), "a claimed or expired one is gone"


def test_two_connections_racing_for_one_answer_get_it_once(store, tmp_path):
    with store.write() as tx:
        tx.put_pending_confirmation(pending("race"))
    location = getattr(store, "url", None) or store.location
    claims: list[object] = []

    def claim() -> None:
        with connect_store(location) as other, other.write() as tx:
            claims.append(tx.claim_pending_confirmation("race", "dana", "fp-race", NOW))

    threads = [threading.Thread(target=claim) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(1 for claimed in claims if claimed is not None) == 1 and len(claims) == 4


def test_a_named_session_state_is_kept_and_forgotten_when_idle(store):
    with store.write() as tx:
        tx.put_client_session_state("k1", {"known": {"project_id": "p1"}, "inspected": ["onto.task.list"]}, NOW, forget_before="2026-11-26T09:30:00.000000Z")
    with store.read() as tx:
        assert tx.client_session_state("k1", "2026-11-26T09:30:00.000000Z") == {"known": {"project_id": "p1"}, "inspected": ["onto.task.list"]}
        assert tx.client_session_state("k1", LATER) is None, "older than the idle limit counts as gone"
    with store.write() as tx:
        tx.put_client_session_state("k1", {"known": {"project_id": "p2"}, "inspected": []}, LATER, forget_before=NOW)
        tx.put_client_session_state("k2", {"known": {}, "inspected": []}, "2026-11-26T10:40:00.000000Z", forget_before="2026-11-26T10:20:00.000000Z")
    with store.read() as tx:
        assert tx.client_session_state("k1", NOW) is None, "k1 was idle past the limit when k2 was written"
        assert tx.client_session_state("k2", NOW) == {"known": {}, "inspected": []}
    assert "pending_confirmations" not in store.dump() and "client_sessions" not in store.dump()
