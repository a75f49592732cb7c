"""A caller that gives up while an HTTP API call waits to try again (Retry-After) ends the wait, and nothing more is sent.

The wait was a plain sleep: a client of `opgate serve` that cancelled a read
the server had asked to retry in 10 s waited those 10 s and then sent the
request again.
"""

from __future__ import annotations

import threading
import time

from loopback_server import Answer

from opgate.core.executors._progress import abandonable


def test_a_cancelled_call_stops_waiting_to_retry_and_sends_nothing_more(loopback, loopback_gateway):
    loopback.script("GET", "/items/1", Answer(429, {"message": "slow down"}, headers={"Retry-After": "10"}), Answer(200, {"name": "one"}))
    gateway = loopback_gateway(timeout_s=20.0)
    given_up = threading.Event()
    threading.Timer(0.5, given_up.set).start()
    started = time.monotonic()
    with abandonable(given_up):
        envelope = gateway.exec("items.item.get", {"id": "1"})
    assert time.monotonic() - started < 4, "the call waited out the Retry-After after its caller gave up"
    error = envelope["error"]
    assert error["code"] == "INTERNAL" and error["details"].get("cancelled") is True and not error["details"].get("retryable"), error
    assert len(loopback.received) == 1
