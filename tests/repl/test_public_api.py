"""opgate.repl exports what it means to, and the CLI reaches it through run_repl."""

from __future__ import annotations

import inspect

import opgate.repl


def test_the_exports_are_deliberate():
    assert sorted(opgate.repl.__all__) == ["Namespace", "default_history_path", "run_repl", "suggest"]
    for name in opgate.repl.__all__:
        assert getattr(opgate.repl, name).__doc__


def test_run_repl_takes_the_gateway_first_and_everything_else_by_keyword():
    parameters = list(inspect.signature(opgate.repl.run_repl).parameters.values())
    assert parameters[0].name == "gateway"
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters[1:])


def test_the_history_file_can_be_moved_for_tests(monkeypatch, tmp_path):
    monkeypatch.setenv("OPGATE_REPL_HISTORY", str(tmp_path / "h"))
    assert opgate.repl.default_history_path() == tmp_path / "h"
    monkeypatch.delenv("OPGATE_REPL_HISTORY")
    assert opgate.repl.default_history_path().name == "repl_history"
