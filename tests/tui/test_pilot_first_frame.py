"""The first frame: what it imports, and keys pressed before the rest of the explorer's code is loaded.

Each check runs the explorer in a fresh interpreter: in this process the tests
have imported every widget already, so nothing would be left to defer.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

# Loaded after the first frame (the Build and Result panes' code in a thread, the modals when first opened).
DEFERRED = (
    "opgate.tui.widgets.call_builder", "opgate.tui.widgets.call_form", "opgate.tui.widgets.form_field",
    "opgate.tui.widgets.json_editor", "opgate.tui.widgets.result_view", "opgate.tui.forms",
    "opgate.tui.screens.confirm_run", "opgate.tui.screens.history", "opgate.tui.screens.jump",
    "opgate.tui.screens.run_report", "opgate.tui.screens.elicit", "opgate.tui._calltext",
    "jsonschema", "pygments", "textual.widgets._text_area",
)

CHILD = """
import asyncio, json, sys
from opgate.core import Gateway
from opgate.tui import make_app

DEFERRED = json.loads(sys.argv[2])
seen = {}

async def main():
    gw = Gateway(db_path=sys.argv[1])
    app = make_app(gw)
    display = app._display

    def drawn(screen, renderable):
        if renderable is not None and not app._batch_count and "at_first_frame" not in seen:
            seen["at_first_frame"] = [m for m in DEFERRED if m in sys.modules]
        display(screen, renderable)

    app._display = drawn
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f3")  # at once: the Build pane's code is not loaded yet
        await pilot.pause()
        seen["tab"] = app.screen.query_one("#tabs").active
        seen["opened"] = await app.screen.open_op("onto.task.create")
        seen["building"] = app.screen.builder.record.op
        await pilot.pause()
        seen["focused_in_form"] = app.focused is not None and any(w.id == "form" for w in app.focused.ancestors)
    seen["after"] = [m for m in DEFERRED if m in sys.modules]
    gw.close()

asyncio.run(main())
print(json.dumps(seen))
"""


def run_child(tmp_path: Path) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "w.db"), json.dumps(DEFERRED)], capture_output=True, text=True, timeout=180,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_first_frame_loads_only_what_it_draws_and_early_keys_still_work(tmp_path):
    seen = run_child(tmp_path)
    assert seen["at_first_frame"] == []
    # F3 pressed before the first frame waited for the pane's code, then showed the Build tab.
    assert seen["tab"] == "build"
    assert seen["opened"] is True and seen["building"] == "onto.task.create" and seen["focused_in_form"]
    # Opening an op loaded the form and the validator; the modals still wait to be opened.
    assert {"opgate.tui.widgets.call_builder", "opgate.tui.widgets.call_form", "jsonschema"} <= set(seen["after"])
    assert "opgate.tui.screens.history" not in seen["after"]
