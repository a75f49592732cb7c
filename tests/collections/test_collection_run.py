"""Running collections through a real gateway on a real workspace: dry-run on a scratch copy, references, variables, failures."""

from __future__ import annotations

from opgate.core import Gateway
from opgate.core.collection import load_collection, run_collection

from collection_helpers import DEMO, PROJECT, write


def _task_count(db) -> int:
    gw = Gateway(db_path=db)
    try:
        return gw.exec("onto.task.list", {"project_id": PROJECT, "limit": 1})["result"]["total"]
    finally:
        gw.close()


def test_a_dry_run_of_the_demo_passes_and_leaves_the_workspace_as_it_was(gateway, workspace):
    before = _task_count(workspace)
    report = run_collection(gateway, load_collection(DEMO), dry_run=True)
    assert report.passed, [(c.call.name, c.failures) for c in report.calls]
    created = report.calls[2]
    assert created.how == "rehearsed on a scratch copy" and created.envelope["meta"]["diff"]["created"][0]["kind"] == "task"
    # The update refers to the id the create chose; it is the same id in every later call.
    task_id = created.envelope["result"]["task"]["id"]
    assert report.calls[3].sent_args["task_id"] == task_id == report.calls[4].sent_args["task_id"]
    assert _task_count(workspace) == before
    assert not gateway.exec("onto.task.get", {"task_id": task_id})["ok"]


def test_a_real_run_writes_and_needs_allow_write(tmp_path, workspace):
    folder = write(tmp_path / "c", {
        "010_create.toml": f'op = "onto.task.create"\n[args]\nproject_id = "{PROJECT}"\ntitle = "Real"\n[expect.diff]\ncreated = {{ task = 1 }}\n',
        "020_read.toml": 'op = "onto.task.get"\n[args]\ntask_id = "$create.result.task.id"\n[expect.result]\n"/task/title" = "Real"\n',
    })
    before = _task_count(workspace)
    read_only = Gateway(db_path=workspace)
    report = run_collection(read_only, load_collection(folder))
    read_only.close()
    assert not report.passed
    first, second = report.calls
    assert first.failures[0].detail.startswith("answered PERMISSION_DENIED")
    assert "cannot resolve $create.result.task.id: step 0 failed" in second.envelope["error"]["message"]
    writer = Gateway(db_path=workspace, allow_write=True)
    report = run_collection(writer, load_collection(folder))
    writer.close()
    assert report.passed and report.mode == "run"
    assert _task_count(workspace) == before + 1


def test_variables_from_an_environment_override_the_collection_and_unknown_ones_fail_the_call(tmp_path, gateway):
    folder = write(tmp_path / "c", {
        "collection.toml": '[vars]\nproject_id = "10000000-0000-4000-8000-000000000002"\n',
        "010_get.toml": 'op = "onto.project.get"\n[args]\nproject_id = "${project_id}"\n[expect.result]\n"project.name" = "${name}"\n',
        "020_missing.toml": 'op = "onto.task.list"\n[args]\nproject_id = "${nope}"\n',
    })
    report = run_collection(gateway, load_collection(folder), variables={"project_id": PROJECT, "name": "Relay 2.0 Launch"})
    got, missing = report.calls
    assert got.passed and got.sent_args == {"project_id": PROJECT}
    assert not missing.passed and missing.sent_args is None
    assert "${nope} is not set" in missing.envelope["error"]["message"]
    assert missing.envelope["error"]["details"]["field_errors"][0]["field"] == "args.project_id"


def test_failed_expectations_say_what_was_expected_and_what_was_found(tmp_path, gateway):
    folder = write(tmp_path / "c", {
        "010_list.toml": 'op = "onto.project.list"\n[expect.result]\n"/total" = 4\nprojects = { min_length = 5 }\n"/projects/0/name" = { contains = "Zebra" }\n"/nothing" = { exists = true }\n',
        "020_missing.toml": 'op = "onto.task.get"\n[args]\ntask_id = "20000000-0000-4000-8000-00000000ffff"\n[expect]\nerror = "CONFLICT"\n',
    })
    report = run_collection(gateway, load_collection(folder))
    listing, missing = report.calls
    assert [c.detail for c in listing.failures] == ["found 3", "found length 3", 'found "Riverside Maker Fair 2027"', "found (absent)"]
    assert missing.failures[0].what == "answers CONFLICT" and missing.failures[0].detail.startswith("answered NOT_FOUND")
    assert report.counts == (0, 2)


def test_one_call_can_run_alone_and_a_call_that_refers_to_an_earlier_one_says_so(gateway):
    collection = load_collection(DEMO)
    report = run_collection(gateway, collection, only=[1])
    assert report.passed and [c.call.name for c in report.calls] == ["get_project"]
    report = run_collection(gateway, collection, only=[3], dry_run=True)
    assert "step 2 has not run before this one" in report.calls[0].envelope["error"]["message"]
