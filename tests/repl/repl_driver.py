"""Driving the interactive REPL with real keystrokes: prompt_toolkit's pipe input and a dummy output.

The REPL runs in a thread inside its own app session; the test types into
the pipe and waits on what the running prompt shows (its buffer, its
completion menu) before the next key, as a person would.
"""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from opgate.core import Gateway
from opgate.repl import run_repl

TAB, ENTER, CTRL_C, CTRL_D, RIGHT = "\t", "\r", "\x03", "\x04", "\x1b[C"
TIMEOUT = 10.0


def wait_for(condition, what: str, timeout: float = TIMEOUT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


class ReplDriver:
    def __init__(self, gateway: Gateway, history_path: Path, width: int = 140):
        self.gateway = gateway
        self.width = width
        self.history_path = history_path
        self._out = io.StringIO()
        self.status: int | None = None
        self.error: BaseException | None = None

    def __enter__(self) -> ReplDriver:
        self._pipe_context = create_pipe_input()
        self.pipe = self._pipe_context.__enter__()
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._started.wait(TIMEOUT)
        return self

    def _run(self) -> None:
        try:
            with create_app_session(input=self.pipe, output=DummyOutput()) as session:
                self.app_session = session
                self._started.set()
                console = Console(file=self._out, width=self.width, color_system=None)
                self.status = run_repl(self.gateway, console=console, interactive=True, history_path=self.history_path)
        except BaseException as exc:  # surfaced by the test through .error
            self.error = exc
            self._started.set()

    def __exit__(self, *exc_info) -> None:
        if self._thread.is_alive():
            self.pipe.send_text(CTRL_D)
        self._thread.join(TIMEOUT)
        self._pipe_context.__exit__(*exc_info)

    # -- looking -----------------------------------------------------------------

    @property
    def buffer(self):
        app = getattr(self, "app_session", None) and self.app_session.app
        return app.current_buffer if app is not None else None

    @property
    def text(self) -> str | None:
        return self.buffer.text if self.buffer is not None else None

    @property
    def output(self) -> str:
        return self._out.getvalue()

    # -- doing -------------------------------------------------------------------

    def type(self, text: str) -> None:
        """Type ``text`` at the prompt and wait until the prompt shows it."""
        before = self.text or ""
        self.pipe.send_text(text)
        wait_for(lambda: self.text == before + text, f"the buffer to read {before + text!r} (it reads {self.text!r})")

    def completions(self) -> list:
        """Wait for the completion menu while typing and answer what it offers."""
        return wait_for(lambda: self.buffer and self.buffer.complete_state and list(self.buffer.complete_state.completions), "completions")

    def tab_until(self, expected: str) -> None:
        self.completions()
        self.pipe.send_text(TAB)
        wait_for(lambda: self.text == expected, f"Tab to give {expected!r} (got {self.text!r})")

    def press(self, keys: str) -> None:
        self.pipe.send_text(keys)

    def enter_and_wait_for(self, shown: str) -> None:
        self.pipe.send_text(ENTER)
        wait_for(lambda: shown in self.output, f"{shown!r} in the output:\n{self.output}")

    def wait_for_prompt(self) -> None:
        """Wait for a fresh, empty prompt (the previous line has finished running)."""
        wait_for(lambda: self.text == "" and self.app_session.app.is_running, "an empty prompt")

    def quit(self) -> int | None:
        """Leave with Ctrl-D (after Ctrl-C, since Ctrl-D only leaves from an empty line)."""
        self.pipe.send_text(CTRL_C)
        self.wait_for_prompt()
        self.pipe.send_text(CTRL_D)
        self._thread.join(TIMEOUT)
        assert not self._thread.is_alive(), "Ctrl-D did not end the REPL"
        if self.error:
            raise self.error
        return self.status
