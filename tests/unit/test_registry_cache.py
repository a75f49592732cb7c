"""The on-disk registry cache: same answers as a fresh build, a new key for a changed catalogue, damage rebuilt."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from opgate.core import Gateway, build_registry, load_catalog
from opgate.core.cache import CachedRegistry, RegistryCache, catalog_key
from opgate.core.cache._codec import record_from_json, record_to_json
from opgate.core.cache._file import read_cache_file

# Read in place from ../shared/data (as tests/conftest.py finds it).
SHARED_DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
CATALOGS = SHARED_DATA / "catalogs"
REAL_CATALOGS = {name: CATALOGS / f for name, f in (("github", "github_mcp_tools_list.json"), ("loom", "loom_tools.json"), ("twilio", "twilio_openapi_tools.json"))}

QUERIES = ["send an sms", "list phone numbers", "create a pull request", "search issues", "buy a phone number", "delete a recording"]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("OPGATE_CACHE_DIR", str(folder))
    return folder


def _gateway(*specs: str, **options) -> Gateway:
    return Gateway.from_catalogs(list(specs), call_log=False, **options)


def _help_paths(gateway: Gateway) -> list[str]:
    paths = ["", *sorted(gateway.help_tree.root.children)]
    paths += [p for p in gateway.help_tree.paths if p.count(".") <= 2][:60]
    return paths + gateway.registry.ops[:: max(1, len(gateway.registry) // 40)]


@pytest.mark.parametrize("name", sorted(REAL_CATALOGS))
def test_records_survive_the_codec(name):
    registry = build_registry(load_catalog(REAL_CATALOGS[name]))
    for record in registry:
        assert record_from_json(json.loads(json.dumps(record_to_json(record)))) == record


def test_a_cached_registry_answers_as_the_built_one(cache_dir):
    specs = [f"twilio={REAL_CATALOGS['twilio']}", str(REAL_CATALOGS["github"])]
    fresh = _gateway(*specs, cache=False)
    _gateway(*specs)  # builds and writes the cache
    cached = _gateway(*specs)
    assert isinstance(cached.base_registry, CachedRegistry)
    assert cached.registry.version == fresh.registry.version
    assert cached.registry.ops == fresh.registry.ops
    assert cached.registry.problems == fresh.registry.problems
    assert cached.registry.errors() == fresh.registry.errors()
    assert cached.registry.group_summaries == fresh.registry.group_summaries
    for path in _help_paths(fresh):
        assert cached.help(path) == fresh.help(path), path
        assert cached.help(path, format="full", include_schemas=True) == fresh.help(path, format="full", include_schemas=True), path
    assert cached.help("twilio.no_such_group") == fresh.help("twilio.no_such_group")
    assert cached.registry.resolve("list_issues") == fresh.registry.resolve("list_issues")
    for query in QUERIES:
        assert cached.search(query, limit=10) == fresh.search(query, limit=10), query
    assert list(cached.registry) == list(fresh.registry)


def test_the_cache_is_keyed_by_content(cache_dir, tmp_path):
    catalog = tmp_path / "tools.json"
    shutil.copy(REAL_CATALOGS["loom"], catalog)
    first = _gateway(f"loom={catalog}")
    again = _gateway(f"loom={catalog}")
    assert isinstance(again.base_registry, CachedRegistry) and again.registry.version == first.registry.version
    data = json.loads(catalog.read_text())
    data["tools"][0]["description"] = "A description changed after the cache was written."
    catalog.write_text(json.dumps(data))
    changed = _gateway(f"loom={catalog}")
    assert not isinstance(changed.base_registry, CachedRegistry), "an edited catalogue must never read the old cache"
    assert changed.registry.version != first.registry.version
    op = changed.registry.ops_for_tool(data["tools"][0]["name"])[0]
    assert changed.registry.get(op).description == "A description changed after the cache was written."
    assert _gateway(f"loom={catalog}").registry.get(op).description == "A description changed after the cache was written."


def test_the_key_covers_namespace_and_options(tmp_path):
    path = REAL_CATALOGS["loom"]
    keys = {
        catalog_key([str(path)], include_builtin=False),
        catalog_key([f"other={path}"], include_builtin=False),
        catalog_key([str(path)], include_builtin=True),
    }
    assert len(keys) == 3
    assert catalog_key([str(tmp_path / "missing.json")], include_builtin=False) is None


def _flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-10] ^= 0x01
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage", "empty"])
def test_a_damaged_cache_is_rebuilt(cache_dir, damage):
    spec = f"github={REAL_CATALOGS['github']}"
    fresh = _gateway(spec, cache=False)
    _gateway(spec)
    (light,) = (cache_dir / "registry").glob("*.registry")
    if damage == "flip":
        _flip_a_byte(light)
    elif damage == "truncate":
        light.write_bytes(light.read_bytes()[:-100])
    elif damage == "garbage":
        light.write_bytes(b'{"format": 1, "kind": "registry"}\n' + os.urandom(200))
    else:
        light.write_bytes(b"")
    rebuilt = _gateway(spec)
    assert not isinstance(rebuilt.base_registry, CachedRegistry)
    assert rebuilt.help("") == fresh.help("") and rebuilt.registry.version == fresh.registry.version
    assert isinstance(_gateway(spec).base_registry, CachedRegistry), "the rebuild writes a good cache again"


def test_damaged_records_are_rebuilt_when_first_read(cache_dir):
    spec = f"github={REAL_CATALOGS['github']}"
    fresh = _gateway(spec, cache=False)
    _gateway(spec)
    (records,) = (cache_dir / "registry").glob("*.records")
    _flip_a_byte(records)
    cached = _gateway(spec)
    assert isinstance(cached.base_registry, CachedRegistry)
    assert list(cached.registry) == list(fresh.registry)
    assert cached.help("mcp.github.issue.list", format="full") == fresh.help("mcp.github.issue.list", format="full")


def test_a_folder_others_can_write_is_not_used(tmp_path, monkeypatch):
    folder = tmp_path / "shared-cache"
    (folder / "registry").mkdir(parents=True)
    (folder / "registry").chmod(0o777)
    monkeypatch.setenv("OPGATE_CACHE_DIR", str(folder))
    assert RegistryCache.configured() is None
    _gateway(str(REAL_CATALOGS["loom"]))
    assert list((folder / "registry").iterdir()) == []


def test_off_turns_the_cache_off(tmp_path, monkeypatch):
    monkeypatch.setenv("OPGATE_CACHE_DIR", "off")
    assert RegistryCache.configured(tmp_path) is None


def test_openapi_catalogues_are_not_cached(cache_dir):
    spec = f"events={SHARED_DATA / 'openapi' / 'twilio_events_v1.json'}"
    _gateway(spec)
    again = _gateway(spec)
    assert not isinstance(again.base_registry, CachedRegistry)
    assert again.http_apis, "an OpenAPI catalogue keeps the API it runs against"
    assert not list((cache_dir / "registry").glob("*.registry"))


def test_cache_files_are_private(cache_dir):
    _gateway(str(CATALOGS / "loom_tools.json"))
    files = list((cache_dir / "registry").iterdir())
    assert files and all(f.stat().st_mode & 0o077 == 0 for f in files)
    assert (cache_dir / "registry").stat().st_mode & 0o077 == 0


def _search_answers(gateway: Gateway, queries: list[str]) -> list:
    answers = []
    for query in queries:
        answers.append(gateway.search(query, limit=20))
        answers.append(gateway.search(query, limit=5, kind="write"))
        answers.append([hit.__dict__ for hit in gateway.search_node_hits(query)])
    return answers


def test_a_cached_search_index_ranks_exactly_as_a_built_one(cache_dir):
    spec = f"twilio={REAL_CATALOGS['twilio']}"
    queries = [*QUERIES, "snd an sms mesage", "mute a participant and then hang up the call", "reopen it", "remove the queue", "xyzzy"]
    fresh = _gateway(spec, cache=False)
    first = _gateway(spec)
    assert _search_answers(first, queries) == _search_answers(fresh, queries)  # builds the index and writes it
    assert list((cache_dir / "registry").glob("*.search"))
    cached = _gateway(spec)
    index = cached.search_index
    assert cached._index_cache is not None and index.records is not fresh.search_index.records
    assert _search_answers(cached, queries) == _search_answers(fresh, queries)


def test_a_packed_index_ranks_as_the_built_one_on_the_built_in_requests():
    from opgate.core.search import SearchIndex

    requests = json.loads((Path(__file__).resolve().parents[2] / "bench" / "data" / "builtin_requests.json").read_text())
    queries = [entry["query"] for part in ("tune", "heldback") for entry in requests[part]]
    registry = Gateway(call_log=False).registry
    built = SearchIndex.build(registry)
    sections = built.pack()
    packed = SearchIndex.unpacked(built.records, lambda name: sections[name], registry.group_summaries)
    for query in queries:
        assert packed.search(query, limit=10) == built.search(query, limit=10), query
        assert packed.search_nodes(query) == built.search_nodes(query), query


def test_a_damaged_search_index_is_rebuilt(cache_dir):
    spec = f"loom={REAL_CATALOGS['loom']}"
    expected = _gateway(spec, cache=False).search("search the web", limit=10)
    _gateway(spec).search("warm up", limit=1)
    (packed,) = (cache_dir / "registry").glob("*.search")
    _flip_a_byte(packed)
    assert _gateway(spec).search("search the web", limit=10) == expected
    assert read_cache_file(packed, kind="search", key=packed.stem) is not None, "the rebuilt index was written again"
