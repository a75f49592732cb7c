"""The one watchdog thread behind every call's hard timeout."""

from __future__ import annotations

import threading
import time

from opgate.core.executors._watchdog import Watchdog, cancel, has_fired


def test_deadlines_fire_in_order_and_cancelled_ones_never_do():
    dog = Watchdog()
    fired: list[str] = []
    done = threading.Event()
    now = time.monotonic()
    dog.watch(now + 0.20, lambda: (fired.append("late"), done.set()))
    early = dog.watch(now + 0.05, lambda: fired.append("early"))
    cancelled = dog.watch(now + 0.10, lambda: fired.append("cancelled"))
    cancel(cancelled)
    assert done.wait(5)
    assert fired == ["early", "late"]
    assert has_fired(early) and not has_fired(cancelled)


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


class _CountingCondition(threading.Condition):
    def __init__(self) -> None:
        super().__init__()
        self.notified = 0

    def notify(self, n: int = 1) -> None:
        self.notified += 1
        super().notify(n)


def test_a_later_deadline_does_not_wake_the_thread_but_still_fires():
    dog = Watchdog()
    dog._wake = wake = _CountingCondition()
    fired: list[str] = []
    done = threading.Event()
    now = time.monotonic()
    first = dog.watch(now + 0.15, lambda: fired.append("first"))
    time.sleep(0.05)  # the thread is asleep towards the first deadline now
    woken = wake.notified
    for n in range(100):  # later deadlines, as calls sharing one timeout make: none wakes the thread
        cancel(dog.watch(now + 0.2 + n / 1000, lambda: None))
    dog.watch(now + 0.35, lambda: (fired.append("later"), done.set()))
    assert wake.notified == woken
    cancel(first)  # the deadline it sleeps towards is cancelled: the later one must still fire
    assert done.wait(5)
    assert fired == ["later"]


def test_an_earlier_deadline_wakes_a_thread_asleep_towards_a_later_one():
    dog = Watchdog()
    done = threading.Event()
    dog.watch(time.monotonic() + 60, lambda: None)
    time.sleep(0.05)
    started = time.monotonic()
    dog.watch(time.monotonic() + 0.05, done.set)
    assert done.wait(5)
    assert time.monotonic() - started < 30


def test_a_watch_fires_once_and_says_so_until_it_is_cancelled():
    dog = Watchdog()
    calls: list[int] = []
    done = threading.Event()
    watch = dog.watch(time.monotonic() + 0.02, lambda: (calls.append(1), done.set()))
    assert done.wait(5)
    assert has_fired(watch)  # the store asks this after the interrupted statement raised, before it cancels
    cancel(watch)
    assert has_fired(watch) is False  # cancelled now: the store's check comes before its cancel
    time.sleep(0.05)
    assert calls == [1]
