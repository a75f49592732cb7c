"""The explorer: cold start to first frame, and keystroke-to-render in the tree with Twilio loaded.

Run: python bench/bench_tui.py
The floors run in the same script: a bare Textual app showing a Tree of
1,447 nodes (first frame), and a bare app mounting one Label and Input per
argument of Twilio's widest op (the form). The explorer's catalogue is read
through the registry cache (a temp folder), as a second start reads it.
Cold start spawns a fresh interpreter per run (imports, catalogue, registry,
app, first frame; headless via ``App.run_test``) and times it until the child
says its first screen is up. Keystrokes drive a headless app with a pilot:
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

CHILD = """
import asyncio, sys
from opgate.core import Gateway
from opgate.tui import make_app

async def first_frame():
    catalog = sys.argv[2]
    gw = Gateway.from_catalogs([catalog], db_path=sys.argv[1]) if catalog else Gateway(db_path=sys.argv[1])
    app = make_app(gw, catalog or "built-in catalogue")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        print("ready", flush=True)

asyncio.run(first_frame())
"""


# The floor: a bare Textual app showing a Tree with one node per Twilio op, nothing else.
FLOOR_CHILD = """
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
    async with Floor().run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        print("ready", flush=True)

asyncio.run(first_frame())
"""


def cold_start(catalog: str, child_code: str = CHILD) -> list[float]:
    times = []
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "bench.db")
        env = dict(os.environ, OPGATE_CACHE_DIR=str(Path(folder) / "cache"))
        subprocess.run([sys.executable, "-c", child_code, db, catalog], check=True, capture_output=True, env=env)  # creates the db and the cache
        for _ in range(COLD_RUNS):
            started = time.perf_counter()
            child = subprocess.Popen([sys.executable, "-c", child_code, db, catalog], stdout=subprocess.PIPE, text=True, env=env)
            assert child.stdout is not None
            line = child.stdout.readline()
            times.append((time.perf_counter() - started) * 1000)
            child.wait()
            assert line.strip() == "ready", line
    return times


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
    parts = set(parser.parse_args().parts.split(","))
    if "start" in parts:
        first_frame()
    if "form" in parts:
        print_table(
            f"The widest form (ms, {FORM_RUNS} opens, {ECHO_PRESSES} keys each): opgate against bare Textual mounting as many Label + Input pairs",
            ["what", "median", "p95", "floor", "ratio"], asyncio.run(big_form()),
        )
    if "tree" in parts:
        presses = asyncio.run(keystrokes())
        rows = [[key, f"{median(t):.1f}", f"{p95(t):.1f}", len(t)] for key, t in presses.items() if t]
        print_table("Keystroke to render, Twilio tree (ms per key)", ["key", "median", "p95", "presses"], rows)


def first_frame() -> None:
    floor = cold_start(str(TWILIO), FLOOR_CHILD)
    rows = [["floor: bare Textual Tree of 1,447 nodes", f"{median(floor):.0f}", f"{p95(floor):.0f}", "1.0x"]]
    for label, catalog in (("built-in (68 ops)", ""), ("Twilio (1,447 ops), registry cached", str(TWILIO))):
        times = cold_start(catalog)
        rows.append([label, f"{median(times):.0f}", f"{p95(times):.0f}", f"{median(times) / median(floor):.2f}x"])
    print_table(f"Cold start to first frame (fresh interpreter, headless, ms, {COLD_RUNS} runs)", ["app", "median", "p95", "vs floor"], rows)


if __name__ == "__main__":
    main()
