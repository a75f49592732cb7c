"""Random and malformed arguments for every built-in op: always a valid envelope, never INTERNAL, nothing written.

Writes run as dry-runs (so their handlers really run on whatever passes
validation) and without allow_write (so a real write would be refused).
The web ops are left out: they reach the network and have their own tests.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from opgate.core import Gateway
from opgate.core.exec import ERROR_CODES
from opgate.core.store import open_store

JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30))
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)), max_leaves=6)
DEMO_IDS = st.sampled_from([
    "10000000-0000-4000-8000-000000000001", "20000000-0000-4000-8000-000000000001", "30000000-0000-4000-8000-000000000001",
    "40000000-0000-4000-8000-000000000001", "50000000-0000-4000-8000-000000000002", "e0000000-0000-4000-8000-000000000001",
    "00000000-0000-4000-8000-000000000000",
])


def _ops() -> list[str]:
    gateway = Gateway(call_log=False)
    try:
        return [r.op for r in gateway.registry if not r.op.startswith("util.web.")]
    finally:
        gateway.close()


def _args_for(record):
    names = list((record.parameters.get("properties") or {}).keys())
    keys = st.sampled_from(names + ["bogus", "Project_Id"]) if names else st.sampled_from(["bogus"])
    values = st.one_of(JSON_VALUES, DEMO_IDS)
    return st.one_of(
        st.dictionaries(keys, values, max_size=5),
        st.builds(lambda ex: dict(ex.get("args", {})), st.sampled_from(list(record.examples) or [{"args": {}}])),
        JSON_VALUES,
    )


@pytest.fixture(scope="module")
def world(tmp_path_factory, fresh_workspace):
    store = open_store(fresh_workspace(tmp_path_factory.mktemp("fuzz"), "w.db"))
    yield store, Gateway(store=store, call_log=False)
    store.close()


@pytest.mark.parametrize("op", _ops())
def test_every_answer_is_a_valid_envelope(world, op):
    store, gateway = world
    record = gateway.registry.get(op)
    before = store.dump()

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(args=_args_for(record))
    def check(args):
        envelope = gateway.exec(op, args, dry_run=record.kind == "write")
        assert envelope["op"] == op
        if envelope["ok"]:
            assert set(envelope["meta"]) >= {"trace_id", "latency_ms", "warnings"}
        else:
            error = envelope["error"]
            assert error["code"] in ERROR_CODES
            assert error["code"] != "INTERNAL", error
            assert error["message"] and error["help_path"]
            assert isinstance(error["details"]["field_errors"], list)

    check()
    assert store.dump() == before
