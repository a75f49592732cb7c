"""Reference material served from fixtures: field descriptions and the knowledge documents.

These ops read files shipped with opgate, not the store. The files are read
on each call (they are small) so that nothing happens at import time and no
caller can change what the next caller sees.
"""

from __future__ import annotations

import difflib
import json
from typing import Any

from .._builtin import fixtures_dir
from ..exec._errors import NotFoundError
from ..exec._handler import Handler, HandlerContext

FIELD_INFO_FILE = "field_info.json"
KNOWLEDGE_FILES = {
    "util.buildos.overview": "knowledge/overview.json",
    "util.buildos.usage_guide": "knowledge/usage_guide.json",
}


def _fixture(relative: str) -> Any:
    return json.loads((fixtures_dir() / relative).read_text(encoding="utf-8"))


def field_info(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``util.schema.field_info``: ``{entity_type, fields}``, or with ``field_name``
    ``{entity_type, field_name, field}``. An unknown field is NOT_FOUND naming the valid ones."""
    entity_type = args["entity_type"]
    described = _fixture(FIELD_INFO_FILE)
    if entity_type not in described:
        raise NotFoundError(
            f"no field information for entity_type {entity_type!r}; known: {', '.join(described)}",
            valid=list(described),
        )
    fields = described[entity_type]
    name = args.get("field_name")
    if name is None:
        return {"entity_type": entity_type, "fields": fields}
    if name not in fields:
        close = difflib.get_close_matches(name, list(fields), n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise NotFoundError(
            f"{entity_type} has no field {name!r}.{hint} Valid fields: {', '.join(fields)}",
            field="field_name", valid=list(fields), suggestions=close,
        )
    return {"entity_type": entity_type, "field_name": name, "field": fields[name]}


def _knowledge_document(relative: str) -> Handler:
    def read(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
        return _fixture(relative)

    read.__doc__ = f"The knowledge document in fixtures/{relative}, as it is."
    return Handler(read)


def reference_handlers() -> dict[str, Handler]:
    """``util.schema.field_info`` and the two knowledge documents."""
    return {
        "util.schema.field_info": Handler(field_info),
        **{op: _knowledge_document(path) for op, path in KNOWLEDGE_FILES.items()},
    }
