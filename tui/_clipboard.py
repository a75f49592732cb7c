"""Copy text and say honestly what happened: OSC 52 is a request to the terminal that nobody acknowledges.

A local clipboard tool (wl-copy, xclip, xsel, pbcopy) gives a real answer
when one is installed and a display is there; otherwise the text goes out
as OSC 52 and the message says whether the terminal is known to pass it on.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from typing import Any

TOOL_TIMEOUT_S = 2
# Terminals known to put OSC 52 on the system clipboard by default (TERM_PROGRAM, TERM or a marker variable).
OSC52_TERMINALS = ("iTerm.app", "WezTerm", "ghostty", "kitty", "alacritty", "foot", "contour", "rio")


def _tools() -> list[list[str]]:
    tools = []
    if sys.platform == "darwin":
        tools.append(["pbcopy"])
    if os.environ.get("WAYLAND_DISPLAY"):
        tools.append(["wl-copy"])
    if os.environ.get("DISPLAY"):
        tools += [["xclip", "-selection", "clipboard"], ["xsel", "--clipboard", "--input"]]
    return [tool for tool in tools if shutil.which(tool[0])]


def _tmux_passes_osc52() -> bool | None:
    if not os.environ.get("TMUX") or not shutil.which("tmux"):
        return None
    try:
        answer = subprocess.run(["tmux", "show-options", "-gv", "set-clipboard"], capture_output=True, text=True, timeout=TOOL_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError):
        return None
    return answer.stdout.strip() in ("on", "external")


def _known_terminal() -> bool:
    names = (os.environ.get("TERM_PROGRAM", ""), os.environ.get("TERM", ""))
    return bool(os.environ.get("WT_SESSION")) or any(known.lower() in name.lower() for name in names for known in OSC52_TERMINALS)


def copy_text(app: Any, text: str) -> tuple[bool, str]:
    """Copy ``text``; ``(surely_copied, what happened in words)``. Runs tools: call it off the UI thread."""
    for tool in _tools():
        try:
            subprocess.run(tool, input=text, text=True, check=True, timeout=TOOL_TIMEOUT_S, capture_output=True)
            return True, f"Copied to the clipboard with {tool[0]}."
        except (OSError, subprocess.SubprocessError):
            continue
    app.call_from_thread(app.copy_to_clipboard, text)
    tmux = _tmux_passes_osc52()
    if tmux is False:
        return False, "Not copied: tmux's set-clipboard is off, so the terminal never receives it (tmux set -g set-clipboard on). The text is shown here."
    if tmux or _known_terminal():
        return True, "Copied: sent to the terminal's clipboard (OSC 52)."
    return False, "Sent to the terminal as OSC 52, which not every terminal supports: if pasting gives nothing, copy the text shown here."
