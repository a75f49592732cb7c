"""The explorer's keys as Textual bindings, made from the core's key table (``opgate.core.config``).

The ids, keys, actions and words live once, in ``core/config/_explorer_keys.py``
(``opgate config check`` reads the ids there without Textual). Here they become
bindings, each with its ``id`` so ``App.set_keymap`` can remap it from
``[explorer.keymap]`` in opgate.toml. The footer, the help screen (F1) and the
command palette read these.
"""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding

from opgate.core.config import EXPLORER_KEY_SECTIONS, ExplorerKey


def _binding(key: ExplorerKey) -> Binding:
    return Binding(
        key.keys, key.action, key.description, show=key.show, key_display=key.key_display,
        priority=key.priority, tooltip=key.tooltip, id=key.id,
    )


def _bindings(keys: tuple[ExplorerKey, ...]) -> list[Binding]:
    return [_binding(k) for k in keys]


# The help screen's sections, in order.
SECTIONS: list[tuple[str, list[Binding]]] = [(title, _bindings(keys)) for title, keys in EXPLORER_KEY_SECTIONS]
APP_KEYS, EXPLORER_KEYS, FORM_KEYS, HISTORY_KEYS, RESULT_KEYS = (bindings for _, bindings in SECTIONS)

ALL_KEYS: list[Binding] = [*APP_KEYS, *EXPLORER_KEYS, *FORM_KEYS, *HISTORY_KEYS, *RESULT_KEYS]
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
# shows the first keys that fit the width whole (KeyFooter); F1 lists them all.
EXPLORER_BINDINGS: list[Binding] = [
    _app("opgate.help"),
    *(_local(EXPLORER_KEYS, i) for i in ("opgate.find", "opgate.find_slash", "opgate.dry_run", "opgate.run", "opgate.save")),
    *(_app(i) for i in ("opgate.writes", "opgate.history", "opgate.quit")),
    *(_local(EXPLORER_KEYS, i) for i in ("opgate.collections", "opgate.back", "opgate.example", "opgate.export", "opgate.copy")),
    _app("opgate.context"),
    *(_local(EXPLORER_KEYS, i) for i in ("opgate.docs", "opgate.build", "opgate.result", "opgate.tree", "opgate.maximize", "opgate.schema")),
]
# The way back first: at 80 columns the batch keys would push it off the footer.
HISTORY_BINDINGS: list[Binding] = [
    *(_local(HISTORY_KEYS, f"opgate.history.{i}") for i in ("back", "open", "batch", "dry_batch", "run_batch", "filter", "save", "clear", "refresh")),
    *(_app(i) for i in ("opgate.writes", "opgate.help")),
]

COPY_FORMATS = (("json", "JSON payload"), ("cli", "opgate exec command line"), ("python", "Python (gw.exec)"), ("curl", "curl (the HTTP request, credentials from the environment)"))
