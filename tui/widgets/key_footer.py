"""The footer of keys, composed again only when the keys it shows change."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import ActiveBinding
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeyFooter(Footer):
    """Textual's footer composes all its keys again on every change of bindings (each focus
    change, each ``refresh_bindings``), several times before the first frame. This one
    coalesces the requests into one per frame and composes only when what it shows differs.

    The screen sets :attr:`held` while it draws an open as one frame: the keys are composed
    once that frame is out, not in the middle of it (a footer is about 20 widgets).

    Keys stay in the order the screen declares them, wherever the keymap moved them:
    Textual puts a remapped key last, past the edge of an 80-column footer. The screen
    declares its keys most needed first; the footer shows the first ones that fit whole
    and leaves the rest to F1, instead of cutting a key in half at the palette's edge.
    """

    held: var[bool] = var(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._shown: tuple[Any, ...] | None = None
        self._pending = False
        self._stale = False

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus or self._pending:
            return
        if self.is_attached and screen is self.screen:
            self._pending = True
            self.call_after_refresh(self._recompose_if_changed)

    def on_resize(self) -> None:
        if self.is_attached and not self._pending:
            self._pending = True
            self.call_after_refresh(self._recompose_if_changed)

    def watch_held(self, held: bool) -> None:
        if not held and self._stale and self.is_attached:
            self._stale = False
            self._pending = True
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        self._pending = False
        if self.held:
            self._stale = True
            return
        shown = self._keys_shown()
        if shown != self._shown:
            self._shown = shown
            await self.recompose()

    def _keys_shown(self) -> tuple[Any, ...]:
        """Everything :meth:`compose` reads from the bindings, in order."""
        app = self.app
        return tuple(
            (binding.key, app.get_key_display(binding), binding.description, binding.action, binding.show,
             binding.group, binding.tooltip, enabled, tooltip)
            for _, binding, enabled, tooltip in self._that_fit()
        ) + (self.show_command_palette, app.ENABLE_COMMAND_PALETTE)

    def _in_declared_order(self) -> list[ActiveBinding]:
        """The screen's active bindings, each where its node declares it (the keymap changes keys, not places)."""
        active = list(self.screen.active_bindings.values())
        # Nodes from the focused widget out to the app. Not in the order their keys first appear: a priority key
        # of the screen takes the place of the focused Input's own key (ctrl+e), which put the screen first and
        # pushed the form field's F7 past the edge of an 80-column footer.
        present = {b.node for b in active}
        nodes = [node for node, _ in self.screen._modal_binding_chain if node in present]
        nodes += [node for node in dict.fromkeys(b.node for b in active) if node not in nodes]
        # Where each node declares a binding: by id (the keymap moves those), else by its unmoved key.
        declared = {
            node: {name: n for n, (key, bindings) in enumerate(node._bindings.key_to_bindings.items()) for b in bindings for name in (b.id or key, key)}
            for node in nodes
        }

        def place(item: tuple[int, ActiveBinding]) -> tuple[int, int]:
            n, (node, binding, _, _) = item
            return nodes.index(node), declared[node].get(binding.id or binding.key, n)

        return [b for _, b in sorted(enumerate(active), key=place)]

    def _that_fit(self) -> list[ActiveBinding]:
        """The keys to show, one per action, in declared order: as many as fit whole beside the palette key."""
        first_of_action: dict[str, ActiveBinding] = {}
        for active in self._in_declared_order():
            if active.binding.show:
                first_of_action.setdefault(active.binding.action, active)
        shown = list(first_of_action.values())
        if not self.size.width:
            return shown  # not laid out yet: the resize that follows fits them
        room = self.size.width - self._palette_width()
        for count, (_, binding, _, _) in enumerate(shown):
            # A compact key is "KEY DESCRIPTION" and a one-column gap; the last one's gap may touch the palette.
            room -= cell_len(self.app.get_key_display(binding)) + 1 + cell_len(binding.description) + 1
            if room < -1:
                return shown[:count]
        return shown

    def _palette_width(self) -> int:
        palette = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if palette is None or not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
            return 0
        binding = palette.binding
        # Its left border, "KEY DESCRIPTION", and the one-column gap every compact key keeps on its right.
        return 1 + cell_len(self.app.get_key_display(binding)) + 1 + cell_len(binding.description) + 1

    def compose(self) -> ComposeResult:
        """:meth:`Footer.compose` for ungrouped keys (the explorer groups none), in declared order, as many as fit."""
        if not self._bindings_ready:
            return
        shown = self._that_fit()
        self.styles.grid_size_columns = len(shown)
        for _, binding, enabled, tooltip in shown:
            yield FooterKey(
                binding.key, self.app.get_key_display(binding), binding.description, binding.action,
                disabled=not enabled, tooltip=tooltip,
            ).data_bind(compact=Footer.compact)
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            palette = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
            if palette is not None:
                _, binding, enabled, _ = palette
                yield FooterKey(
                    binding.key, self.app.get_key_display(binding), binding.description, binding.action,
                    classes="-command-palette", disabled=not enabled, tooltip=binding.tooltip or binding.description,
                )
