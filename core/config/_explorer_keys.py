"""Every key of the explorer, as data: the one home of its binding ids, keys, actions and words.

The explorer (``opgate.tui._keys``) turns these into Textual bindings; the core
never imports Textual, and ``opgate config check`` reads the same ids to say which
names in ``[explorer.keymap]`` bind nothing. A binding id (``opgate.<name>``) is
what opgate.toml remaps, as posting does: ``"opgate.dry_run" = "f8"``.

Keys that also work while typing in a form are function keys or control keys
that Textual's Input and TextArea leave alone. Reflex keys keep their usual
meaning: ctrl+s saves (the call, to a collection), ctrl+o opens (the
collections, beside the tree), ctrl+l (clear screen) is not used. F10 and F11
are left alone: many terminals take them (menu bar, full screen) before the
explorer sees them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class ExplorerKey:
    """One binding of the explorer: ``keys`` (comma-separated, Textual's names) run ``action``.

    ``priority`` keys act even while a text field has the focus; ``show`` says whether
    the footer may show the key (F1 lists every key).
    """

    id: str
    keys: str
    action: str
    description: str
    tooltip: str
    show: bool = True
    priority: bool = False
    key_display: str | None = None


APP_KEYS: tuple[ExplorerKey, ...] = (
    ExplorerKey("opgate.help", "f1", "keys_help", "Help", "Keys, badges and how to build a call"),
    ExplorerKey("opgate.history", "ctrl+r", "history", "History", "Calls of this session and earlier ones; re-open or batch them"),
    ExplorerKey("opgate.writes", "f8", "toggle_writes", "Writes", "Switch between read-only and allow-write mode (turning writes on asks first)"),
    ExplorerKey("opgate.context", "ctrl+g", "pick_context", "Context", "Choose the context scope: which ops exist"),
    ExplorerKey("opgate.quit", "ctrl+q", "quit", "Quit", "Leave the explorer"),
)

EXPLORER_KEYS: tuple[ExplorerKey, ...] = (
    ExplorerKey("opgate.find", "ctrl+f", "find", "Find", "Find an op: fuzzy over op paths, or in plain words (also / when not typing in a field)", priority=True),
    # Not a priority key: a text field takes "/" first (a path or a URL holds slashes), so
    # only a key that no focused widget wanted reaches Find, in the order it was typed.
    ExplorerKey("opgate.find_slash", "slash", "find", "Find", "Find an op (when not typing in a field)", show=False),
    ExplorerKey("opgate.docs", "f2", "show_tab('docs')", "Docs", "The op's help: usage, arguments, policy, examples (again: its JSON Schema)"),
    ExplorerKey("opgate.build", "f3", "show_tab('build')", "Build", "The form that builds the call"),
    ExplorerKey("opgate.result", "f4", "show_tab('result')", "Result", "The last call's envelope, diff and entities"),
    ExplorerKey("opgate.dry_run", "f5", "dry_run", "Dry-run", "Run the call without writing: see the would-be result and diff", priority=True),
    ExplorerKey("opgate.run", "f6", "run", "Run", "Run the call for real (writes ask first)", priority=True),
    ExplorerKey("opgate.example", "ctrl+t", "insert_example", "Example", "Put the op's next example in the form"),
    ExplorerKey("opgate.copy", "f9", "copy", "Copy", "Copy the call as JSON, an opgate exec command line, or Python"),
    # A priority key: a form field (Input) and the raw JSON editor (TextArea) take ctrl+e for "end of line" (End does that too).
    ExplorerKey("opgate.export", "ctrl+e", "export", "Export", "Write the last dry-run or run (arguments, envelope, diff) to a .md or .json file", priority=True),
    ExplorerKey("opgate.schema", "f12", "toggle_schema", "Schema", "Show or hide the op's JSON Schema in Docs"),
    ExplorerKey("opgate.save", "ctrl+s", "save_call", "Save", "Save the call being built to a collection (with what it last answered as the expectation)"),
    ExplorerKey("opgate.collections", "ctrl+o", "toggle_collections", "Collections", "Show the collections instead of the op tree (F5/F6 there dry-run or run a call or a whole collection)"),
    ExplorerKey("opgate.tree", "ctrl+backslash", "toggle_tree", "Tree", "Hide or show the op tree"),
    ExplorerKey("opgate.maximize", "ctrl+n", "maximize_pane", "Maximise", "Give the focused pane the whole screen, or give the tree back"),
    ExplorerKey("opgate.back", "escape,alt+left", "back", "Back", "Back to the call you were building before following an entity"),
)

FORM_KEYS: tuple[ExplorerKey, ...] = (
    ExplorerKey("opgate.pick", "f7", "pick", "Pick id", "Pick an id from the workspace (projects by name, folders and documents...)"),
)

HISTORY_KEYS: tuple[ExplorerKey, ...] = (
    ExplorerKey("opgate.history.open", "enter", "reopen", "Open", "Open the call in the builder"),
    ExplorerKey("opgate.history.batch", "space", "toggle_batch", "Batch ±", "Add the call to the batch, or take it out"),
    ExplorerKey("opgate.history.run_batch", "ctrl+b", "run_batch", "Run batch", "Run the collected calls with gw.batch (writes need allow-write)"),
    ExplorerKey("opgate.history.dry_batch", "ctrl+d", "dry_run_batch", "Dry-run batch", "Dry-run the collected calls with gw.batch"),
    ExplorerKey("opgate.history.clear", "ctrl+x", "clear_batch", "Clear batch", "Empty the batch"),
    ExplorerKey("opgate.history.filter", "slash,ctrl+f", "filter", "Filter", "Filter the calls: op:PART, is:ok|failed|cancelled|dry-run|run, or any words", key_display="/"),
    ExplorerKey("opgate.history.save", "ctrl+s", "save_call", "Save", "Save the highlighted call to a collection"),
    ExplorerKey("opgate.history.refresh", "f5", "refresh", "Refresh", "Read the call log again"),
    ExplorerKey("opgate.history.back", "escape", "close", "Back", "Back to the explorer"),
)

# In the Result's list of entities a write touched: Enter opens one, this copies its id.
RESULT_KEYS: tuple[ExplorerKey, ...] = (
    ExplorerKey("opgate.result.copy_id", "c", "copy_id", "Copy id", "Copy the highlighted entity's id (Enter opens the entity)"),
)

# The help screen's sections (F1), in order.
EXPLORER_KEY_SECTIONS: tuple[tuple[str, tuple[ExplorerKey, ...]], ...] = (
    ("Everywhere", APP_KEYS),
    ("Explorer", EXPLORER_KEYS),
    ("In the form", FORM_KEYS),
    ("History", HISTORY_KEYS),
    ("In the Result's entities", RESULT_KEYS),
)

EXPLORER_BINDING_IDS = frozenset(key.id for _, keys in EXPLORER_KEY_SECTIONS for key in keys)


def unknown_bindings(binding_ids: Iterable[str]) -> list[str]:
    """The ids among ``binding_ids`` that name no binding of the explorer, sorted."""
    return sorted(set(binding_ids) - EXPLORER_BINDING_IDS)
