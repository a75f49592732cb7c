"""The explorer's first frame and its opens: the Build and Result panes mounted after it, an open drawn as one frame.

Mixed into :class:`~opgate.tui.screens.explorer.ExplorerScreen`.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from textual.widgets import TabPane

from ..widgets.key_footer import KeyFooter

if TYPE_CHECKING:
    from ..widgets.call_builder import CallBuilder
    from ..widgets.result_view import ResultView


def pane_classes() -> tuple[type[CallBuilder], type[ResultView]]:
    """The Build and Result panes' widgets; importing them (the form, jsonschema's caller, Rich's JSON highlighting) is half the explorer's code."""
    from ..widgets.call_builder import CallBuilder
    from ..widgets.result_view import ResultView

    return CallBuilder, ResultView


class DeferredPanes:
    """The Build and Result tabs start empty: their contents (half the first screen's widgets) mount after the first frame,
    and their code is imported then, in a thread."""

    def init_panes(self) -> None:
        self.panes_mounted = False
        self._panes_lock = asyncio.Lock()

    async def mount_panes(self) -> bool:
        """Mount the Build and Result tabs' contents (once): right after the first frame, or sooner if something needs them.

        False when the screen is gone or the app is exiting: a ctrl+q pressed
        before the first frame's refresh reaches the pending mount, and
        mounting then would crash the exit with a MountError.
        """
        async with self._panes_lock:
            if not self.is_attached:  # type: ignore[attr-defined]
                return self.panes_mounted
            if not self.panes_mounted:
                builder, result_view = await asyncio.to_thread(pane_classes)
                if not self.is_attached:  # type: ignore[attr-defined]
                    return False
                await self.query_one("#build", TabPane).mount(builder(id="builder"))  # type: ignore[attr-defined]
                await self.query_one("#result", TabPane).mount(result_view(id="result-view"))  # type: ignore[attr-defined]
                self.panes_mounted = True
            return True

    @property
    def builder(self) -> CallBuilder:
        """The Build pane's call builder (mounted: see :meth:`mount_panes`)."""
        return self.query_one("#builder", pane_classes()[0])  # type: ignore[attr-defined]

    @property
    def result_view(self) -> ResultView:
        """The Result pane's view (mounted: see :meth:`mount_panes`)."""
        return self.query_one("#result-view", pane_classes()[1])  # type: ignore[attr-defined]

    def after_panes(self, then: Callable[[], object]) -> None:
        """``then()`` at once if the Build and Result panes are mounted, else as soon as they are (a key in the first frame)."""
        if self.panes_mounted:
            then()
            return

        async def mount_then() -> None:
            if await self.mount_panes():
                then()

        self.call_next(mount_then)  # type: ignore[attr-defined]

    @contextmanager
    def one_frame(self) -> Iterator[None]:
        """What runs inside is laid out and drawn once, at the end, and no full garbage collection gets in its way.

        Without the batch, every await of an open let a frame through (the old
        form gone, the new one half mounted, not focused yet), each laid out in
        full. The footer's keys are composed after that frame, not between its steps.
        The old form's widgets are cyclic garbage (a big form leaves about
        1,000): a full collection landing in the open cost 0.2-0.3 s of CPU
        before the new form showed, so the collector waits for that frame.
        """
        collecting = gc.isenabled()
        gc.disable()
        footer = self.query_one(KeyFooter)  # type: ignore[attr-defined]
        footer.held = True  # its keys follow the focus: composed once, after the frame
        try:
            with self.app.batch_update():  # type: ignore[attr-defined]
                yield
        finally:
            footer.held = False
            if collecting:
                self.call_after_refresh(gc.enable)  # type: ignore[attr-defined]


__all__ = ["DeferredPanes"]
