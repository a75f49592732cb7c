"""The SQLite backend keeps to the documented protocol, signature for signature."""

from __future__ import annotations

import inspect

import pytest

from opgate.core.store import OntologyStore, SQLiteStore, StoreTransaction, StoreWriteTransaction
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
])
def test_implementation_matches_protocol(protocol, implementation):
    for name, expected in _methods(protocol).items():
        actual = inspect.signature(getattr(implementation, name))
        assert list(actual.parameters) == list(expected.parameters), name
        for param in expected.parameters.values():
            assert actual.parameters[param.name].kind == param.kind, (name, param.name)
            assert actual.parameters[param.name].default == param.default, (name, param.name)


def test_read_transactions_cannot_write():
    assert not hasattr(SQLiteReadTransaction, "insert")
    assert not hasattr(SQLiteReadTransaction, "append_call_log")
