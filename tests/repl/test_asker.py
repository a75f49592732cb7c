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


def test_a_multiple_choice_takes_values_or_titles_separated_by_commas():
    question = Question(op="x.y.z", upstream="x", message="Fish?", schema={"type": "object", "properties": {
        "fish": {"type": "array", "minItems": 1, "items": {"anyOf": [{"const": "fish-1", "title": "Tuna"}, {"const": "fish-2", "title": "Salmon"}]}},
    }, "required": ["fish"]})
    prompts = []
    answers = ["Cod", "tuna, fish-2"]

    def ask(message, completer=None):
        prompts.append(message)
        return answers.pop(0)

    out = io.StringIO()
    answer = answering_asker(Console(file=out, width=100, color_system=None), ask)(question)
    assert answer == {"fish": ["fish-1", "fish-2"]}
    assert "fish-1 Tuna" in prompts[0] and "several" in prompts[0]
    assert "one of fish-1 (Tuna), fish-2 (Salmon)" in out.getvalue()
