"""The words the REPL understands: its commands and its settings.

The suggestion function, the lexer, the command table and ``help`` all read
these, so a command added here is completed, highlighted and documented at once.
"""

from __future__ import annotations

from opgate.core import ALL_CONTEXTS

COMMANDS: dict[str, str] = {
    "help": "help [PATH]: help for the current group, a group or an op",
    "ls": "ls [PATH]: the groups and ops under the current path (or PATH)",
    "cd": "cd PATH: move in the namespace (cd .., cd /, cd onto.task)",
    "exec": "exec OP key=value ... | exec OP {json}: run an op",
    "dry": "dry OP key=value ...: dry-run an op and show what it would change",
    "search": "search TEXT: find ops by what they do",
    "batch": "batch [FILE] [on_error=stop|continue]: run steps (lines until a blank line, or a file)",
    "history": "history [N] | history calls [N] [op:PART] [is:ok|failed|cancelled|dry-run|run] [words]: the lines you ran (!N runs line N again), or the gateway's recent calls with their arguments",
    "set": "set writes on|off | set context NAME | set format json|table | set verbose on|off",
    "quit": "quit: leave (Ctrl-D does too)",
}

# Commands whose first argument is a path in the namespace; the value says whether ops count.
PATH_COMMANDS: dict[str, bool] = {"help": True, "exec": True, "dry": True, "cd": False, "ls": False}

# Commands whose words after the op are key=value arguments.
CALL_COMMANDS = ("exec", "dry")

FORMATS = ("table", "json")
SWITCH_VALUES = ("on", "off")
NO_SCOPE = ALL_CONTEXTS  # the same word as the explorer and the CLI use
# The explorer's words: its Writes key (opgate.writes) and its Context picker (opgate.context).
SETTINGS: dict[str, str] = {
    "writes": "on|off: let write ops write (the explorer's Writes key)",
    "context": f"NAME|{NO_SCOPE}: show only the ops of a context (the explorer's Context picker)",
    "format": "table|json: lists as tables, or every result as JSON",
    "verbose": "on|off: errors in full (usage, example, every field) instead of three lines",
}
# Earlier names, still understood.
SETTING_ALIASES = {"allow_write": "writes", "scope": "context"}

BATCH_OPTIONS = {"on_error": ("stop", "continue")}


def setting_values(name: str, context_names: list[str]) -> tuple[str, ...]:
    """The values ``set NAME`` accepts (empty for an unknown setting)."""
    table = {"writes": SWITCH_VALUES, "verbose": SWITCH_VALUES, "format": FORMATS, "context": (*context_names, NO_SCOPE)}
    return tuple(table.get(SETTING_ALIASES.get(name, name), ()))
