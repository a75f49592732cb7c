"""The one watchdog thread behind every call's hard timeout."""

from __future__ import annotations

import threading
import time

from opgate.core.executors._watchdog import Watchdog


def test_deadlines_fire_in_order_and_cancelled_ones_never_do():
    dog = Watchdog()
    fired: list[str] = []
    done = threading.Event()
    now = time.monotonic()
    dog.watch(now + 0.20, lambda: (fired.append("late"), done.set()))
    early = dog.watch(now + 0.05, lambda: fired.append("early"))
    cancelled = dog.watch(now + 0.10, lambda: fired.append("cancelled"))
    cancelled.cancel()
    assert done.wait(5)
    assert fired == ["early", "late"]
    assert early.fired and not cancelled.fired


def test_one_thread_serves_every_call_and_a_failing_callback_stops_nothing():
    dog = Watchdog()
    seen = threading.Event()

    def boom():
        raise RuntimeError("a callback that fails")

    for _ in range(50):
        dog.watch(time.monotonic() + 0.01, boom)
    dog.watch(time.monotonic() + 0.05, seen.set)
    assert seen.wait(5)
    assert sum(t.name == "opgate-watchdog" for t in threading.enumerate()) >= 1
    assert len([t for t in threading.enumerate() if t is dog._thread]) == 1
