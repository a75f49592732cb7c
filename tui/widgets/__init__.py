"""The explorer's widgets, one per module."""

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
