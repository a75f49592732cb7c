"""A PostgreSQL workspace that cannot be reached says why, at once.

Its pool waited 10 s for a first connection that could never come and then
reported "every database connection of this process is in use; try again":
the wrong cause, and an invitation to retry a URL that will never work.
"""

from __future__ import annotations

import socket
import time

import pytest

from opgate.core.store import StoreError, open_store


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens once the socket is closed


def test_an_unreachable_database_is_refused_quickly_with_the_reason():
    url = f"postgresql://nobody@127.0.0.1:{_closed_port()}/opgate"
    started = time.monotonic()
    with pytest.raises(StoreError) as caught:
        open_store(url)
    took = time.monotonic() - started
    message = str(caught.value)
    assert "in use" not in message and "refused" in message.lower(), message
    assert took < 5, f"took {took:.1f} s"
