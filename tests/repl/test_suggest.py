"""The pure first stage: what kind of thing belongs at the cursor, at chosen cursor positions."""

from __future__ import annotations

import pytest
from prompt_toolkit.document import Document

from opgate.repl import Namespace, suggest
from opgate.repl._suggest import (
    ArgName,
    BatchOption,
    Command,
    EntityId,
    EnumValue,
    FilePath,
    OpPath,
    SettingName,
    SettingValue,
    ValueHint,
)


@pytest.fixture
def at_root(shared_gateway) -> Namespace:
    return Namespace(shared_gateway)


def kinds(text: str, namespace: Namespace, cursor: int | None = None) -> tuple:
    return suggest(Document(text, len(text) if cursor is None else cursor), namespace)


def only(text: str, namespace: Namespace, cursor: int | None = None):
    found = kinds(text, namespace, cursor)
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("text", ["", "   "])
def test_an_empty_line_wants_a_command(text, at_root):
    assert only(text, at_root) == Command("", 0)


def test_a_partial_first_word_is_a_command(at_root):
    assert only("ex", at_root) == Command("ex", 2)


def test_the_cursor_inside_the_command_word_reads_only_what_is_before_it(at_root):
    assert only("exec onto.task.list", at_root, cursor=2) == Command("ex", 2)


@pytest.mark.parametrize("command", ["exec", "dry", "help"])
def test_after_a_calling_command_comes_an_op_path(command, at_root):
    assert only(f"{command} ", at_root) == OpPath("", 0, ops=True)
    assert only(f"{command} onto.ta", at_root) == OpPath("onto.ta", 7, ops=True)


@pytest.mark.parametrize("command", ["cd", "ls"])
def test_cd_and_ls_want_groups_only(command, at_root):
    assert only(f"{command} onto.", at_root) == OpPath("onto.", 5, ops=False)


def test_the_cursor_in_the_op_path_ignores_the_arguments_after_it(at_root):
    text = "exec onto.task.create title=x"
    assert only(text, at_root, cursor=len("exec onto.ta")) == OpPath("onto.ta", 7)


def test_after_the_op_come_its_argument_names(at_root):
    assert only("exec onto.task.create ", at_root) == ArgName("", 0, "onto.task.create", frozenset())


def test_argument_names_already_given_are_marked_used(at_root):
    found = only("exec onto.task.create title='a b' pr", at_root)
    assert found == ArgName("pr", 2, "onto.task.create", frozenset({"title"}))


def test_an_op_relative_to_the_current_path(shared_gateway):
    namespace = Namespace(shared_gateway, cwd="onto.task")
    assert only("exec create ", namespace) == ArgName("", 0, "onto.task.create", frozenset())


def test_an_op_by_its_tool_name(at_root):
    assert only("dry create_onto_task ", at_root).op == "onto.task.create"


def test_an_enum_argument_wants_one_of_its_values(at_root):
    found = only("exec onto.task.create state_key=in", at_root)
    assert isinstance(found, EnumValue)
    assert (found.arg, found.prefix, found.replace) == ("state_key", "in", 2)
    assert found.values == ("todo", "in_progress", "blocked", "done")


def test_a_boolean_argument_wants_true_or_false(at_root):
    found = only("dry onto.document.delete cascade=", at_root)
    assert isinstance(found, EnumValue) and found.values == ("true", "false")


def test_an_id_argument_wants_an_entity(at_root):
    found = only("exec onto.task.create project_id=", at_root)
    assert isinstance(found, EntityId)
    assert (found.arg, found.prefix, found.project_id) == ("project_id", "", None)


def test_an_id_is_narrowed_to_the_project_the_line_names(at_root):
    found = only("exec onto.task.create project_id=P1 title=x plan_id=Lau", at_root)
    assert isinstance(found, EntityId)
    assert (found.arg, found.prefix, found.replace, found.project_id) == ("plan_id", "Lau", 3, "P1")


def test_a_date_time_argument_wants_a_hint_with_its_format(at_root):
    found = only("exec onto.task.create due_at=", at_root)
    assert isinstance(found, ValueHint)
    assert found.row["type"] == "date-time"


def test_a_quoted_value_is_completed_without_its_quotes(at_root):
    found = only('exec onto.task.create title="Draft th', at_root)
    assert isinstance(found, ValueHint)
    assert (found.prefix, found.replace) == ("Draft th", len('"Draft th'))


def test_a_space_inside_an_open_quote_stays_in_the_value(at_root):
    found = only('exec onto.task.create title="Draft ', at_root)
    assert isinstance(found, ValueHint) and found.prefix == "Draft "


@pytest.mark.parametrize(
    "text",
    [
        'exec onto.task.create {"ti',  # one JSON object: no key=value completion
        "exec no.such.op ",
        "exec onto.task.create no_such_arg=",
        "search tasks due ",
        "history ",
        "frobnicate ",
        "cd onto task",
    ],
)
def test_nothing_is_suggested_where_nothing_fits(text, at_root):
    assert kinds(text, at_root) == ()


def test_set_wants_a_setting_then_its_value(at_root):
    assert only("set ", at_root) == SettingName("", 0)
    assert only("set context pro", at_root) == SettingValue("pro", 3, "context")
    assert kinds("set colour x", at_root) == ()


def test_batch_wants_a_file_or_its_option(at_root):
    assert kinds("batch ", at_root) == (FilePath("", 0), BatchOption("", 0))
    assert kinds("batch steps.txt on_error=co", at_root) == (BatchOption("on_error=co", 11),)
