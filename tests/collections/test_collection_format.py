"""Reading and writing collection files: precise load errors, a TOML writer that round-trips, saving."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from opgate.core.collection import CollectionError, load_call, load_collection, load_env, save_call, saved_call_text
from opgate.core.collection._toml import representable

from collection_helpers import DEMO, write


def _problems(folder) -> list[str]:
    with pytest.raises(CollectionError) as caught:
        load_collection(folder)
    return caught.value.problems


def test_the_demo_collection_loads_in_file_name_order():
    collection = load_collection(DEMO)
    assert [c.name for c in collection.calls][:3] == ["list_projects", "get_project", "create_task"]
    assert len(collection.calls) >= 5
    assert {c.op.rsplit(".", 1)[-1] for c in collection.calls} >= {"list", "get", "create", "update", "delete"}
    assert all(c.expect.stated for c in collection.calls[2:])
    assert collection.variables["project_id"].startswith("10000000")


def test_every_problem_names_the_file_the_key_and_what_was_expected(tmp_path):
    folder = write(tmp_path / "bad", {
        "010_no_op.toml": 'notes = "forgot the op"\n',
        "020_bad_toml.toml": "op = \n",
        "030_typo.toml": 'op = "onto.task.list"\nargz = {}\n',
        "040_bad_expect.toml": 'op = "onto.task.list"\n[expect]\nerror = "NOPE"\n[expect.diff]\ncreatd = 1\n',
        "050_forward.toml": 'op = "onto.task.get"\n[args]\ntask_id = "$later.result.id"\n',
        "060_later.toml": 'op = "onto.task.get"\n[args]\ntask_id = "$nobody.result.id"\n',
        "collection.toml": 'name = 3\nextra = true\n',
    })
    problems = _problems(folder)
    text = "\n".join(problems)
    assert "010_no_op.toml: op: is missing" in text
    assert "020_bad_toml.toml: is not valid TOML" in text
    assert "030_typo.toml: argz: is not a known key; expected one of args, args_json, expect, notes, op" in text
    assert "040_bad_expect.toml: expect.error: must be an error code" in text
    assert "040_bad_expect.toml: expect.diff.creatd: is not a part of a diff" in text
    assert "050_forward.toml: args.task_id: $later is call 1, which does not run before this one" in text
    assert "060_later.toml: args.task_id: $nobody names no call of this collection" in text
    assert "collection.toml: name: must be a string" in text and "collection.toml: extra: is not a known key" in text


def test_a_missing_folder_an_empty_one_and_duplicate_names(tmp_path):
    assert "is not a folder" in _problems(tmp_path / "nowhere")[0]
    (tmp_path / "empty").mkdir()
    assert "holds no saved call" in _problems(tmp_path / "empty")[0]
    folder = write(tmp_path / "dup", {"010_a.toml": 'op = "x.y"\n', "020_a.toml": 'op = "x.y"\n'})
    assert "020_a.toml: gives the call name 'a', which 010_a.toml already has" in _problems(folder)[0]


def test_an_expectation_that_contradicts_itself_is_refused(tmp_path):
    folder = write(tmp_path / "c", {"010_a.toml": 'op = "x.y"\n[expect]\nok = true\nerror = "NOT_FOUND"\n',
                                    "020_b.toml": 'op = "x.y"\n[expect]\nerror = "NOT_FOUND"\n[expect.result]\n"/a" = 1\n',
                                    "030_c.toml": 'op = "x.y"\n[expect.result]\n"/a" = { length = -1 }\n"no good" = 1\n'})
    text = "\n".join(_problems(folder))
    assert "010_a.toml: expect.error: contradicts ok = true" in text
    assert "020_b.toml: expect.error: a failing call has no result or diff to check" in text
    assert "030_c.toml: expect.result.\"/a\": length must be a whole number 0 or more" in text
    assert "030_c.toml: expect.result.\"no good\": is neither a JSON pointer" in text


def test_environment_files(tmp_path):
    (tmp_path / "staging.toml").write_text('project_id = "p-1"\nlimit = 3\n')
    assert load_env(tmp_path / "staging.toml") == {"project_id": "p-1", "limit": 3}
    (tmp_path / "vars.toml").write_text('[vars]\nproject_id = "p-2"\n')
    assert load_env(tmp_path / "vars.toml") == {"project_id": "p-2"}
    (tmp_path / "bad.toml").write_text('"not a name" = 1\n')
    with pytest.raises(CollectionError, match="bad.toml: not a name: is not a variable name"):
        load_env(tmp_path / "bad.toml")
    with pytest.raises(CollectionError, match="missing.toml: cannot be read"):
        load_env(tmp_path / "missing.toml")


_json_leaf = st.one_of(st.booleans(), st.integers(-(2**63), 2**63 - 1), st.floats(allow_nan=False), st.text(max_size=30))
_json = st.recursive(_json_leaf, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=20)


@settings(max_examples=150, deadline=None)
@example(args={"0\n": []}, notes="")  # a key ending in a newline once passed for a bare key ($ matches before \n)
@given(args=st.dictionaries(st.text(max_size=12), _json, max_size=6), notes=st.text(max_size=60))
def test_saved_call_text_reads_back_as_the_same_call(args, notes):
    data = tomllib.loads(saved_call_text("onto.task.list", args, notes=notes))
    assert data["op"] == "onto.task.list"
    assert data.get("args", {}) == args
    assert data.get("notes", "") == notes


def test_arguments_toml_cannot_hold_are_kept_as_json(tmp_path):
    args = {"task_id": "t", "due_at": None, "big": 2**70}
    assert not representable(args)
    path = save_call(tmp_path / "c", "onto.task.update", args, notes="clears the due date")
    assert "args_json" in path.read_text()
    assert load_call(path).args == args


def test_save_numbers_files_after_the_last_and_keeps_names_unique(tmp_path):
    folder = tmp_path / "new"
    first = save_call(folder, "onto.task.list", {"limit": 2})
    second = save_call(folder, "onto.task.list", {"limit": 3}, expect={"result": {"/total": {"exists": True}}})
    third = save_call(folder, "onto.task.create", {"title": "x"}, name="Create a task!")
    assert [p.name for p in (first, second, third)] == ["010_task_list.toml", "020_task_list_2.toml", "030_create_a_task.toml"]
    collection = load_collection(folder)
    assert [c.name for c in collection.calls] == ["task_list", "task_list_2", "create_a_task"]
    assert collection.calls[1].expect.result == {"/total": {"exists": True}}
    assert collection.calls[0].expect.stated  # a saved call states that it should answer ok


def test_the_demo_collection_ships_in_the_package():
    """An installed opgate finds `opgate run demo`: package-data must take the collection's TOML files."""
    import fnmatch

    from collection_helpers import REPO

    patterns = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["opgate.fixtures"]
    files = [p.relative_to(REPO / "fixtures").as_posix() for p in DEMO.glob("*.toml")]
    assert files and all(any(fnmatch.fnmatch(f, pattern) for pattern in patterns) for f in files)


def test_hostile_files_are_problems_not_crashes(tmp_path):
    deep = "op = \"x.y\"\n[args]\na = " + "[" * 5000 + "]" * 5000 + "\n"
    folder = write(tmp_path / "h", {"010_deep.toml": deep, "020_binary.toml": "op = \"x\"\n", "030_[markup].toml": 'op = "[bold]x[/bold]"\n'})
    (folder / "020_binary.toml").write_bytes(b"\xff\xfe op")
    text = "\n".join(_problems(folder))
    assert "010_deep.toml:" in text and "020_binary.toml: is not UTF-8 text" in text
    assert "030_[markup].toml: gives the call name '[markup]'" in text
    (folder / "040_name\n.toml").write_text('op = "x.y"\n')
    assert "gives the call name 'name\\n'" in "\n".join(_problems(folder))
    nested: dict = {}
    node = nested
    for _ in range(5000):
        node["a"] = {}
        node = node["a"]
    with pytest.raises(CollectionError, match="cannot be saved"):
        save_call(tmp_path / "s", "onto.task.list", {"deep": nested})
    assert not list((tmp_path / "s").glob("*.toml"))
