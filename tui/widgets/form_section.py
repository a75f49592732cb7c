"""A titled part of the call form: the path, query, header or body arguments of an HTTP op."""

from __future__ import annotations

from textual.containers import Vertical
from textual.widget import Widget

from ..forms import Section

TITLES = {"path": "path parameters", "query": "query parameters", "header": "headers", "body": "body", "other": "other arguments"}


class FormSection(Vertical):
    """Holds the form widgets of one :class:`~opgate.tui.forms.Section`; it has no state of its own."""

    DEFAULT_CSS = """
    FormSection { height: auto; border-top: heavy $primary 50%; border-title-color: $text-primary; border-title-style: bold; padding: 0; margin: 0 0 1 0; }
    """

    def __init__(self, section: Section, *children: Widget):
        super().__init__(*children, id=f"section-{section.name}", classes="form-section")
        self.section = section
        self.border_title = TITLES.get(section.name, section.name)
