"""No text the explorer shows can send a control sequence to the terminal.

Catalogue and stored text is data, but Textual (like Rich) drops only BEL,
BS, VT, FF and CR from it: an ESC in an op's description reached the
terminal, so ``\\x1b]0;...\\x07`` retitled the window and ``\\x1b[2J`` cleared
the screen. Every line Textual draws goes through :meth:`Strip.render`, so
the guard sits there, once, rather than beside each of the many widgets that
show such text. Control characters are zero cells wide to Textual's layout,
so removing them changes no width. This is the backstop: text from catalogues
and stores reaches widgets through ``_plain.py``, which writes each control as
its escape (``\\x1b``, ``\\u202e``) before layout, so a reader sees it is there;
the guard drops only what some other path lets through. Segments Textual marks
as control are its own and pass.
Textual is pinned (``textual==8.2.8``): the guard reads ``Strip._segments``.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.strip import Strip

# C0 controls (newlines and tabs never reach a strip's text), DEL, the C1 controls (U+009B is a CSI to some terminals),
# and the bidirectional controls (U+202E shows what follows reversed). All are zero cells wide to Textual.
_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_DROPPED = dict.fromkeys([*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), *_BIDI])
_unguarded_render = Strip.render


def _guarded_render(self: Strip, console) -> str:
    if self._render_cache is None and not all(control or text.isprintable() for text, _, control in self._segments):
        self._segments = [
            segment if segment.control or segment.text.isprintable() else Segment(segment.text.translate(_DROPPED), segment.style)
            for segment in self._segments
        ]
    return _unguarded_render(self, console)


def guard_terminal() -> None:
    """Install the guard (idempotent): called when the explorer starts, not on import."""
    Strip.render = _guarded_render  # type: ignore[method-assign]
