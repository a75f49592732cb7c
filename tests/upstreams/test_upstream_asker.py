"""The terminal asker of `opgate exec`: each field in turn on stderr/stdin; no terminal, no asker."""

from __future__ import annotations

import io

from opgate.cli._asker import ask, terminal_asker
from opgate.core.exec import Question

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name"},
        "check": {"type": "boolean"},
        "count": {"type": "integer", "default": 42},
        "colour": {"type": "string", "enum": ["red", "blue"]},
    },
    "required": ["name"],
}
QUESTION = Question("everything.elicitation_request.trigger", "everything", "Please provide inputs [bold]now[/]", SCHEMA)


def test_each_field_is_asked_typed_and_retried_when_wrong():
    stderr = io.StringIO()
    answers = ask(QUESTION, io.StringIO("Ada\nmaybe\nyes\n\ngreen\nblue\n"), stderr)
    assert answers == {"name": "Ada", "check": True, "count": 42, "colour": "blue"}
    shown = stderr.getvalue()
    assert "Please provide inputs [bold]now[/]" in shown and "answer yes or no" in shown and "choose one of: red, blue" in shown


def test_an_empty_required_field_or_the_end_of_input_declines():
    assert ask(QUESTION, io.StringIO("\n"), io.StringIO()) is None
    assert ask(QUESTION, io.StringIO("Ada\n"), io.StringIO()) is None


def test_no_terminal_means_no_asker():
    assert terminal_asker(io.StringIO(), io.StringIO()) is None
