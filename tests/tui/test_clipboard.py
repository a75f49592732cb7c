"""Copy says what happened: a local tool, OSC 52 to a terminal known to pass it on, or an honest maybe."""

from __future__ import annotations

import pytest

from opgate.tui._clipboard import copy_text


class Terminal:
    """Stands in for the app's terminal side only: it records the OSC 52 text it was handed."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def call_from_thread(self, fn, *args):
        return fn(*args)

    def copy_to_clipboard(self, text: str) -> None:
        self.sent.append(text)


@pytest.fixture
def bare_env(monkeypatch):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX", "TERM_PROGRAM", "WT_SESSION"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setattr("sys.platform", "linux")
    return monkeypatch


def test_an_unknown_terminal_gets_a_maybe_not_a_claim(bare_env):
    terminal = Terminal()
    copied, how = copy_text(terminal, "opgate exec x")
    assert not copied and "OSC 52" in how and terminal.sent == ["opgate exec x"]


def test_a_terminal_known_for_osc52_is_reported_as_copied(bare_env):
    bare_env.setenv("TERM_PROGRAM", "WezTerm")
    copied, how = copy_text(Terminal(), "x")
    assert copied and how.startswith("Copied")
