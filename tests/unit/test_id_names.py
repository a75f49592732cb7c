"""Names beside ids: which ids an argument object holds, and what the store calls the entities they name."""

from __future__ import annotations

from opgate.core import Gateway
from opgate.core._id_choices import ids_in_args

PROJECT = "10000000-0000-4000-8000-000000000001"
ENGINEERING = "50000000-0000-4000-8000-000000000001"
TASK = "20000000-0000-4000-8000-000000000001"


def test_ids_are_found_nested_and_in_lists_with_the_argument_that_holds_them():
    args = {"project_id": PROJECT, "move": {"new_parent_id": ENGINEERING}, "task_ids": [TASK], "title": PROJECT, "id": ""}
    assert ids_in_args(args) == {PROJECT: "project_id", ENGINEERING: "new_parent_id", TASK: "task_id"}


def test_the_store_names_what_it_holds_and_leaves_out_the_rest(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db")
    try:
        gone = "20000000-0000-4000-8000-00000000ffff"
        names = gateway.id_names({"project_id": PROJECT, "new_parent_id": ENGINEERING}, {"task_id": TASK, "entity_id": gone, "x_id": "not-an-id"})
    finally:
        gateway.close()
    assert names == {PROJECT: "Relay 2.0 Launch", ENGINEERING: "Engineering", TASK: "Finalize public API v2 endpoints"}
