"""The explorer: cold start to first frame, the widest form, and keystroke-to-render in the tree with Twilio loaded.

Run: python bench/bench_tui.py
The floors run in the same script: a bare Textual app showing a Tree of
1,447 nodes (first frame), and a bare app mounting one Label and Input per
argument of Twilio's widest op (the form). The explorer's catalogue is read
through the registry cache (a temp folder), as a second start reads it.
Cold start spawns a fresh interpreter per run (imports, catalogue, registry,
app; headless via ``App.run_test``), the floor and each explorer in turn in
every round. Each child says when the first frame is drawn (the first one
handed to the terminal driver) and when the screen has settled (the pilot's
wait for idle: the first group's docs, the deferred panes and the validator
warm-up done), with its CPU time at each. Every child reads compiled
bytecode from a cache in the temp folder (written by an unmeasured first
run), as an installed package does; ``--source`` compiles our modules from
source in every run instead, as a checkout with PYTHONDONTWRITEBYTECODE does.
Keystrokes drive a headless app with a pilot:
each press is timed from the key to the first frame drawn after it (the tree
cursor moved) and to the last one (the docs of the new node loaded by their
worker and drawn); the pilot's own waiting is not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _table import median, p95, print_table  # noqa: E402

TWILIO = Path(__file__).resolve().parents[2] / "shared" / "data" / "catalogs" / "twilio_openapi_tools.json"
COLD_RUNS = 7
PRESSES = 60
FORM_RUNS = 3
ECHO_PRESSES = 10

# Both children say when their first frame is drawn and when the screen has settled, with their CPU time.
REPORT_FRAMES = """
import time

def report_frames(app):
    display = app._display

    def drawn(screen, renderable):
        if renderable is not None and not app._batch_count and not getattr(app, "bench_framed", False):
            app.bench_framed = True
            print("frame", time.process_time(), flush=True)
        display(screen, renderable)

    app._display = drawn
"""

CHILD = REPORT_FRAMES + """
import asyncio, sys
from opgate.core import Gateway
from opgate.tui import make_app

async def first_frame():
    catalog = sys.argv[2]
    gw = Gateway.from_catalogs([catalog], db_path=sys.argv[1]) if catalog else Gateway(db_path=sys.argv[1])
    app = make_app(gw, catalog or "built-in catalogue")
    report_frames(app)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        print("settled", time.process_time(), flush=True)

asyncio.run(first_frame())
"""


# The floor: a bare Textual app showing a Tree with one node per Twilio op, nothing else.
FLOOR_CHILD = REPORT_FRAMES + """
import asyncio, json, sys
from textual.app import App
from textual.widgets import Tree

tools = json.load(open(sys.argv[2]))["tools"]

class Floor(App):
    def compose(self):
        tree = Tree("ops")
        for tool in tools:
            tree.root.add_leaf(tool["op"])
        tree.root.expand()
        yield tree

async def first_frame():
    app = Floor()
    report_frames(app)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        print("settled", time.process_time(), flush=True)

asyncio.run(first_frame())
"""

STARTS = (
    ("floor: bare Textual Tree of 1,447 nodes", FLOOR_CHILD, str(TWILIO)),
    ("built-in (68 ops)", CHILD, ""),
    ("Twilio (1,447 ops), registry cached", CHILD, str(TWILIO)),
)


def start_once(child_code: str, catalog: str, db: str, env: dict[str, str]) -> dict[str, float]:
    """One fresh interpreter: wall ms from spawn to its first frame and to settled, and its CPU ms at each."""
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", child_code, db, catalog], stdout=subprocess.PIPE, text=True, env=env)
    assert child.stdout is not None
    seen: dict[str, float] = {}
    for line in child.stdout:
        what, cpu = line.split()
        seen[what] = (time.perf_counter() - started) * 1000
        seen[f"{what} cpu"] = float(cpu) * 1000
    assert child.wait() == 0 and {"frame", "settled"} <= seen.keys(), seen
    return seen


def cold_starts(source: bool) -> dict[str, list[dict[str, float]]]:
    """COLD_RUNS rounds, each running the floor and every explorer start once, in turn."""
    runs: dict[str, list[dict[str, float]]] = {label: [] for label, _, _ in STARTS}
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "bench.db")
        env = dict(os.environ, OPGATE_CACHE_DIR=str(Path(folder) / "cache"), PYTHONPYCACHEPREFIX=str(Path(folder) / "bytecode"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for _, code, catalog in STARTS:  # creates the db, the registry cache and the bytecode
            start_once(code, catalog, db, env)
        if source:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            env.pop("PYTHONPYCACHEPREFIX")
        for _ in range(COLD_RUNS):
            for label, code, catalog in STARTS:
                runs[label].append(start_once(code, catalog, db, env))
    return runs


async def keystrokes() -> dict[str, list[float]]:
    """Per key: ms from the key event to the first frame drawn after it, and to the last (docs loaded)."""
    from opgate.core import Gateway
    from opgate.tui import make_app
    from opgate.tui.widgets import OpTree

    results: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        gw = Gateway.from_catalogs([TWILIO], db_path=Path(folder) / "t.db")
        app = make_app(gw, str(TWILIO))
        frames: list[float] = []
        display = app._display  # the app draws every frame through here (headless: into a null driver)

        def drawn(screen, renderable) -> None:
            frames.append(time.perf_counter())
            display(screen, renderable)

        app._display = drawn  # type: ignore[method-assign]
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            tree = app.screen.query_one(OpTree)
            await pilot.press("right")  # open "twilio"

            async def timed(key: str, label: str) -> None:
                frames.clear()
                started = time.perf_counter()
                await pilot.press(key)
                while any(not w.is_finished for w in app.workers):
                    await asyncio.sleep(0.001)
                await pilot.pause()
                after = [f for f in frames if f > started]
                if after:
                    results.setdefault(f"{label}: first frame", []).append((after[0] - started) * 1000)
                    results.setdefault(f"{label}: docs drawn", []).append((after[-1] - started) * 1000)

            for _ in range(PRESSES):
                await timed("down", "down")
            for _ in range(PRESSES // 3):
                node = tree.cursor_node
                if node is not None and node.allow_expand and not node.is_expanded:
                    await timed("right", "right (open group)")
                await pilot.press("down")
            for _ in range(PRESSES):
                await timed("up", "up")
        gw.close()
    return results


class FrameClock:
    """Timestamps of the frames an app draws (headless: into a null driver), hooked where every frame goes."""

    def __init__(self, app) -> None:
        self.frames: list[float] = []
        self.watch: Callable[[], bool] | None = None
        self.seen: float | None = None
        display = app._display

        def drawn(screen, renderable) -> None:
            now = time.perf_counter()
            self.frames.append(now)
            if self.seen is None and self.watch is not None and self.watch():
                self.seen = now
            display(screen, renderable)

        app._display = drawn  # type: ignore[method-assign]

    async def until(self, condition: Callable[[], bool], timeout: float = 120.0) -> float:
        """perf_counter of the first frame drawn once ``condition()`` held (checked as each frame is drawn)."""
        self.seen, self.watch = None, condition
        deadline = time.perf_counter() + timeout
        while self.seen is None:
            if time.perf_counter() > deadline:
                raise TimeoutError("no frame showed it")
            await asyncio.sleep(0.001)
        self.watch = None
        return self.seen


async def echo_times(pilot, clock: FrameClock, field, presses: int) -> list[float]:
    """ms from each key to the first frame that shows it in ``field`` (the pilot's own waiting is not counted)."""
    times = []
    for n in range(presses):
        expected = field.value + "x"
        started = time.perf_counter()
        shown = asyncio.ensure_future(clock.until(lambda: field.value == expected))
        await asyncio.sleep(0)
        await pilot.press("x")
        times.append((await shown - started) * 1000)
        await pilot.pause(0.05)  # typing speed: a key every 50 ms or more
    return times


async def big_form() -> list[list[object]]:
    """Opening Twilio's widest op in the builder, and keystrokes in its first field, against bare Textual doing the same.

    "Usable" is the first frame drawn after the call to open the op returned with
    the first field focused; "every field" is the first frame once the last one is mounted.
    """
    from textual.app import App
    from textual.containers import VerticalScroll
    from textual.widgets import Input, Label

    from opgate.core import Gateway
    from opgate.tui import make_app
    from opgate.tui.widgets import CallForm, FormField

    rows: list[list[object]] = []
    with tempfile.TemporaryDirectory() as folder:
        gw = Gateway.from_catalogs([TWILIO], db_path=Path(folder) / "t.db")
        widest = max(gw.registry, key=lambda r: len(r.parameters.get("properties", {})))
        width = len(widest.parameters["properties"])
        app = make_app(gw, str(TWILIO))
        clock = FrameClock(app)
        usable, complete, echoed, echoed_mounting = [], [], [], []
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            for run in range(FORM_RUNS + 1):
                await app.screen.open_op("twilio.api_v2010.account.fetch")  # a small op first: the widest one is opened afresh
                await pilot.pause()
                form = app.screen.query_one(CallForm)
                started = time.perf_counter()
                await app.screen.open_op(widest.op)
                shown = await clock.until(lambda: isinstance(app.focused, Input) and form in app.focused.ancestors)
                field = app.focused
                if run == FORM_RUNS:  # one more open, typed into at once: keys while the rest still mounts
                    echoed_mounting.extend(await echo_times(pilot, clock, field, ECHO_PRESSES))
                    continue
                usable.append((shown - started) * 1000)
                complete.append((await clock.until(lambda: len(form.query(FormField)) >= width) - started) * 1000)
                echoed.extend(await echo_times(pilot, clock, field, ECHO_PRESSES))
        gw.close()

    class Floor(App):
        def compose(self):
            yield VerticalScroll(id="form")

    floor_open, floor_echo = [], []
    floor = Floor()
    clock = FrameClock(floor)
    async with floor.run_test(size=(120, 36)) as pilot:
        for _ in range(FORM_RUNS):
            form = pilot.app.query_one("#form")
            await form.remove_children()
            await pilot.pause()
            started = time.perf_counter()
            await form.mount_all([w for n in range(width) for w in (Label(f"arg{n}"), Input(placeholder=f"arg{n}"))])
            first = form.query(Input).first()
            first.focus()
            floor_open.append((await clock.until(lambda: first.has_focus) - started) * 1000)
            await pilot.pause()
            floor_echo.extend(await echo_times(pilot, clock, first, ECHO_PRESSES))

    def row(what: str, ours: list[float], floor: list[float], digits: int = 0) -> list[object]:
        return [what, f"{median(ours):.{digits}f}", f"{p95(ours):.{digits}f}", f"{median(floor):.{digits}f}", f"{median(ours) / median(floor):.1f}x"]

    rows.append(row(f"open {widest.op} ({width} arguments): usable", usable, floor_open))
    rows.append(row("  every field mounted", complete, floor_open))
    rows.append(row("keystroke echo in its first field", echoed, floor_echo, 1))
    rows.append(row("  while the rest still mount", echoed_mounting, floor_echo, 1))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="start,form,tree", help="which tables: start, form, tree (comma-separated)")
    parser.add_argument("--source", action="store_true", help="cold starts compile our modules from source every run (no bytecode cache)")
    options = parser.parse_args()
    parts = set(options.parts.split(","))
    if "start" in parts:
        first_frame(options.source)
    if "form" in parts:
        print_table(
            f"The widest form (ms, {FORM_RUNS} opens, {ECHO_PRESSES} keys each): opgate against bare Textual mounting as many Label + Input pairs",
            ["what", "median", "p95", "floor", "ratio"], asyncio.run(big_form()),
        )
    if "tree" in parts:
        presses = asyncio.run(keystrokes())
        rows = [[key, f"{median(t):.1f}", f"{p95(t):.1f}", len(t)] for key, t in presses.items() if t]
        print_table("Keystroke to render, Twilio tree (ms per key)", ["key", "median", "p95", "presses"], rows)


def first_frame(source: bool) -> None:
    runs = cold_starts(source)
    floor = runs[STARTS[0][0]]

    def med(label: str, key: str) -> float:
        return median([run[key] for run in runs[label]])

    rows = []
    for label, _, _ in STARTS:
        cells: list[object] = [label]
        for key in ("frame", "frame cpu", "settled", "settled cpu"):
            ours, base = med(label, key), median([run[key] for run in floor])
            cells += [f"{ours:.0f}", f"{ours / base:.2f}x"]
        rows.append(cells)
    how = "our modules compiled from source every run" if source else "bytecode cached"
    print_table(
        f"Cold start (fresh interpreter, headless, {how}; ms, median of {COLD_RUNS} interleaved rounds; ratio to the floor)",
        ["app", "first frame", "ratio", "its CPU", "ratio", "settled", "ratio", "its CPU", "ratio"], rows,
    )


if __name__ == "__main__":
    main()
