"""The text input of a form field: a Textual ``Input`` whose typing never lays out the screen again."""

from __future__ import annotations

from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input


class FormInput(Input):
    """An ``Input`` of fixed size (one row, the field's width).

    Textual's ``Input`` sets its virtual size to the width of its text on every
    key, and a virtual size is a layout attribute: each key made the whole
    screen lay out again, which in a form of 205 fields (about 1,000 widgets)
    cost more than a frame. The input scrolls its own text and shows no
    scrollbar, so its virtual size never moves anything else: a repaint does.
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
