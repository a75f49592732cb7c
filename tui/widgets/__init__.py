"""The explorer's widgets, one per module.

Each name is imported when first read: the first frame needs only a few of
them, and importing the rest (the form, the history, the modals) would delay it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from opgate.core._lazy import lazy_attributes

if TYPE_CHECKING:
    from .batch_panel import BatchPanel
    from .call_builder import CallBuilder
    from .call_form import CallForm
    from .collection_browser import CollectionBrowser
    from .diff_view import DiffView
    from .entity_links import EntityLinks
    from .form_field import FormField
    from .form_group import FormGroup
    from .form_input import FormInput
    from .form_section import FormSection
    from .gateway_bar import GatewayBar
    from .json_editor import JsonEditor
    from .key_footer import KeyFooter
    from .op_docs import OpDocs
    from .op_tree import OpTree
    from .payload_view import PayloadView
    from .result_view import ResultView

_MODULES = {
    "BatchPanel": ".batch_panel",
    "CallBuilder": ".call_builder",
    "CallForm": ".call_form",
    "CollectionBrowser": ".collection_browser",
    "DiffView": ".diff_view",
    "EntityLinks": ".entity_links",
    "FormField": ".form_field",
    "FormGroup": ".form_group",
    "FormInput": ".form_input",
    "FormSection": ".form_section",
    "GatewayBar": ".gateway_bar",
    "JsonEditor": ".json_editor",
    "KeyFooter": ".key_footer",
    "OpDocs": ".op_docs",
    "OpTree": ".op_tree",
    "PayloadView": ".payload_view",
    "ResultView": ".result_view",
}

__all__ = [
    "BatchPanel",
    "CallBuilder",
    "CallForm",
    "CollectionBrowser",
    "DiffView",
    "EntityLinks",
    "FormField",
    "FormGroup",
    "FormInput",
    "FormSection",
    "GatewayBar",
    "JsonEditor",
    "KeyFooter",
    "OpDocs",
    "OpTree",
    "PayloadView",
    "ResultView",
]

__getattr__ = lazy_attributes(__name__, globals(), _MODULES)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})  # the names not loaded yet too
