"""A call that takes a while: the explorer says it is running until its answer comes."""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import settle, wait_until

from opgate.core import Gateway
from opgate.core.catalog._scaffold import scaffold_tool_folder
from opgate.tui import make_app
from opgate.tui.widgets import GatewayBar, ResultView

pytestmark = pytest.mark.anyio

# A tool that answers once the file it names exists: the test decides when the call ends.
WAITING_HANDLER = '''
import time
from pathlib import Path


def execute(context):
    release = Path(context.args["text"])
    while not release.exists():
        time.sleep(0.02)
    return {"ok": True, "data": {"released": True}}
'''


@pytest.fixture
def waiting_gateway(tmp_path: Path):
    folder = scaffold_tool_folder("wait-for-file", tmp_path / "tools")
    (folder / "handler.py").write_text(WAITING_HANDLER, encoding="utf-8")
    gw = Gateway.from_catalogs([tmp_path / "tools"], db_path=tmp_path / "w.db", cache=False)
    yield gw
    gw.close()


def bar_text(app) -> str:
    bar = app.screen.query_one(GatewayBar)
    return " ".join(str(label.render()) for label in bar.children)


async def test_the_top_bar_says_which_call_is_running_until_it_answers(waiting_gateway, tmp_path: Path):
    app = make_app(waiting_gateway, "tools")
    release = tmp_path / "release"
    op = next(iter(waiting_gateway.registry)).op
    async with app.run_test(size=(80, 24)) as pilot:
        await app.screen.open_op(op, {"text": str(release)})
        await settle(pilot)
        await pilot.press("f6")
        try:
            await wait_until(pilot, lambda: "running" in bar_text(app))
            assert op in bar_text(app)
        finally:
            release.touch()
        await wait_until(pilot, lambda: app.screen.query_one(ResultView).envelope is not None)
        await settle(pilot)
        assert app.screen.query_one(ResultView).envelope["ok"]
        assert "running" not in bar_text(app)
