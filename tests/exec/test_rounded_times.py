"""An envelope's latency and a call-log row's duration are rounded without ``round(x, digits)``: the same values."""

from __future__ import annotations

import random

from opgate.core import Gateway
from opgate.core.exec._envelope import to_hundredths


def _times() -> list[float]:
    rng = random.Random(7)
    times = [0.0, 0.005, 0.015, 0.125, 1.005, 2.675, 0.285, 99.995, 1e-9, 12345.678901]
    times += [rng.uniform(0, 2) for _ in range(50_000)] + [rng.expovariate(0.01) for _ in range(50_000)]
    times += [n / 1000 for n in range(0, 100_000, 5)]  # every half-way case of hundredths up to 100 ms
    return times


def test_hundredths_are_round_to_two_digits_but_at_a_float_error_from_a_half():
    for value in _times():
        quick, exact = to_hundredths(value), round(value, 2)
        if quick != exact:  # only a half-way case, by one hundredth
            assert abs(quick - exact) <= 0.0100001 and abs(value * 100 - int(value * 100) - 0.5) < 1e-6, value
        assert len(repr(quick).partition(".")[2]) <= 2 or "e" in repr(quick), quick


def test_an_exec_reports_its_latency_and_duration_rounded(tmp_path):
    gateway = Gateway(db_path=tmp_path / "ws.db")
    answer = gateway.exec("onto.task.list", {"limit": 1})
    entry = gateway.recent_calls(1)[0]
    gateway.close()
    latency, duration = answer["meta"]["latency_ms"], entry["duration_ms"]
    assert type(latency) is float and len(repr(latency).partition(".")[2]) <= 2
    assert type(duration) is float and len(repr(duration).partition(".")[2]) <= 3
