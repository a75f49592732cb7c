"""The flows of issue 11 against Prism, which checks every request against the real document.

Whatever opgate sends is validated by a tool nobody here wrote: a request
that does not match the document gets a 422 from Prism, and would fail
these tests. Each flow runs from the CLI and from the Gateway.
"""

from __future__ import annotations

import json

import pytest
from http_testing import ACCOUNT_SID, AUTH_TOKEN
from opgate.core import Gateway
from opgate.core._record import replace
from opgate.core.config import read_config
from opgate.core.modes import ToolRouter
from opgate.core.registry import exported_op_name

from opgate.cli import main

MESSAGE = {"AccountSid": ACCOUNT_SID, "To": "+15551234567", "Body": "hello from opgate"}
MESSAGE_SID = "SM" + "b" * 32


def cli(capsys, config, *words) -> tuple[int, dict]:
    code = main(["--config", str(config), "--db", str(config.parent / "w.db"), *words, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


@pytest.fixture
def gateway(prism_config, tmp_path):
    config = read_config(prism_config())
    gateway = Gateway.from_catalogs([], config=config, db_path=tmp_path / "g.db", allow_write=True, call_log=False)
    yield gateway
    gateway.close()


def test_send_a_message_form_body_basic_auth_from_the_cli(prism_servers, prism_config, capsys):
    before = prism_servers["twilio"].requests_received()
    code, envelope = cli(capsys, prism_config(), "exec", "twilio.message.create", *(f"{k}={v}" for k, v in MESSAGE.items()), "--allow-write")
    assert code == 0, envelope
    assert envelope["result"]["sid"].startswith("SM") and envelope["meta"]["http"]["status"] == 201
    assert prism_servers["twilio"].requests_received() == before + 1
    assert AUTH_TOKEN not in json.dumps(envelope)


def test_send_a_message_from_the_gateway(gateway):
    envelope = gateway.exec("twilio.message.create", MESSAGE)
    assert envelope["ok"], envelope
    assert envelope["result"]["status"] == "queued"


def test_fetch_by_path_parameters(gateway, prism_config, capsys):
    envelope = gateway.exec("twilio.message.fetch", {"AccountSid": ACCOUNT_SID, "Sid": MESSAGE_SID})
    assert envelope["ok"], envelope
    assert envelope["result"]["sid"].startswith("SM")
    code, from_cli = cli(capsys, prism_config(), "exec", "twilio.message.fetch", f"AccountSid={ACCOUNT_SID}", f"Sid={MESSAGE_SID}")
    assert code == 0 and from_cli["result"]["sid"].startswith("SM")


def test_a_list_with_query_parameters_surfaces_the_next_page(gateway, prism_config, capsys):
    args = {"AccountSid": ACCOUNT_SID, "To": "+15551234567", "PageSize": 2, "DateSent_before": "2024-01-02T00:00:00Z"}
    envelope = gateway.exec("twilio.message.list", args)
    assert envelope["ok"], envelope
    assert isinstance(envelope["result"]["messages"], list)
    page = envelope["meta"]["pagination"]
    assert page["next"] and page["next_args"]["AccountSid"] == ACCOUNT_SID
    # Prism's next page comes from the document's example, whose DateSent is not the date-time the schema asks for.
    assert isinstance(page["next_args"]["PageSize"], int) and page["next_args"]["PageToken"]
    code, from_cli = cli(capsys, prism_config(), "exec", "twilio.message.list", f"AccountSid={ACCOUNT_SID}", "PageSize=2")
    assert code == 0 and "messages" in from_cli["result"]


def test_a_json_body_create_on_the_petstore(gateway, prism_config, capsys):
    envelope = gateway.exec("pets.pet.add", {"body": {"name": "Rex", "tag": "dog"}})
    assert envelope["ok"], envelope
    assert "id" in envelope["result"] and envelope["meta"]["http"]["status"] == 200
    code, from_cli = cli(capsys, prism_config(), "exec", "pets.pet.add", 'body={"name": "Rex"}', "--allow-write")
    assert code == 0, from_cli


def test_a_404_is_a_clear_not_found(prism_config, capsys):
    code, envelope = cli(capsys, prism_config({"Prefer": "code=404"}), "exec", "pets.pet_by_id.find", "id=7")
    assert code == 1
    error = envelope["error"]
    assert error["code"] == "NOT_FOUND" and error["details"]["status"] == 404
    assert "GET /pets/{id} answered 404" in error["message"] and "body" in error["details"]["http"]


def test_a_422_is_a_clear_validation_error(prism_config, capsys):
    code, envelope = cli(capsys, prism_config({"Prefer": "code=422"}), "exec", "pets.pet.add", 'body={"name": "Rex"}', "--allow-write")
    assert code == 1
    assert envelope["error"]["code"] == "VALIDATION_ERROR" and envelope["error"]["details"]["status"] == 422


def test_a_missing_required_field_is_refused_before_anything_is_sent(prism_servers, gateway, prism_config, capsys):
    before = {name: server.requests_received() for name, server in prism_servers.items()}
    without_to = {k: v for k, v in MESSAGE.items() if k != "To"}
    envelope = gateway.exec("twilio.message.create", without_to)
    assert envelope["error"]["code"] == "VALIDATION_ERROR"
    assert any(e["field"] == "args.To" for e in envelope["error"]["details"]["field_errors"])
    assert gateway.exec("pets.pet.add", {"body": {"tag": "dog"}})["error"]["code"] == "VALIDATION_ERROR"
    code, _ = cli(capsys, prism_config(), "exec", "twilio.message.create", f"AccountSid={ACCOUNT_SID}", "Body=hi", "--allow-write")
    assert code == 1
    assert {name: server.requests_received() for name, server in prism_servers.items()} == before


def test_a_dry_run_sends_nothing_and_shows_the_request(prism_servers, gateway, prism_config, capsys):
    before = prism_servers["twilio"].requests_received()
    envelope = gateway.exec("twilio.message.create", MESSAGE, dry_run=True)
    preview = envelope["meta"]["preview"]
    assert envelope["ok"] and envelope["meta"]["dry_run_kind"] == "preview"
    assert preview["method"] == "POST"
    assert preview["url"] == f"{prism_servers['twilio'].url}/2010-04-01/Accounts/{ACCOUNT_SID}/Messages.json"
    assert preview["body"] == "To=%2B15551234567&Body=hello+from+opgate"
    assert preview["headers"]["authorization"] == "***" and AUTH_TOKEN not in json.dumps(envelope)
    main(["--config", str(prism_config()), "--db", str(prism_config().parent / "w.db"), "exec", "twilio.message.create", *(f"{k}={v}" for k, v in MESSAGE.items()), "--curl"])
    curl = capsys.readouterr().out
    assert curl.startswith("curl -X POST") and '-u "$TWILIO_ACCOUNT_SID:$TWILIO_AUTH_TOKEN"' in curl and AUTH_TOKEN not in curl
    assert prism_servers["twilio"].requests_received() == before


def test_an_aliased_query_parameter_is_sent_under_its_own_name(prism_servers, gateway):
    envelope = gateway.exec("twilio.call.list", {"AccountSid": ACCOUNT_SID, "StartTime_before": "2024-01-02T00:00:00Z"}, dry_run=True)
    assert "StartTime%3C=2024-01-02T00%3A00%3A00Z" in envelope["meta"]["preview"]["url"]
    assert gateway.exec("twilio.call.list", {"AccountSid": ACCOUNT_SID, "StartTime_before": "2024-01-02T00:00:00Z"})["ok"]


def test_a_long_exported_name_runs_through_a_typed_tool_and_run_tool(prism_config, tmp_path):
    config = read_config(prism_config())
    long_name = replace(config.http_upstreams["twilio"], name="twilio_api_v2010")
    config = replace(config, http_upstreams={"twilio_api_v2010": long_name})
    gateway = Gateway.from_catalogs([], config=config, db_path=tmp_path / "g.db", call_log=False)
    long_ops = [op for op in gateway.registry.ops if len(exported_op_name(op)) == 64 and len(op.replace(".", "__")) > 64]
    record = next(gateway.registry.get(op) for op in long_ops if gateway.registry.get(op).kind == "read")
    router = ToolRouter(gateway)
    name = exported_op_name(record.op)
    typed = router.call(name, {})
    assert typed["op"] == record.op and typed["error"]["code"] == "VALIDATION_ERROR"  # found; its required args are missing
    generic = router.call("run_tool", {"name": name, "arguments": {}})
    assert generic["op"] == record.op
    ran = router.call("run_tool", {"name": name, "arguments": {"AccountSid": ACCOUNT_SID, **{a: "x" * 34 for a in record.required_args if a != "AccountSid"}}})
    assert ran["op"] == record.op
    gateway.close()
