"""The handlers of every read op of the built-in catalogue, keyed by op name.

The thirty ``onto.<kind>.list|search|get`` entries come from the per-kind
table in ``_reads_entities``; the rest are listed here one by one. None of
them writes: they run in a read-only transaction.
"""

from __future__ import annotations

from ..exec._handler import Handler
from ._reads_documents import document_path, document_tree, task_documents
from ._reads_entities import entity_handlers
from ._reads_graph import entity_relationships, linked_entities, project_graph
from ._reads_reference import reference_handlers
from ._reads_search import list_templates, search_ontology

HANDLERS: dict[str, Handler] = {
    **entity_handlers(),
    "onto.task.docs.list": Handler(task_documents),
    "onto.search": Handler(search_ontology),
    "onto.project.graph.get": Handler(project_graph),
    "onto.document.tree.get": Handler(document_tree),
    "onto.document.path.get": Handler(document_path),
    "onto.entity.relationships.get": Handler(entity_relationships),
    "onto.entity.links.get": Handler(linked_entities),
    "onto.template.list": Handler(list_templates),
    **reference_handlers(),
}
"""Read op name -> handler. ``util.web.*`` reads live in ``_web`` (they reach the network)."""
