"""Both backends keep to the documented protocol, signature for signature."""

from __future__ import annotations

import inspect

import pytest

from opgate.core.store import OntologyStore, PostgresStore, SQLiteStore, StoreTransaction, StoreWriteTransaction
from opgate.core.store._pg_tx import PostgresReadTransaction, PostgresWriteTransaction
from opgate.core.store._sqlite_tx import SQLiteReadTransaction, SQLiteWriteTransaction


def _methods(protocol: type) -> dict[str, inspect.Signature]:
    names = set()
    for cls in protocol.__mro__:
        if cls.__module__.endswith("_protocol"):
            names |= {n for n, v in vars(cls).items() if callable(v) and not n.startswith("_")}
    return {n: inspect.signature(getattr(protocol, n)) for n in names}


@pytest.mark.parametrize(("protocol", "implementation"), [
    (StoreTransaction, SQLiteReadTransaction),
    (StoreWriteTransaction, SQLiteWriteTransaction),
    (OntologyStore, SQLiteStore),
    (StoreTransaction, PostgresReadTransaction),
    (StoreWriteTransaction, PostgresWriteTransaction),
    (OntologyStore, PostgresStore),
])
def test_implementation_matches_protocol(protocol, implementation):
    for name, expected in _methods(protocol).items():
        actual = inspect.signature(getattr(implementation, name))
        assert list(actual.parameters) == list(expected.parameters), name
        for param in expected.parameters.values():
            assert actual.parameters[param.name].kind == param.kind, (name, param.name)
            assert actual.parameters[param.name].default == param.default, (name, param.name)


@pytest.mark.parametrize("read_transaction", [SQLiteReadTransaction, PostgresReadTransaction])
def test_read_transactions_cannot_write(read_transaction):
    assert not hasattr(read_transaction, "insert")
    assert not hasattr(read_transaction, "append_call_log")
    assert not hasattr(read_transaction, "append_call_logs")
