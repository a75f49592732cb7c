"""A library API written for these tests, served by Prism: what the Twilio and petstore documents lack.

library_openapi.yaml has query arrays in every style (form, comma-joined,
pipe- and space-delimited, deepObject), header and path arrays, path
parameters that hold special characters, 204 and 307 answers, Link
pagination, and API keys in a header and in the query. Prism validates every
request against the document, so whatever opgate encodes wrongly is a 422 (or
a 404 for a path that went elsewhere), never a test's own opinion.
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest
from http_testing import HERE
from opgate.core import Gateway
from opgate.core.config import AuthConfig, HttpUpstreamConfig, OpgateConfig
from opgate.core.executors.http import curl_command

LIBRARY_DOCUMENT = HERE / "library_openapi.yaml"
TOKEN = "library-test-token-7"


@pytest.fixture(scope="module")
def library_prism(tmp_path_factory):
    from prism import Prism, prism_bin

    server = Prism(LIBRARY_DOCUMENT, tmp_path_factory.mktemp("prism-library") / "library.log").start(prism_bin())
    yield server
    server.stop()


@pytest.fixture
def library(library_prism, tmp_path, monkeypatch):
    monkeypatch.setenv("LIBRARY_TOKEN", TOKEN)
    upstream = HttpUpstreamConfig(name="lib", openapi=LIBRARY_DOCUMENT, base_url=library_prism.url, auth=AuthConfig(token_env="LIBRARY_TOKEN"))
    gateway = Gateway.from_catalogs([], config=OpgateConfig(http_upstreams={"lib": upstream}), db_path=tmp_path / "w.db", allow_write=True, call_log=False, approver=lambda request: True)
    yield gateway
    gateway.close()


def _url(envelope: dict) -> str:
    assert envelope["ok"], envelope
    return envelope["meta"]["preview"]["url"]


def test_every_query_style_reaches_prism_as_the_document_says(library, library_prism):
    args = {"tag": ["sf", "a b"], "ids": [1, 2], "kinds": ["book", "dvd"], "filter": {"year": 1965, "lang": "en"}}
    # Prism 5.14.2 reads no spaceDelimited value (a space comes as %20 or +), so that style is checked in the preview only.
    assert re.search(r"fields=id(%20|\+)title", _url(library.exec("lib.item.list", {"fields": ["id", "title"]}, dry_run=True)))
    url = _url(library.exec("lib.item.list", args, dry_run=True))
    assert "tag=sf&tag=a+b&ids=1%2C2" in url
    assert re.search(r"kinds=book(%7C|\|)dvd", url), url
    assert re.search(r"filter(%5B|\[)year(%5D|\])=1965", url) and re.search(r"filter(%5B|\[)lang(%5D|\])=en", url), url
    before = library_prism.requests_received()
    envelope = library.exec("lib.item.list", args)
    assert envelope["ok"], envelope  # Prism answers 422 to a query it cannot read
    assert library_prism.requests_received() == before + 1


def test_header_and_path_arrays_are_comma_joined(library):
    """Previews only: Prism 5.14.2 crashes on any request with an array in a path or a header (its ``simple`` reader)."""
    preview = library.exec("lib.branch.list", {"X-Regions": ["north", "south"]}, dry_run=True)["meta"]["preview"]
    assert preview["headers"]["x-regions"] == "north,south"
    assert _url(library.exec("getShelves", {"shelfIds": [3, 4]}, dry_run=True)).endswith("/shelves/3,4")
    assert _url(library.exec("getShelves", {"shelfIds": [5]}, dry_run=True)).endswith("/shelves/5")


@pytest.mark.parametrize("item_id", ["..", "."])
def test_a_dot_segment_path_parameter_is_refused_before_anything_is_sent(library, library_prism, item_id):
    """``..`` as an id once went to ``GET /``: httpx resolves dot segments, and so do servers (WHATWG URLs, ``%2E%2E`` too, as Prism does)."""
    before = library_prism.requests_received()
    for dry_run in (True, False):
        envelope = library.exec("lib.item.get", {"itemId": item_id}, dry_run=dry_run)
        assert not envelope["ok"] and envelope["error"]["code"] == "VALIDATION_ERROR", envelope
        assert [e["field"] for e in envelope["error"]["details"]["field_errors"]] == ["args.itemId"]
        assert "another endpoint" in envelope["error"]["message"]
    assert library_prism.requests_received() == before
    assert library.exec("lib.item.get", {"itemId": "..x"})["ok"]  # dots among other characters are an ordinary id


def test_an_empty_path_parameter_is_refused_before_anything_is_sent(library, library_prism):
    before = library_prism.requests_received()
    envelope = library.exec("lib.item.get", {"itemId": ""})
    assert not envelope["ok"] and envelope["error"]["code"] == "VALIDATION_ERROR", envelope
    assert [e["field"] for e in envelope["error"]["details"]["field_errors"]] == ["args.itemId"]
    assert library_prism.requests_received() == before


def test_special_characters_in_a_path_parameter_are_one_segment(library):
    url = _url(library.exec("lib.item.get", {"itemId": "a/b c?d#e%f&g"}, dry_run=True))
    assert url.endswith("/items/a%2Fb%20c%3Fd%23e%25f%26g")
    assert library.exec("lib.item.get", {"itemId": "a/b c?d#e%f&g"})["ok"]


def test_a_documented_redirect_is_an_answer_not_an_internal_error(library):
    envelope = library.exec("lib.item_scan.get", {"itemId": "42"})
    assert envelope["ok"], envelope
    assert envelope["meta"]["http"]["status"] == 307
    assert envelope["meta"]["http"]["headers"]["location"] == "https://scans.example.com/items/42.png"
    assert envelope["result"] == {"redirect_to": "https://scans.example.com/items/42.png"}
    assert any("307" in w and "https://scans.example.com/items/42.png" in w for w in envelope["meta"]["warnings"]), envelope["meta"]


def test_a_redirect_without_a_location_is_an_answer_too(library):
    """A documented 302 with no Location header was INTERNAL (a KeyError reading where it pointed)."""
    envelope = library.exec("lib.item_archive.get", {"itemId": "42"})
    assert envelope["ok"], envelope
    assert envelope["meta"]["http"]["status"] == 302
    assert any("302" in w and "without a Location header" in w for w in envelope["meta"]["warnings"]), envelope["meta"]


def test_a_204_answer_is_an_empty_success(library):
    envelope = library.exec("lib.item.delete", {"itemId": "42"})
    assert envelope["ok"] and envelope["result"] is None and envelope["meta"]["http"]["status"] == 204, envelope


def test_the_next_page_arguments_keep_arrays_as_arrays(library):
    """The Link header's next page repeats ``tag`` and comma-joins ``ids``: its arguments must pass the op's own schema."""
    envelope = library.exec("lib.item.list", {"limit": 5})
    assert envelope["ok"], envelope
    page = envelope["meta"]["pagination"]
    assert page["next_args"] == {"limit": 5, "tag": ["sf", "classic"], "ids": [1, 2], "kinds": ["book", "dvd"], "cursor": "abc"}
    assert library.exec("lib.item.list", page["next_args"])["ok"]


def test_curl_sends_a_query_api_key_from_the_environment(library, tmp_path):
    """The curl line once held ``api_key=***``: pasted, it sent three stars. Run by the shell, Prism checks the key is there."""
    picture = tmp_path / "ada.png"
    picture.write_bytes(b"PNG")
    preview = library.exec("lib.avatar.upload", {"memberId": 7, "picture": str(picture)}, dry_run=True)["meta"]["preview"]
    assert "api_key=***" in preview["url"] and TOKEN not in str(preview)
    command = curl_command(preview)
    assert "***" not in command and TOKEN not in command, command
    env = {**os.environ, "LIBRARY_TOKEN": TOKEN}
    sent = subprocess.run(["bash", "-c", command + " -s -o /dev/null -w '%{http_code}'"], capture_output=True, text=True, env=env, timeout=60)
    assert sent.stdout == "200", (command, sent.stdout, sent.stderr)
    without_key = subprocess.run(["bash", "-c", command + " -s -o /dev/null -w '%{http_code}'"], capture_output=True, text=True, env={**env, "LIBRARY_TOKEN": ""}, timeout=60)
    assert without_key.stdout == "401", without_key.stdout  # Prism checks the key: the 200 above was the key's doing


def test_a_form_body_with_an_api_key_header(library):
    envelope = library.exec("lib.lend_item", {"itemId": "x 1", "loanDate": "2026-12-01", "member": "ada", "days": 7, "notify": True})
    assert envelope["ok"], envelope
    preview = library.exec("lib.lend_item", {"itemId": "x 1", "loanDate": "2026-12-01", "member": "ada", "notify": False}, dry_run=True)["meta"]["preview"]
    assert preview["body"] == "member=ada&notify=false" and preview["headers"]["x-api-key"] == "***"


def test_a_read_only_property_is_not_asked_of_the_caller(library, library_prism):
    """Member's id is readOnly and required: required for answers only (OpenAPI 3), so enrolling needs no id."""
    schema = library.help("lib.member.create", format="full")["schema"]["properties"]["body"]
    assert "id" not in schema["properties"] and "id" not in schema.get("required", [])
    envelope = library.exec("lib.member.create", {"body": {"name": "Ada", "email": "ada@example.com"}})
    assert envelope["ok"], envelope
    assert envelope["meta"]["http"]["status"] == 201
