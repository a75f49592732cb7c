"""Shared by the read-handler tests: run a read op's handler directly on a demo store."""

from __future__ import annotations

import json

import pytest

from opgate.core import Gateway
from opgate.core.exec import HandlerContext, Session
from opgate.core.handlers._read_table import HANDLERS
from opgate.core.settings import GatewaySettings
from opgate.core.store import open_store

REGISTRY = Gateway().registry


def _read_runner(store):
    """``run(op, **args)``: the op's handler in a read transaction; ``run.warnings`` keeps the last call's warnings."""

    def run(op: str, **args):
        with store.read() as tx:
            ctx = HandlerContext(op=op, record=REGISTRY.get(op), tx=tx, session=Session(), settings=GatewaySettings())
            result = HANDLERS[op].fn(ctx, args)
        json.dumps(result)  # every result must be JSON-serialisable
        run.warnings = ctx.warnings
        return result

    return run


@pytest.fixture(scope="module")
def read(tmp_path_factory, fresh_workspace):
    """``read(op, **args)`` on a demo store shared by one test module, on each backend."""
    store = open_store(fresh_workspace(tmp_path_factory.mktemp("reads")))
    yield _read_runner(store)
    store.close()


@pytest.fixture
def read_runner():
    """For tests with a store of their own: ``read_runner(store)(op, **args)``."""
    return _read_runner
