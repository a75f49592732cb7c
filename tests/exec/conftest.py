"""A gateway on a real demo workspace in a temp folder, with small handlers of its own.

These tests check the dispatcher's contract (validation, authorization,
dry-run, idempotency, envelopes), so they use tiny handlers that do exactly one
thing to the real store; the built-in handlers have their own tests.
"""

from __future__ import annotations

import pytest

from opgate.core import Gateway
from opgate.core.exec import Handler, NotFoundError
from opgate.core.store import open_store

PROJECT = "10000000-0000-4000-8000-000000000001"


def _create_task(ctx, args):
    row = ctx.tx.insert("task", {k: v for k, v in args.items()})
    return {"task": row}


def _list_tasks(ctx, args):
    page = ctx.tx.list("task", {"project_id": args["project_id"]} if "project_id" in args else {}, limit=args.get("limit", 50))
    return {"tasks": [{"id": r["id"], "title": r["title"]} for r in page.rows], "total": page.total}


def _get_task(ctx, args):
    return {"task": ctx.tx.get("task", args["task_id"])}


def _delete_task(ctx, args):
    removal = ctx.tx.delete("task", args["task_id"])
    return {"deleted": {"kind": "task", "id": removal.row["id"]}}


def _update_task(ctx, args):
    changes = {k: v for k, v in args.items() if k != "task_id"}
    before, after = ctx.tx.update("task", args["task_id"], changes)
    return {"task": after}


def _missing(ctx, args):
    raise NotFoundError("nothing here")


def _crash(ctx, args):
    raise ZeroDivisionError("boom")


HANDLERS = {
    "onto.task.create": Handler(_create_task),
    "onto.task.list": Handler(_list_tasks),
    "onto.task.get": Handler(_get_task),
    "onto.task.delete": Handler(_delete_task),
    "onto.task.update": Handler(_update_task),
    "onto.goal.get": Handler(_missing),
    "onto.plan.get": Handler(_crash),
}


@pytest.fixture
def store(tmp_path, new_workspace):
    store = open_store(new_workspace(tmp_path))
    yield store
    store.close()


@pytest.fixture
def make_gateway(store):
    made = []

    def make(**options):
        options.setdefault("handlers", HANDLERS)
        gateway = Gateway(store=store, **options)
        made.append(gateway)
        return gateway

    yield make
    # The call log is written before the store closes, as an application's
    # Gateway.close() does, so no writer thread is mid-batch when it goes.
    for gateway in made:
        gateway.close()
