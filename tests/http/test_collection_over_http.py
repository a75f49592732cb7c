"""A collection's dry-run over an HTTP API: reads are sent, writes only previewed (a scratch copy of the workspace cannot hold an API's state)."""

from __future__ import annotations

from loopback_server import Answer

from opgate.core.collection import REHEARSED, load_collection, run_collection


def _collection(folder):
    folder.mkdir()
    (folder / "010_list.toml").write_text('op = "items.item.list"\n[expect.result]\n"/0/name" = "a"\n')
    (folder / "020_add.toml").write_text('op = "items.item.create"\n[args]\nbody = { name = "${name}" }\n')
    (folder / "030_again.toml").write_text('op = "items.item.list"\n')
    return load_collection(folder)


def test_a_dry_run_sends_the_reads_and_only_previews_the_writes(loopback, loopback_gateway, tmp_path):
    loopback.script("GET", "/items", Answer(200, [{"name": "a"}]), Answer(200, [{"name": "a"}]))
    collection = _collection(tmp_path / "c")
    report = run_collection(loopback_gateway(), collection, variables={"name": "n"}, dry_run=True)
    assert report.passed, [c.failures for c in report.calls]
    write = report.calls[1]
    assert write.how == "dry-run" and write.how != REHEARSED
    assert write.envelope["meta"]["dry_run_kind"] == "preview" and write.envelope["meta"]["preview"]["body"] == '{"name":"n"}'
    assert [r.method for r in loopback.received] == ["GET", "GET"]


def test_a_real_run_sends_the_write(loopback, loopback_gateway, tmp_path):
    loopback.script("GET", "/items", Answer(200, [{"name": "a"}]), Answer(200, [{"name": "a"}]))
    loopback.script("POST", "/items", Answer(201, {"name": "n"}))
    report = run_collection(loopback_gateway(), _collection(tmp_path / "c"), variables={"name": "n"})
    assert report.passed and [r.method for r in loopback.received] == ["GET", "POST", "GET"]
