"""The footer of keys, composed again only when the keys it shows change."""

from __future__ import annotations

from typing import Any

from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Footer


class KeyFooter(Footer):
    """Textual's footer composes all its keys again on every change of bindings (each focus
    change, each ``refresh_bindings``), several times before the first frame. This one
    coalesces the requests into one per frame and composes only when what it shows differs.

    The screen sets :attr:`held` while it draws an open as one frame: the keys are composed
    once that frame is out, not in the middle of it (a footer is about 20 widgets)."""

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
        """Everything :meth:`Footer.compose` reads from the bindings, in order."""
        app = self.app
        return tuple(
            (binding.key, app.get_key_display(binding), binding.description, binding.action, binding.show,
             binding.group, binding.tooltip, enabled, tooltip)
            for _, binding, enabled, tooltip in self.screen.active_bindings.values()
        ) + (self.show_command_palette, app.ENABLE_COMMAND_PALETTE)
