"""The second stage: each kind of suggestion turned into completions, against a real workspace."""

from __future__ import annotations

import re

import pytest
from repl_helpers import RELAY, TIDEWATER
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from opgate.core import Gateway
from opgate.repl import Namespace
from opgate.repl._completer import ReplCompleter


def complete(gateway: Gateway, text: str, cwd: str = "", cursor: int | None = None):
    completer = ReplCompleter(Namespace(gateway, cwd))
    document = Document(text, len(text) if cursor is None else cursor)
    return list(completer.get_completions(document, CompleteEvent(completion_requested=True)))


def texts(completions) -> list[str]:
    return [c.text for c in completions]


def test_command_names(shared_gateway):
    assert texts(complete(shared_gateway, "")) == ["help", "ls", "cd", "exec", "dry", "search", "batch", "history", "set", "quit"]
    assert texts(complete(shared_gateway, "s")) == ["search", "set"]


def test_op_paths_from_the_root(shared_gateway):
    found = complete(shared_gateway, "exec onto.ta")
    assert texts(found) == ["task."]
    assert found[0].start_position == -2


def test_ops_and_groups_under_a_group(shared_gateway):
    found = texts(complete(shared_gateway, "exec onto.task."))
    assert {"create", "list", "delete", "doc."} <= set(found)


def test_op_paths_relative_to_the_current_path(shared_gateway):
    assert texts(complete(shared_gateway, "exec cre", cwd="onto.task")) == ["create"]
    assert texts(complete(shared_gateway, "exec ta", cwd="onto")) == ["task."]


def test_a_root_group_is_offered_from_deeper_down(shared_gateway):
    assert "util." in texts(complete(shared_gateway, "exec ut", cwd="onto.task"))


def test_cd_offers_groups_without_ops_and_the_way_up(shared_gateway):
    found = texts(complete(shared_gateway, "cd ", cwd="onto.task"))
    assert found[0] == ".." and "doc" in found and "create" not in found


def test_absolute_paths(shared_gateway):
    assert texts(complete(shared_gateway, "cd /on", cwd="onto.task")) == ["onto"]


def test_argument_names_required_first_with_equals(shared_gateway):
    found = complete(shared_gateway, "exec onto.task.create ")
    assert texts(found)[:2] == ["project_id=", "title="]
    assert "required" in found[0].display_meta_text


def test_argument_names_skip_those_given(shared_gateway):
    found = texts(complete(shared_gateway, "exec onto.task.create title=x state_key=todo "))
    assert "title=" not in found and "state_key=" not in found and "project_id=" in found


def test_enum_values(shared_gateway):
    assert texts(complete(shared_gateway, "exec onto.task.update state_key=")) == ["todo", "in_progress", "blocked", "done"]
    found = complete(shared_gateway, "exec onto.task.create state_key=b")
    assert texts(found) == ["blocked"] and found[0].start_position == -1


def test_project_id_offers_the_projects_by_name(shared_gateway):
    found = complete(shared_gateway, "exec onto.task.create project_id=")
    by_name = {c.display_text: c.text for c in found}
    assert by_name["Relay 2.0 Launch"] == RELAY
    assert by_name["Tidewater: A Novel"] == TIDEWATER


def test_project_id_filtered_by_what_is_typed(shared_gateway):
    found = complete(shared_gateway, "exec onto.task.create project_id=Tide")
    assert texts(found) == [TIDEWATER]
    assert found[0].start_position == -4 and found[0].display_text == "Tidewater: A Novel"


def test_an_id_prefix_completes_too(shared_gateway):
    assert texts(complete(shared_gateway, "exec onto.project.get project_id=10000000-0000-4000-8000-0000000000")) != []


def test_ids_narrowed_to_the_project_on_the_line(shared_gateway):
    found = complete(shared_gateway, f"exec onto.task.create project_id={TIDEWATER} title=x plan_id=")
    assert found and all(c.display_meta_text.startswith("plan") for c in found)
    relay = texts(complete(shared_gateway, f"exec onto.task.create project_id={RELAY} title=x plan_id="))
    assert set(texts(found)).isdisjoint(relay)


def test_a_date_time_hint(shared_gateway):
    found = complete(shared_gateway, "exec onto.task.create due_at=")
    assert found[0].display_text == "<date-time>"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:00:00Z", found[0].text)


def test_a_small_integer_range_and_its_default(shared_gateway):
    found = complete(shared_gateway, "exec onto.task.create priority=")
    assert texts(found) == ["1", "2", "4", "5", "3"]
    assert found[-1].display_meta_text == "the default"


def test_setting_values_include_the_scopes(shared_gateway):
    assert texts(complete(shared_gateway, "set format ")) == ["table", "json"]
    assert "project" in texts(complete(shared_gateway, "set context "))


def test_batch_options(shared_gateway):
    assert texts(complete(shared_gateway, "batch on_error=")) == ["stop", "continue"]


def test_the_cursor_in_the_middle_of_the_line(shared_gateway):
    text = "exec onto.task.cre title=x"
    assert texts(complete(shared_gateway, text, cursor=len("exec onto.task.cre"))) == ["create"]


@pytest.mark.parametrize("text", ["exec onto.task.create project_id=Rel", "exec onto.task.create due_at=", "ls ", "exec onto.task.cr"])
def test_a_completer_never_raises_even_when_the_store_cannot_open(tmp_path, text, closed_after):
    broken = closed_after(Gateway(db_path=tmp_path))  # a folder, not a database file
    found = complete(broken, text)
    assert isinstance(found, list)
