"""The flows of issue 11 against Prism from the REPL, the explorer and `opgate serve`.

The CLI and the Gateway run them in test_prism_flows.py; here the same
Prism servers (and the same opgate.toml) are driven through the other front
ends: the REPL with real keystrokes (prompt_toolkit pipe input), the
explorer with a Textual pilot, and `opgate serve` with the official MCP SDK
client in a subprocess. Prism validates every request it receives against
the real document, and its log says whether anything was sent at all.

The petstore upstream is configured with ``Prefer: code=404`` so that its
fetch answers 404: the 404 flow needs no second configuration.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from http_testing import ACCOUNT_SID, AUTH_TOKEN
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from opgate.core import Gateway
from opgate.core.config import read_config
from opgate.tui import make_app
from opgate.tui.screens import ConfirmRunScreen, ExplorerScreen
from opgate.tui.widgets import FormSection, ResultView
from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "repl"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tui"))
from pilot_helpers import settle, wait_until
from repl_driver import ReplDriver

MESSAGE = {"AccountSid": ACCOUNT_SID, "To": "+15551234567", "Body": "hello from opgate"}
FETCH = {"AccountSid": ACCOUNT_SID, "Sid": "SM" + "b" * 32}
PET = {"body": {"name": "Rex", "tag": "dog"}}
UNPROCESSABLE = {"Prefer": "code=422"}
LIST = {"AccountSid": ACCOUNT_SID, "To": "+15551234567", "PageSize": 2}
NOT_FOUND = {"Prefer": "code=404"}


def counts(prism_servers) -> dict[str, int]:
    return {name: server.requests_received() for name, server in prism_servers.items()}


@pytest.fixture
def make_gateway(prism_config, tmp_path):
    gateways: list[Gateway] = []

    def make(pets_headers: dict[str, str] | None = None, **options: Any) -> Gateway:
        config = read_config(prism_config(NOT_FOUND if pets_headers is None else pets_headers))
        gateway = Gateway.from_catalogs([], config=config, db_path=tmp_path / f"g{len(gateways)}.db", call_log=False, **options)
        gateways.append(gateway)
        return gateway

    yield make
    for gateway in gateways:
        gateway.close()


# -- the REPL -------------------------------------------------------------------


def test_the_flows_from_the_repl(prism_servers, make_gateway, tmp_path):
    gateway = make_gateway()
    with ReplDriver(gateway, tmp_path / "history") as repl:
        repl.wait_for_prompt()
        # A dry-run shows the request and sends nothing.
        before = counts(prism_servers)
        repl.type(f"dry twilio.message.create {json.dumps(MESSAGE)}")
        repl.enter_and_wait_for("preview: nothing was sent")
        repl.wait_for_prompt()
        assert "Messages.json" in repl.output and "To=%2B15551234567" in repl.output
        assert counts(prism_servers) == before
        # A missing required field is refused before anything is sent.
        without_to = {k: v for k, v in MESSAGE.items() if k != "To"}
        repl.type(f"exec twilio.message.create {json.dumps(without_to)}")
        repl.enter_and_wait_for("args.To")
        repl.wait_for_prompt()
        assert counts(prism_servers) == before
        # Writes are off: the message is refused; on, it is sent (form body, basic auth).
        repl.type(f"exec twilio.message.create {json.dumps(MESSAGE)}")
        repl.enter_and_wait_for("PERMISSION_DENIED")
        repl.wait_for_prompt()
        assert counts(prism_servers) == before
        repl.type("set writes on")
        repl.enter_and_wait_for("writes on")
        repl.wait_for_prompt()
        repl.type(f"exec twilio.message.create {json.dumps(MESSAGE)}")
        repl.enter_and_wait_for('"status": "queued"')
        repl.wait_for_prompt()
        assert "HTTP 201" in repl.output
        assert counts(prism_servers)["twilio"] == before["twilio"] + 1
        # A fetch by path parameters.
        repl.type("exec twilio.message.fetch " + " ".join(f"{k}={v}" for k, v in FETCH.items()))
        repl.enter_and_wait_for("ok  twilio.message.fetch  HTTP 200")
        repl.wait_for_prompt()
        # A list with query parameters, typed as key=value words.
        repl.type("exec twilio.message.list " + " ".join(f"{k}={v}" for k, v in LIST.items()))
        repl.enter_and_wait_for("ok  twilio.message.list  HTTP 200")
        repl.wait_for_prompt()
        # A 404 is a clear envelope.
        repl.type("exec pets.pet_by_id.find id=7")
        repl.enter_and_wait_for("NOT_FOUND")
        repl.wait_for_prompt()
        assert "GET /pets/{id} answered 404" in repl.output
        assert AUTH_TOKEN not in repl.output
        assert repl.quit() == 0


@pytest.mark.parametrize(("pets_headers", "shown"), [({}, "ok  pets.pet.add  HTTP 200"), (UNPROCESSABLE, "VALIDATION_ERROR")])
def test_a_json_body_create_and_a_422_from_the_repl(prism_servers, make_gateway, tmp_path, pets_headers, shown):
    gateway = make_gateway(pets_headers, allow_write=True)
    with ReplDriver(gateway, tmp_path / "history") as repl:
        repl.wait_for_prompt()
        before = counts(prism_servers)["pets"]
        repl.type(f"exec pets.pet.add {json.dumps(PET)}")
        repl.enter_and_wait_for(shown)
        repl.wait_for_prompt()
        assert counts(prism_servers)["pets"] == before + 1
        if pets_headers:
            assert "422" in repl.output
        assert repl.quit() == 0


# -- the explorer ---------------------------------------------------------------


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def shown(screen) -> dict[str, Any]:
    return screen.query_one(ResultView).envelope or {}


def http_text(screen) -> str:
    """What the result's HTTP part shows (its heading and its text), as a person reads it."""
    console = Console(width=200, color_system=None, record=True)
    console.print(screen.query_one("#http-heading").content)
    console.print(screen.query_one("#result-http").content)
    return console.export_text()


@pytest.mark.anyio
async def test_the_flows_from_the_explorer(prism_servers, make_gateway):
    gateway = make_gateway(allow_write=True)
    app = make_app(gateway, "opgate.toml")
    messages: list = []
    async with app.run_test(size=(150, 45), message_hook=messages.append) as pilot:
        await settle(pilot)
        screen = app.screen
        # F5 shows the request and Prism logs nothing.
        before = counts(prism_servers)
        await screen.open_op("twilio.message.create", MESSAGE)
        await settle(pilot)
        sections = list(screen.query(FormSection))
        assert [(s.section.name, s.border_title) for s in sections] == [("path", "path parameters"), ("body", "body")]
        assert sections[1].section.args[0] == "To"  # required first
        await pilot.press("f5")
        await wait_until(pilot, lambda: shown(screen).get("meta", {}).get("dry_run_kind") == "preview")
        preview = shown(screen)["meta"]["preview"]
        assert preview["method"] == "POST" and preview["body"] == "To=%2B15551234567&Body=hello+from+opgate"
        assert preview["headers"]["authorization"] == "***"
        request = http_text(screen)
        assert "Request (not sent)" in request and f"POST {prism_servers['twilio'].url}/2010-04-01/Accounts/{ACCOUNT_SID}/Messages.json" in request
        assert "authorization: ***" in request and "To=%2B15551234567&Body=hello+from+opgate" in request
        assert counts(prism_servers) == before
        # F6 (writes on) shows what will be sent, then sends it: the result has the status and the body.
        await pilot.press("f6")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmRunScreen) or (shown(screen).get("ok") and not shown(screen)["meta"].get("dry_run")))
        if isinstance(app.screen, ConfirmRunScreen):
            await pilot.press("y")
        await wait_until(pilot, lambda: shown(screen).get("ok") and not shown(screen)["meta"].get("dry_run"), timeout=15)
        envelope = shown(screen)
        assert envelope["meta"]["http"]["status"] == 201 and envelope["result"]["status"] == "queued"
        assert counts(prism_servers)["twilio"] == before["twilio"] + 1
        response = http_text(screen)
        assert "Response" in response and "HTTP 201 Created" in response and "content-type: application/json" in response and '"status": "queued"' in response
        # A missing required field is refused before anything is sent.
        sent_so_far = counts(prism_servers)
        await screen.open_op("twilio.message.create", {k: v for k, v in MESSAGE.items() if k != "To"})
        await settle(pilot)
        calls = len([m for m in messages if isinstance(m, ExplorerScreen.CallDone)])
        await pilot.press("f6")
        await wait_until(pilot, lambda: len([m for m in messages if isinstance(m, ExplorerScreen.CallDone)]) > calls, timeout=15)
        assert shown(screen)["error"]["code"] == "VALIDATION_ERROR", shown(screen)
        assert any(e["field"] == "args.To" for e in shown(screen)["error"]["details"]["field_errors"])
        assert counts(prism_servers) == sent_so_far
        # A fetch by path parameters.
        await screen.open_op("twilio.message.fetch", FETCH)
        await settle(pilot)
        calls = len([m for m in messages if isinstance(m, ExplorerScreen.CallDone)])
        await pilot.press("f6")
        await wait_until(pilot, lambda: len([m for m in messages if isinstance(m, ExplorerScreen.CallDone)]) > calls, timeout=15)
        assert shown(screen)["ok"] and shown(screen)["result"]["sid"].startswith("SM"), shown(screen)
        # A read with query parameters.
        await screen.open_op("twilio.message.list", LIST)
        await settle(pilot)
        calls = len([m for m in messages if isinstance(m, ExplorerScreen.CallDone)])
        await pilot.press("f6")
        await wait_until(pilot, lambda: len([m for m in messages if isinstance(m, ExplorerScreen.CallDone)]) > calls, timeout=15)
        assert isinstance(shown(screen)["result"]["messages"], list), shown(screen)
        # A 404 comes back as a clear envelope.
        await screen.open_op("pets.pet_by_id.find", {"id": 7})
        await settle(pilot)
        calls = len([m for m in messages if isinstance(m, ExplorerScreen.CallDone)])
        await pilot.press("f6")
        await wait_until(pilot, lambda: len([m for m in messages if isinstance(m, ExplorerScreen.CallDone)]) > calls, timeout=15)
        assert shown(screen)["error"]["code"] == "NOT_FOUND"
        assert "HTTP 404" in http_text(screen)
        assert [s.section.name for s in screen.query(FormSection)] == ["path"]


@pytest.mark.anyio
@pytest.mark.parametrize(("pets_headers", "status"), [({}, 200), (UNPROCESSABLE, 422)])
async def test_a_json_body_create_and_a_422_from_the_explorer(prism_servers, make_gateway, pets_headers, status):
    gateway = make_gateway(pets_headers, allow_write=True)
    app = make_app(gateway, "opgate.toml")
    messages: list = []
    async with app.run_test(size=(150, 45), message_hook=messages.append) as pilot:
        await settle(pilot)
        screen = app.screen
        await screen.open_op("pets.pet.add", PET)
        await settle(pilot)
        await pilot.press("f6")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmRunScreen) or [m for m in messages if isinstance(m, ExplorerScreen.CallDone) and not m.envelope.get("meta", {}).get("dry_run")])
        if isinstance(app.screen, ConfirmRunScreen):
            await pilot.press("y")
        await wait_until(pilot, lambda: [m for m in messages if isinstance(m, ExplorerScreen.CallDone) and not (m.envelope.get("meta") or {}).get("dry_run")], timeout=15)
        envelope = shown(screen)
        if status == 200:
            assert envelope["ok"] and envelope["meta"]["http"]["status"] == 200 and "id" in envelope["result"], envelope
        else:
            assert envelope["error"]["code"] == "VALIDATION_ERROR" and envelope["error"]["details"]["status"] == 422, envelope
        assert f"HTTP {status}" in http_text(screen)


# -- opgate serve -----------------------------------------------------------------


def serve(config: Path, db: Path) -> StdioServerParameters:
    argv = ["-m", "opgate", "--config", str(config), "--db", str(db), "serve", "--allow-write"]
    env = {name: os.environ[name] for name in ("PYTHONPATH", "OPGATE_TREE", "TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN") if name in os.environ}
    return StdioServerParameters(command=sys.executable, args=argv, env=env)


async def exec_(client: Client, op: str, args: dict[str, Any], **options: Any) -> dict[str, Any]:
    result = await client.call_tool("exec", {"op": op, "args": args, **options})
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


@pytest.mark.anyio
async def test_the_flows_from_serve_with_the_mcp_sdk_client(prism_servers, prism_config, tmp_path):
    config = prism_config(NOT_FOUND)
    async with Client(serve(config, tmp_path / "serve.db"), mode="legacy", read_timeout_seconds=60) as client:
        before = counts(prism_servers)
        dry = await exec_(client, "twilio.message.create", MESSAGE, dry_run=True)
        assert dry["ok"] and dry["meta"]["dry_run_kind"] == "preview", dry
        assert dry["meta"]["preview"]["method"] == "POST" and dry["meta"]["preview"]["headers"]["authorization"] == "***"
        refused = await exec_(client, "twilio.message.create", {k: v for k, v in MESSAGE.items() if k != "To"})
        assert refused["error"]["code"] == "VALIDATION_ERROR"
        assert any(e["field"] == "args.To" for e in refused["error"]["details"]["field_errors"])
        assert counts(prism_servers) == before
        sent = await exec_(client, "twilio.message.create", MESSAGE)
        assert sent["ok"] and sent["meta"]["http"]["status"] == 201 and sent["result"]["sid"].startswith("SM"), sent
        assert counts(prism_servers)["twilio"] == before["twilio"] + 1
        listed = await exec_(client, "twilio.message.list", LIST)
        assert listed["ok"] and isinstance(listed["result"]["messages"], list), listed
        assert listed["meta"]["pagination"]["next_args"]["AccountSid"] == ACCOUNT_SID
        fetched = await exec_(client, "twilio.message.fetch", FETCH)
        assert fetched["ok"] and fetched["result"]["sid"].startswith("SM"), fetched
        missing = await exec_(client, "pets.pet_by_id.find", {"id": 7})
        assert missing["error"]["code"] == "NOT_FOUND" and missing["error"]["details"]["status"] == 404, missing
        assert AUTH_TOKEN not in json.dumps([dry, refused, sent, listed, fetched, missing])
    # A JSON-body create on the petstore, then the same call answered 422.
    for pets_headers, status in (({}, 200), (UNPROCESSABLE, 422)):
        async with Client(serve(prism_config(pets_headers), tmp_path / "serve.db"), mode="legacy", read_timeout_seconds=60) as client:
            created = await exec_(client, "pets.pet.add", PET)
            if status == 200:
                assert created["ok"] and "id" in created["result"], created
            else:
                assert created["error"]["code"] == "VALIDATION_ERROR" and created["error"]["details"]["status"] == 422, created
