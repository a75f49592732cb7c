"""The REPL puts an upstream's question to the person field by field, and declines on Ctrl-C."""

from __future__ import annotations

import io

from rich.console import Console

from opgate.core.exec import Question
from opgate.repl._prompts import answering_asker

QUESTION = Question(
    op="everything.elicitation.start", upstream="everything", message="How many [red]apples[/red]?",
    schema={"type": "object", "properties": {"count": {"type": "integer", "minimum": 1}, "note": {"type": "string"}, "ok": {"type": "boolean"}}, "required": ["count"]},
)


def scripted(*answers):
    queue = list(answers)
    return lambda message, completer=None: queue.pop(0) if queue else None


def run(*answers):
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    return answering_asker(console, scripted(*answers))(QUESTION), out.getvalue()


def test_typed_answers_with_a_retry_after_a_wrong_type():
    answer, shown = run("many", "3", "", "yes")
    assert answer == {"count": 3, "ok": True}
    assert "How many [red]apples[/red]?" in shown, "the upstream's text is printed as it is"
    assert "whole number" in shown


def test_ctrl_c_declines_and_an_answer_out_of_range_declines():
    assert run(None)[0] is None
    answer, shown = run("0", "", "")
    assert answer is None and "minimum" in shown
