"""``onto.project.create``: a project, its first entities and their relationships in one call.

Entities are named by temp ids; relationships between temp ids either set a
task's containment column (plan contains task, task supports goal, task
supports milestone) or become edges. Every problem is found before anything
is written, and a required clarification stops the call with nothing written.
"""

from __future__ import annotations

from typing import Any

from ..exec._handler import HandlerContext
from ..store._kinds import KINDS
from ._context_document import context_document_spec
from ._writes_checks import Problems, check_nesting, field_error
from ._writes_guidance import warn_if_no_template

# Where an entity's generic "description" and "due_at" go, for kinds that differ
# from the plain field of that name. A requirement has no long text of its own.
DESCRIPTION_FIELD = {"document": "content", "decision": "rationale", "requirement": "props.description"}
DUE_FIELD = {"task": "due_at", "milestone": "due_at", "goal": "target_at", "decision": "decision_at"}
# The catalogue promises priority 3 for tasks and requirements alike; the store defaults only tasks.
DEFAULT_PRIORITY = 3

# (from kind, rel, to kind) -> (the end that is the task, the task column it sets)
CONTAINMENT = {
    ("plan", "contains", "task"): ("to", "plan_id"),
    ("task", "supports", "goal"): ("from", "goal_id"),
    ("task", "supports", "milestone"): ("from", "supporting_milestone_id"),
}
# Referenced kinds first, so that every task's plan, goal and milestone already exist.
INSERT_ORDER = ("goal", "plan", "milestone", "task", "document", "output", "risk", "decision", "requirement")
CONTEXT_DOCUMENT_TYPE = "document.context"


def create_project(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """``{project, created, id_map, context_document, context_document_generated, clarifications}``, or
    ``{status: "clarification_needed", clarifications}`` with nothing written."""
    entities = args.get("entities", [])
    problems = Problems()
    kinds = _temp_ids(entities, problems)
    for index, entity in enumerate(entities):
        _check_state(index, entity, problems)
        check_nesting(problems, entity.get("props"), ("entities", index, "props"))
    check_nesting(problems, args["project"].get("props"), ("project", "props"))
    containment, edges = _sort_relationships(args.get("relationships", []), kinds, problems)
    problems.raise_if_any("create the project")

    clarifications = [{"required": False, **c} for c in args.get("clarifications", [])]
    if any(c["required"] for c in clarifications):
        return {"status": "clarification_needed", "clarifications": clarifications}

    tx = ctx.tx
    project_fields = dict(args["project"])
    if clarifications:
        props = dict(project_fields.get("props") or {})
        props["clarifications"] = [*props.get("clarifications", []), *clarifications]
        project_fields["props"] = props
    _guide_type_keys(ctx, project_fields, entities)
    project = tx.insert("project", project_fields)
    created: dict[str, list[str]] = {"project": [project["id"]]}
    # Every project starts with its context document; one is written when none is given.
    generated = "context_document" not in args
    context_fields = context_document_spec(project_fields, entities) if generated else args["context_document"]
    # Written before the entities' documents so that it heads the tree root.
    context_document = tx.insert("document", {**context_fields, "project_id": project["id"],
                                              "type_key": CONTEXT_DOCUMENT_TYPE})
    created["document"] = [context_document["id"]]

    id_map: dict[str, str] = {}
    ordered = sorted(enumerate(entities), key=lambda pair: (INSERT_ORDER.index(pair[1]["kind"]), pair[0]))
    for index, entity in ordered:
        fields = _entity_fields(ctx, index, entity, project["id"])
        for column, target in containment.get(entity["temp_id"], {}).items():
            fields[column] = id_map[target]
        row = tx.insert(entity["kind"], fields)
        id_map[entity["temp_id"]] = row["id"]
        created.setdefault(entity["kind"], []).append(row["id"])
    for relationship in edges:
        source, target = relationship["from"], relationship["to"]
        edge = tx.add_edge(kinds[source], id_map[source], kinds[target], id_map[target], relationship["rel"])
        created.setdefault("edge", []).append(edge["id"])
    return {"project": project, "created": created,
            "id_map": {e["temp_id"]: id_map[e["temp_id"]] for e in entities},
            "context_document": context_document, "context_document_generated": generated,
            "clarifications": clarifications}


def _guide_type_keys(ctx: HandlerContext, project: dict, entities: list[dict]) -> None:
    warn_if_no_template(ctx, "project", project.get("type_key"), "project: ")
    for index, entity in enumerate(entities):
        if "type_key" in KINDS[entity["kind"]].field_map:
            warn_if_no_template(ctx, entity["kind"], entity.get("type_key"), f"entities[{index}] ({entity['temp_id']!r}): ")


def _temp_ids(entities: list[dict], problems: Problems) -> dict[str, str]:
    kinds: dict[str, str] = {}
    for index, entity in enumerate(entities):
        temp_id = entity["temp_id"]
        if temp_id in kinds:
            problems.add(field_error(("entities", index, "temp_id"),
                                     f"temp_id {temp_id!r} is used twice; give each entity its own", "duplicate"))
        else:
            kinds[temp_id] = entity["kind"]
    return kinds


def _check_state(index: int, entity: dict, problems: Problems) -> None:
    state = entity.get("state_key")
    allowed = KINDS[entity["kind"]].field_map["state_key"].enum or ()
    if state is not None and state not in allowed:
        problems.add(field_error(
            ("entities", index, "state_key"),
            f"{state!r} is not a state of a {entity['kind']} (entity {entity['temp_id']!r}); "
            f"use one of {', '.join(allowed)}", "not_in_enum", allowed=list(allowed)))


def _sort_relationships(relationships: list[dict], kinds: dict[str, str],
                        problems: Problems) -> tuple[dict[str, dict[str, str]], list[dict]]:
    """Split relationships into task columns (``{task temp_id: {column: temp_id}}``) and edges."""
    containment: dict[str, dict[str, str]] = {}
    edges: list[dict] = []
    seen: set[tuple[str, str, str]] = set()
    for index, rel in enumerate(relationships):
        path = ("relationships", index)
        unknown = [end for end in ("from", "to") if rel[end] not in kinds]
        for end in unknown:
            problems.add(field_error((*path, end), f"no entity has temp_id {rel[end]!r}; "
                                     f"known temp_ids: {', '.join(kinds) or 'none'}", "unknown_temp_id"))
        key = (rel["from"], rel["to"], rel["rel"])
        if unknown:
            continue
        if rel["from"] == rel["to"]:
            problems.add(field_error(path, "a relationship cannot link an entity to itself", "self_link"))
            continue
        if key in seen:
            problems.add(field_error(path, "the same relationship is listed twice", "duplicate"))
            continue
        seen.add(key)
        shape = CONTAINMENT.get((kinds[rel["from"]], rel["rel"], kinds[rel["to"]]))
        if shape is None:
            edges.append(rel)
            continue
        task_end, column = shape
        task, other = (rel["to"], rel["from"]) if task_end == "to" else (rel["from"], rel["to"])
        columns = containment.setdefault(task, {})
        if column in columns:
            problems.add(field_error(path, f"task {task!r} already gets its {column} from {columns[column]!r}; "
                                     "a task has one of each", "conflicting_containment"))
            continue
        columns[column] = other
    return containment, edges


def _entity_fields(ctx: HandlerContext, index: int, entity: dict, project_id: str) -> dict[str, Any]:
    """The store fields of one entity; generic fields the kind has no place for are dropped with a warning."""
    kind = entity["kind"]
    spec = KINDS[kind].field_map
    fields: dict[str, Any] = {"project_id": project_id, KINDS[kind].display: entity["name"],
                              "props": dict(entity.get("props") or {})}
    placed = {
        "description": DESCRIPTION_FIELD.get(kind, "description"),
        "due_at": DUE_FIELD.get(kind),
        "type_key": "type_key",
        "priority": "priority",
        "state_key": "state_key",
    }
    for name, target in placed.items():
        if name not in entity:
            continue
        if target == "props.description":
            fields["props"]["description"] = entity[name]
        elif target in spec:
            fields[target] = entity[name]
        else:
            ctx.warn(f"entities[{index}] ({entity['temp_id']!r}): a {kind} has no {name}; it was ignored")
    if "priority" in spec and "priority" not in fields:
        fields["priority"] = DEFAULT_PRIORITY
    return fields
