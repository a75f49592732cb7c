"""Fixtures shared by the search tests."""

from __future__ import annotations

import pytest
from opgate.core import Gateway


@pytest.fixture(scope="module")
def gateway() -> Gateway:
    """The built-in catalogue's gateway (no call log): what the explorer's ``/`` and the REPL search."""
    gateway = Gateway(call_log=False)
    yield gateway
    gateway.close()
