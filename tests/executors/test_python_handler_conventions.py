"""Each result and error convention of a handler gives the right envelope, through real worker processes."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys

import pytest
from tool_folders import opgate, write_tool

from opgate.core.executors.python import ERROR_TYPES
from opgate.tool import ErrorType

CONVENTIONS = '''
import asyncio
from opgate.tool import ToolError

def execute(context):
    value = context.args.get("value", "")
    if value == "ok":
        return {"ok": True, "data": {"got": value}, "intents": [{"type": "END_VOICE_SESSION"}], "meta": {"responseSchemaVersion": "1.0.0"}}
    if value == "failure":
        return {"ok": False, "error": {"type": "SESSION_INACTIVE", "message": "the session already ended", "retryable": False}}
    if value.startswith("raise:"):
        raise ToolError(value[6:], f"raised {value[6:]}", partial_side_effects=True, details={"hint": "x"})
    if value == "field":
        raise ToolError("VALIDATION", "value must name a real thing", field="value")
    if value == "crash":
        secret = "hunter2"
        raise RuntimeError(f"database password {secret} rejected")
    if value == "set":
        return {"ok": True, "data": {1, 2}}
    if value == "nan":
        return {"ok": True, "data": float("nan")}
    if value == "plain":
        return ["no", "envelope"]
    if value == "exit":
        raise SystemExit(3)
    if value == "async":
        return answer_later()
    return {"ok": True, "data": {"args": context.args, "session": context.session, "meta": context.meta,
                                 "capabilities": context.capabilities, "dry_run": context.dry_run}}

async def answer_later():
    await asyncio.sleep(0.01)
    return {"ok": True, "data": "awaited"}
'''


@pytest.fixture
def gateway(tools, gateway_over):
    write_tool(tools, "conventions", CONVENTIONS)
    return gateway_over(tools)


OP = "tools.conventions"


def test_ok_true_gives_data_as_the_result_and_keeps_intents_and_meta(gateway):
    envelope = gateway.exec(OP, {"value": "ok"})
    assert envelope["ok"], envelope
    assert envelope["result"] == {"got": "ok"}
    assert envelope["meta"]["intents"] == [{"type": "END_VOICE_SESSION"}]
    assert envelope["meta"]["tool_meta"] == {"responseSchemaVersion": "1.0.0"}


def test_ok_false_is_an_error_envelope_with_the_original_type(gateway):
    envelope = gateway.exec(OP, {"value": "failure"})
    assert not envelope["ok"]
    error = envelope["error"]
    assert error["code"] == "CONFLICT" and error["message"] == "the session already ended"
    assert error["details"]["type"] == "SESSION_INACTIVE"
    assert "retryable" not in error["details"]


@pytest.mark.parametrize("kind", sorted(ERROR_TYPES))
def test_every_error_type_maps_to_its_code_and_default_retry(gateway, kind):
    code, retryable = ERROR_TYPES[kind]
    error = gateway.exec(OP, {"value": f"raise:{kind}"})["error"]
    assert error["code"] == code and error["message"] == f"raised {kind}"
    assert error["details"]["type"] == kind
    assert error["details"].get("retryable", False) is retryable
    assert error["details"]["partial_side_effects"] is True
    assert error["details"]["tool_details"] == {"hint": "x"}


def test_an_unknown_error_type_is_internal_and_keeps_its_type(gateway):
    error = gateway.exec(OP, {"value": "raise:WEIRD_THING"})["error"]
    assert error["code"] == "INTERNAL" and error["details"]["type"] == "WEIRD_THING"


def test_a_validation_error_names_the_field(gateway):
    error = gateway.exec(OP, {"value": "field"})["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert error["details"]["field_errors"][0]["field"] == "args.value"


class _Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def handler_log():
    """What the gateway logs about handlers, caught on the logger itself (the CLI's logging setup stops propagation)."""
    records = _Records()
    logger = logging.getLogger("opgate.handler")
    logger.addHandler(records)
    try:
        yield records.records
    finally:
        logger.removeHandler(records)


@pytest.mark.parametrize("value", ["crash", "exit"])
def test_anything_else_raised_is_internal_without_a_traceback(gateway, value, handler_log):
    envelope = gateway.exec(OP, {"value": value})
    assert envelope["error"]["code"] == "INTERNAL"
    text = json.dumps(envelope)
    assert "Traceback" not in text and "hunter2" not in text and "handler.py" not in text
    assert "the gateway's log has the details" in envelope["error"]["message"]
    # The traceback is in the gateway's log, as the record's exception: a log handler decides whether to print it.
    assert any("Traceback" in logging.Formatter().format(r) for r in handler_log)
    assert not any("Traceback" in r.getMessage() for r in handler_log)
    # The worker survived its handler's failure: the next call works.
    assert gateway.exec(OP, {"value": "ok"})["ok"]


@pytest.mark.parametrize("value", ["set", "nan"])
def test_a_result_json_cannot_carry_is_internal_with_a_clear_message(gateway, value):
    error = gateway.exec(OP, {"value": value})["error"]
    assert error["code"] == "INTERNAL"
    assert "JSON" in error["message"]


def test_a_return_value_that_follows_no_convention_is_internal(gateway):
    error = gateway.exec(OP, {"value": "plain"})["error"]
    assert error["code"] == "INTERNAL" and "'ok'" in error["message"]


def test_an_async_handler_is_awaited(gateway):
    envelope = gateway.exec(OP, {"value": "async"})
    assert envelope["ok"] and envelope["result"] == "awaited"


def test_the_context_carries_args_session_meta_and_capabilities(gateway):
    gateway.session.remember(project_id="p-1")
    envelope = gateway.exec(OP, {"value": "context"})
    result = envelope["result"]
    assert result["args"] == {"value": "context"}
    assert result["session"] == {"caller": "local", "ids": {"project_id": "p-1"}}
    assert result["meta"]["tool_id"] == "conventions" and result["meta"]["version"] == "1.2.3"
    assert result["meta"]["category"] == "utility" and result["meta"]["op"] == OP
    assert result["capabilities"] == {"writes": False, "dry_run": False}
    assert result["dry_run"] is False


def test_the_session_snapshot_is_read_only(tools, gateway_over):
    write_tool(tools, "mutator", '''
        def execute(context):
            try:
                context.session["caller"] = "someone else"
            except TypeError:
                return {"ok": True, "data": "refused"}
            return {"ok": True, "data": "changed"}
    ''')
    assert gateway_over(tools).exec("mutator", {})["result"] == "refused"


def test_error_type_names_for_authors_match_the_table():
    names = {value for key, value in vars(ErrorType).items() if key.isupper()}
    assert names == set(ERROR_TYPES)


def test_a_handler_that_cannot_be_imported_is_internal_and_says_so(tools, gateway_over):
    write_tool(tools, "broken-import", '''
        import a_module_that_does_not_exist

        def execute(context):
            return {"ok": True, "data": None}
    ''')
    error = gateway_over(tools).exec("broken_import", {})["error"]
    assert error["code"] == "INTERNAL"
    assert "could not be loaded" in error["message"] and "ModuleNotFoundError" in error["message"]


def test_arguments_json_cannot_carry_are_refused_before_anything_runs(tools, gateway_over, tmp_path):
    marker = tmp_path / "called"
    write_tool(tools, "open-args", f"def execute(context):\n    open({str(marker)!r}, 'w')\n    return {{'ok': True}}\n",
               parameters={"type": "object", "additionalProperties": False, "properties": {"anything": {}}})
    error = gateway_over(tools).exec("open_args", {"anything": {1, 2}})["error"]
    assert error["code"] == "VALIDATION_ERROR" and "JSON" in error["message"]
    assert not marker.exists()


def test_a_handler_bug_is_one_line_at_the_terminal_and_its_traceback_only_when_asked(tools):
    """The CLI and the REPL printed the handler's whole traceback on stderr: it travelled in the log message itself."""
    write_tool(tools, "conventions", CONVENTIONS)
    ran = opgate("--catalog", str(tools), "exec", OP, "value=crash", "--db", str(tools / "w.db"))
    assert ran.returncode == 1 and "INTERNAL" in ran.stdout
    assert "Traceback" not in ran.stderr, ran.stderr
    line = ran.stderr.strip()
    assert "\n" not in line and "RuntimeError: database password" in line and "handler.py line" in line, line
    script = "exec tools.conventions value=crash\n"
    repl = subprocess.run([sys.executable, "-m", "opgate", "--catalog", str(tools), "--db", str(tools / "w.db"), "repl"], input=script, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in repl.stdout + repl.stderr and "INTERNAL" in repl.stdout + repl.stderr
    debug = subprocess.run([sys.executable, "-m", "opgate", "--catalog", str(tools), "--db", str(tools / "w.db"), "exec", OP, "value=crash"], capture_output=True, text=True, timeout=120, env={**os.environ, "OPGATE_DEBUG": "1"})
    assert "Traceback" in debug.stderr and 'handler.py", line' in debug.stderr


DEFAULTS = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "priority": {"type": "string", "enum": ["low", "normal", "high"], "default": "normal"},
        "tags": {"type": "array", "items": {"type": "string"}, "default": ["inbox"]},
        "note": {"type": "string"},
    },
}


def test_a_handler_gets_the_defaults_help_promised(tools, gateway_over):
    """Help shows ``priority`` defaulting to "normal", so a model leaves it out: the handler once got no key at all."""
    write_tool(tools, "defaults", "def execute(context):\n    return {'ok': True, 'data': dict(context.args)}\n", parameters=DEFAULTS, **{"category": "action", "sideEffects": "writes", "idempotent": False})
    gateway = gateway_over(tools, allow_write=True)
    assert [a.get("default") for a in gateway.help("tools.defaults")["args"]] == ["normal", ["inbox"], None]
    assert gateway.exec("tools.defaults", {})["result"] == {"priority": "normal", "tags": ["inbox"]}
    assert gateway.exec("tools.defaults", {"priority": "high", "note": "x"})["result"] == {"priority": "high", "tags": ["inbox"], "note": "x"}
    preview = gateway.exec("tools.defaults", {"note": "x"}, dry_run=True)["meta"]["preview"]
    assert preview["args"] == {"note": "x", "priority": "normal", "tags": ["inbox"]}  # the preview shows what the handler would get
