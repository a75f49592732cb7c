"""A plain create hashes its reads for the state digest after its commit, not under the write lock.

A create with no digest to check, no idempotency key and no dry-run writes
with ``lock_late`` (see ``Handler.reads_before_lock``); nothing it does after
the write needs the digest before the commit, so the hashing is left until
the lock is free. The digest it answers with must be the one a dry-run of
the same call hands out, and a call that does check a digest still checks
it before anything commits.
"""

from __future__ import annotations

import pytest

from opgate.core.store._sqlite_base import SQLiteTxCore
from opgate.core.store._sqlite_tx import SQLiteWriteTransaction

PROJECT = "10000000-0000-4000-8000-000000000001"
CREATE = {"project_id": PROJECT, "title": "Digest after the commit"}


@pytest.fixture
def builtin_gateway(make_gateway):
    return make_gateway(handlers=None, allow_write=True)


@pytest.fixture
def digests(monkeypatch):
    """Whether the write transaction was still open each time a transaction's state digest was asked for."""
    seen: list[bool] = []
    hashed = SQLiteTxCore.state_digest

    def state_digest(self):
        if isinstance(self, SQLiteWriteTransaction):
            seen.append(self._open)
        return hashed(self)

    monkeypatch.setattr(SQLiteTxCore, "state_digest", state_digest)
    return seen


def test_a_plain_create_answers_with_its_dry_runs_digest(builtin_gateway):
    rehearsal = builtin_gateway.exec("onto.task.create", CREATE, dry_run=True)
    created = builtin_gateway.exec("onto.task.create", CREATE, id_seed=rehearsal["meta"]["id_seed"])
    assert created["ok"], created
    assert created["meta"]["state_digest"] == rehearsal["meta"]["state_digest"]
    # The same row but for its times: the two calls may fall in different seconds on a busy machine.
    stamped = ("created_at", "updated_at")
    assert {k: v for k, v in created["result"]["task"].items() if k not in stamped} == {
        k: v for k, v in rehearsal["result"]["task"].items() if k not in stamped}
    # The digest keeps its place among the meta keys, so the envelope's bytes do not move.
    assert list(created["meta"]).index("state_digest") == list(created["meta"]).index("diff") + 1


def test_a_plain_create_hashes_after_the_commit(builtin_gateway, digests):
    assert builtin_gateway.exec("onto.task.create", CREATE)["ok"]
    assert digests == [False]


def test_a_create_checking_a_digest_checks_it_before_committing(builtin_gateway, store, digests):
    rehearsal = builtin_gateway.exec("onto.task.create", CREATE, dry_run=True)
    digests.clear()
    checked = builtin_gateway.exec("onto.task.create", CREATE, state_digest=rehearsal["meta"]["state_digest"],
                                   id_seed=rehearsal["meta"]["id_seed"])
    assert checked["ok"], checked
    assert digests == [True]
    # A digest from another state is refused, and nothing is written.
    refused = builtin_gateway.exec("onto.task.create", {**CREATE, "title": "Refused"}, state_digest="0" * 64)
    assert refused["error"]["code"] == "CONFLICT"
    with store.read() as tx:
        assert not tx.list_titled("task", PROJECT, "Refused").rows
