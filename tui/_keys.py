"""Every key of the explorer, as data: the footer, the help screen (F1) and the command palette read these.

Each binding has an ``id`` (``opgate.<name>``) so keys can be remapped with
``App.set_keymap``: ``[explorer.keymap]`` in opgate.toml, by binding id, as
posting does (``"opgate.dry_run" = "f8"``). Keys that also work while typing
in a form are function keys or control keys that Textual's Input and TextArea
leave alone. Reflex keys keep their usual meaning: ctrl+s saves (the call, to a
collection), ctrl+o opens (the collections, beside the tree), ctrl+l (clear
screen) is not used. F10 and F11 are left alone: many terminals take them
(menu bar, full screen) before the explorer sees them.
"""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding

APP_KEYS: list[Binding] = [
    Binding("f1", "keys_help", "Help", tooltip="Keys, badges and how to build a call", id="opgate.help"),
    Binding("ctrl+r", "history", "History", tooltip="Calls of this session and earlier ones; re-open or batch them", id="opgate.history"),
    Binding("f8", "toggle_writes", "Writes", tooltip="Switch between read-only and allow-write mode (turning writes on asks first)", id="opgate.writes"),
    Binding("ctrl+g", "pick_context", "Context", tooltip="Choose the context scope: which ops exist", id="opgate.context"),
    Binding("ctrl+q", "quit", "Quit", tooltip="Leave the explorer", id="opgate.quit"),
]

EXPLORER_KEYS: list[Binding] = [
    Binding("ctrl+f", "find", "Find", priority=True, tooltip="Find an op: fuzzy over op paths, or in plain words (also / when not typing)", id="opgate.find"),
    # "/" opens Find from anywhere, except in a text field that already holds text, where it types a slash.
    Binding("slash", "find_from_slash", "Find", show=False, priority=True, tooltip="Find an op (when not typing in a field)", id="opgate.find_slash"),
    Binding("f2", "show_tab('docs')", "Docs", tooltip="The op's help: usage, arguments, policy, examples (again: its JSON Schema)", id="opgate.docs"),
    Binding("f3", "show_tab('build')", "Build", tooltip="The form that builds the call", id="opgate.build"),
    Binding("f4", "show_tab('result')", "Result", tooltip="The last call's envelope, diff and entities", id="opgate.result"),
    Binding("f5", "dry_run", "Dry-run", priority=True, tooltip="Run the call without writing: see the would-be result and diff", id="opgate.dry_run"),
    Binding("f6", "run", "Run", priority=True, tooltip="Run the call for real (writes ask first)", id="opgate.run"),
    Binding("ctrl+t", "insert_example", "Example", tooltip="Put the op's next example in the form", id="opgate.example"),
    Binding("f9", "copy", "Copy", tooltip="Copy the call as JSON, an opgate exec command line, or Python", id="opgate.copy"),
    Binding("ctrl+e", "export", "Export", tooltip="Write the last dry-run or run (arguments, envelope, diff) to a .md or .json file", id="opgate.export"),
    Binding("f12", "toggle_schema", "Schema", tooltip="Show or hide the op's JSON Schema in Docs", id="opgate.schema"),
    Binding("ctrl+s", "save_call", "Save", tooltip="Save the call being built to a collection (with what it last answered as the expectation)", id="opgate.save"),
    Binding("ctrl+o", "toggle_collections", "Collections", tooltip="Show the collections instead of the op tree (F5/F6 there dry-run or run a call or a whole collection)", id="opgate.collections"),
    Binding("ctrl+backslash", "toggle_tree", "Tree", tooltip="Hide or show the op tree", id="opgate.tree"),
    Binding("ctrl+n", "maximize_pane", "Maximise", tooltip="Give the focused pane the whole screen, or give the tree back", id="opgate.maximize"),
    Binding("escape,alt+left", "back", "Back", tooltip="Back to the call you were building before following an entity", id="opgate.back"),
]

FORM_KEYS: list[Binding] = [
    Binding("f7", "pick", "Pick id", tooltip="Pick an id from the workspace (projects by name, folders and documents...)", id="opgate.pick"),
]

HISTORY_KEYS: list[Binding] = [
    Binding("enter", "reopen", "Open", tooltip="Open the call in the builder", id="opgate.history.open"),
    Binding("space", "toggle_batch", "Batch ±", tooltip="Add the call to the batch, or take it out", id="opgate.history.batch"),
    Binding("ctrl+b", "run_batch", "Run batch", tooltip="Run the collected calls with gw.batch (writes need allow-write)", id="opgate.history.run_batch"),
    Binding("ctrl+d", "dry_run_batch", "Dry-run batch", tooltip="Dry-run the collected calls with gw.batch", id="opgate.history.dry_batch"),
    Binding("ctrl+x", "clear_batch", "Clear batch", tooltip="Empty the batch", id="opgate.history.clear"),
    Binding("slash,ctrl+f", "filter", "Filter", key_display="/", tooltip="Filter the calls: op:PART, is:ok|failed|cancelled|dry-run|run, or any words", id="opgate.history.filter"),
    Binding("ctrl+s", "save_call", "Save", tooltip="Save the highlighted call to a collection", id="opgate.history.save"),
    Binding("f5", "refresh", "Refresh", tooltip="Read the call log again", id="opgate.history.refresh"),
    Binding("escape", "close", "Back", tooltip="Back to the explorer", id="opgate.history.back"),
]



ALL_KEYS: list[Binding] = [*APP_KEYS, *EXPLORER_KEYS, *FORM_KEYS, *HISTORY_KEYS]
BINDING_IDS = frozenset(b.id for b in ALL_KEYS if b.id)


def key_label(app: object, binding_id: str) -> str:
    """The key that does ``binding_id`` now (the keymap file may have moved it), for sentences such as "F7 picks one"."""
    overrides = getattr(app, "keymap_overrides", {}) or {}
    binding = next(b for b in ALL_KEYS if b.id == binding_id)
    keys = overrides.get(binding_id) or binding.key
    first = keys.split(",")[0].strip()
    if first.startswith("f") and first[1:].isdigit():
        return first.upper()
    return {"escape": "Esc"}.get(first, first)


def _app(binding_id: str) -> Binding:
    """An app key repeated on a screen, so the footer can show it where it matters (screen keys come first)."""
    binding = next(b for b in APP_KEYS if b.id == binding_id)
    return replace(binding, action=f"app.{binding.action}")


def _local(keys: list[Binding], binding_id: str) -> Binding:
    return next(b for b in keys if b.id == binding_id)


# What each screen binds, in footer order: the keys a newcomer needs first. The footer
# shows the first keys that fit the width (see FOOTER_PRIORITY); F1 lists them all.
EXPLORER_BINDINGS: list[Binding] = [
    _app("opgate.help"),
    *(_local(EXPLORER_KEYS, i) for i in ("opgate.find", "opgate.find_slash", "opgate.dry_run", "opgate.run")),
    _app("opgate.quit"),
    *(_app(i) for i in ("opgate.writes", "opgate.history")),
    *(_local(EXPLORER_KEYS, i) for i in ("opgate.save", "opgate.collections", "opgate.back", "opgate.example", "opgate.export", "opgate.copy")),
    _app("opgate.context"),
    *(_local(EXPLORER_KEYS, i) for i in ("opgate.docs", "opgate.build", "opgate.result", "opgate.tree", "opgate.maximize", "opgate.schema")),
]
HISTORY_BINDINGS: list[Binding] = [*HISTORY_KEYS, *(_app(i) for i in ("opgate.writes", "opgate.help"))]

COPY_FORMATS = (("json", "JSON payload"), ("cli", "opgate exec command line"), ("python", "Python (gw.exec)"), ("curl", "curl (the HTTP request, credentials from the environment)"))

# The help screen's sections, in order.
SECTIONS: list[tuple[str, list[Binding]]] = [
    ("Everywhere", APP_KEYS),
    ("Explorer", EXPLORER_KEYS),
    ("In the form", FORM_KEYS),
    ("History", HISTORY_KEYS),
]
