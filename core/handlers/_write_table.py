"""The handlers of the built-in catalogue's write ops, keyed by op name.

Every handler mutates only through the store transaction it is given, so that
the store's change set (the dry-run diff) sees everything, and never looks at
``ctx.dry_run`` except to report it: a dry run is the same work rolled back.
"""

from __future__ import annotations

from ..exec._handler import Handler
from ._writes_entities import entity_handlers
from ._writes_graph import link_entities, reorganize_project_graph, unlink_edge
from ._writes_project import create_project
from ._writes_tree import create_or_attach_task_document, move_document

HANDLERS: dict[str, Handler] = {
    **entity_handlers(),
    "onto.project.create": Handler(create_project),
    "onto.task.doc.create_or_attach": Handler(create_or_attach_task_document),
    "onto.document.tree.move": Handler(move_document),
    "onto.edge.link": Handler(link_entities),
    "onto.edge.unlink": Handler(unlink_edge),
    "onto.project.graph.reorganize": Handler(reorganize_project_graph),
}
