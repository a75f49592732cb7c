"""The HTTP executor against a scripted server on loopback: retries, Retry-After, timeouts, the status table, secrets."""

from __future__ import annotations

import socket
import time

from http_testing import API_KEY
from loopback_server import Answer

from opgate.core.executors.http import curl_command


def test_a_read_answers_json_with_status_and_headers(loopback, loopback_gateway):
    loopback.script("GET", "/items", Answer(200, [{"name": "a"}], headers={"Link": '<http://x/items?limit=5&page=2>; rel="next"'}))
    envelope = loopback_gateway().exec("items.item.list", {"limit": 5})
    assert envelope["ok"], envelope
    assert envelope["result"] == [{"name": "a"}]
    assert envelope["meta"]["http"]["status"] == 200
    assert envelope["meta"]["pagination"]["next"] == "http://x/items?limit=5&page=2"
    sent = loopback.received[0]
    assert sent.path == "/items?limit=5" and sent.headers["X-Api-Key"] == API_KEY


def test_the_api_key_is_masked_in_previews_and_comes_from_the_environment_in_curl(loopback, loopback_gateway):
    envelope = loopback_gateway().exec("items.item.create", {"body": {"name": "n"}}, dry_run=True)
    preview = envelope["meta"]["preview"]
    assert envelope["meta"]["dry_run_kind"] == "preview" and not loopback.received
    assert preview["headers"]["x-api-key"] == "***" and API_KEY not in str(envelope)
    assert preview["body"] == '{"name":"n"}'
    curl = curl_command(preview)
    assert '-H "X-Api-Key: $ITEMS_API_KEY"' in curl and API_KEY not in curl


def test_503_is_retried_for_a_read(loopback, loopback_gateway):
    loopback.script("GET", "/items/1", Answer(503, {"message": "busy"}), Answer(200, {"name": "one"}))
    envelope = loopback_gateway().exec("items.item.get", {"id": "1"})
    assert envelope["ok"] and envelope["meta"]["http"]["attempts"] == 2
    assert len(loopback.received) == 2


def test_429_honours_retry_after(loopback, loopback_gateway):
    loopback.script("GET", "/items/1", Answer(429, {"message": "slow down"}, headers={"Retry-After": "1"}), Answer(200, {"name": "one"}))
    started = time.monotonic()
    envelope = loopback_gateway().exec("items.item.get", {"id": "1"})
    assert envelope["ok"] and time.monotonic() - started >= 1.0


def test_429_after_the_retries_is_internal_and_retryable(loopback, loopback_gateway):
    loopback.script("GET", "/items/1", Answer(429, {"message": "slow down"}, headers={"Retry-After": "0"}))
    envelope = loopback_gateway(retries=1).exec("items.item.get", {"id": "1"})
    assert envelope["error"]["code"] == "INTERNAL" and envelope["error"]["details"]["retryable"]
    assert envelope["error"]["details"]["status"] == 429 and len(loopback.received) == 2


def test_a_write_is_never_retried(loopback, loopback_gateway):
    loopback.script("POST", "/items", Answer(503, {"message": "busy"}), Answer(201, {"name": "n"}))
    envelope = loopback_gateway().exec("items.item.create", {"body": {"name": "n"}})
    assert envelope["error"]["code"] == "INTERNAL" and envelope["error"]["details"]["retryable"]
    assert len(loopback.received) == 1


def test_a_slow_server_times_out_within_the_configured_time(loopback, loopback_gateway):
    loopback.script("GET", "/items/1", Answer(200, {"name": "late"}, delay_s=3))
    started = time.monotonic()
    envelope = loopback_gateway(timeout_s=0.5).exec("items.item.get", {"id": "1"})
    assert time.monotonic() - started < 2.5
    assert envelope["error"]["code"] == "INTERNAL" and envelope["error"]["details"]["retryable"]
    assert "in time" in envelope["error"]["message"]


def test_a_refused_connection_is_retried_then_reported(tmp_path, loopback_gateway):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    envelope = loopback_gateway(base_url=f"http://127.0.0.1:{port}", retries=1).exec("items.item.get", {"id": "1"})
    assert envelope["error"]["code"] == "INTERNAL" and envelope["error"]["details"]["retryable"]
    assert envelope["error"]["details"]["attempts"] == 2


def test_a_write_refused_at_connect_says_it_did_nothing_upstream(loopback_gateway):
    # A write that never left must not tell a person it "may have acted": that
    # warning is for requests that reached the server.
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    envelope = loopback_gateway(base_url=f"http://127.0.0.1:{port}").exec("items.item.create", {"body": {"name": "n"}})
    message = envelope["error"]["message"]
    assert envelope["error"]["code"] == "INTERNAL"
    assert "never sent" in message and "may have acted" not in message


def test_statuses_map_to_codes(loopback, loopback_gateway):
    gateway = loopback_gateway(retries=0)
    table = {400: "VALIDATION_ERROR", 422: "VALIDATION_ERROR", 401: "PERMISSION_DENIED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 409: "CONFLICT", 412: "CONFLICT", 500: "INTERNAL", 502: "INTERNAL"}
    for status, code in table.items():
        loopback.script("GET", "/items/1", Answer(status, {"message": f"status {status}", "errors": [{"field": "id", "message": "bad id"}]}))
        error = gateway.exec("items.item.get", {"id": "1"})["error"]
        assert error["code"] == code, (status, error)
        assert error["details"]["status"] == status and error["details"]["http"]["body"]["message"] == f"status {status}"
        assert f"status {status}" in error["message"]
        assert error["details"].get("retryable", False) == (status >= 500)
        if status in (400, 422):
            assert error["details"]["field_errors"][0]["field"] == "id"


def test_a_large_error_body_is_capped(loopback, loopback_gateway):
    loopback.script("GET", "/items/1", Answer(500, "x" * 10_000, content_type="text/plain"))
    error = loopback_gateway(retries=0).exec("items.item.get", {"id": "1"})["error"]
    body = str(error["details"]["http"]["body"])
    # The executor caps the body; the envelope's own bound may cut it again: either way it says so.
    assert len(body) < 2_200 and ("cut at" in body or "truncated" in body)


def test_a_secret_echoed_by_the_server_is_masked_in_the_error(loopback, loopback_gateway):
    loopback.script("GET", "/items/1", Answer(401, {"message": f"key {API_KEY} is not valid"}))
    envelope = loopback_gateway().exec("items.item.get", {"id": "1"})
    assert envelope["error"]["code"] == "PERMISSION_DENIED"
    assert API_KEY not in str(envelope)


def test_delete_needs_a_person_and_sends_nothing_without_one(loopback, loopback_gateway):
    envelope = loopback_gateway().exec("items.item.delete", {"id": "1"})
    assert envelope["error"]["code"] == "PERMISSION_DENIED" and envelope["error"]["details"]["requires_confirmation"]
    assert not loopback.received


def test_an_idempotency_key_is_sent_as_a_header_and_a_repeat_is_replayed(loopback, loopback_gateway):
    loopback.script("POST", "/items", Answer(201, {"name": "n", "id": "7"}))
    gateway = loopback_gateway(idempotency_header="Idempotency-Key")
    first = gateway.exec("items.item.create", {"body": {"name": "n"}}, idempotency_key="k-1")
    second = gateway.exec("items.item.create", {"body": {"name": "n"}}, idempotency_key="k-1")
    assert first["ok"] and second["ok"] and second["meta"]["idempotent_replay"]
    assert len(loopback.received) == 1 and loopback.received[0].headers["Idempotency-Key"] == "k-1"


def test_a_missing_credential_is_named_and_nothing_is_sent(loopback, loopback_gateway, monkeypatch):
    monkeypatch.delenv("ITEMS_API_KEY")
    envelope = loopback_gateway().exec("items.item.get", {"id": "1"})
    assert envelope["error"]["code"] == "PERMISSION_DENIED" and "ITEMS_API_KEY" in envelope["error"]["message"]
    assert not loopback.received


def test_an_invalid_call_sends_nothing(loopback, loopback_gateway):
    envelope = loopback_gateway().exec("items.item.create", {"body": {"nome": "typo"}})
    assert envelope["error"]["code"] == "VALIDATION_ERROR"
    assert not loopback.received


def test_one_client_per_upstream_reused_across_calls(loopback, loopback_gateway):
    loopback.script("GET", "/items/1", Answer(200, {"name": "one"}))
    gateway = loopback_gateway()
    gateway.exec("items.item.get", {"id": "1"})
    client = gateway.executors.opened()[("http", "items")].client
    gateway.exec("items.item.get", {"id": "1"})
    assert gateway.executors.opened()[("http", "items")].client is client
    gateway.close()
    assert client.is_closed


def test_json_nested_past_the_parser_is_read_as_text_not_an_internal_error(loopback, loopback_gateway):
    """A JSON answer 100,000 levels deep made the parser raise RecursionError: INTERNAL, "nothing was written", a traceback in the log."""
    deep = "[" * 100_000 + "]" * 100_000
    gateway = loopback_gateway(retries=0)
    loopback.script("GET", "/items", Answer(200, deep))
    envelope = gateway.exec("items.item.list", {"limit": 5})
    assert envelope["ok"], envelope
    assert envelope["result"]["content_type"] == "application/json" and envelope["result"]["text"].startswith("[[[")
    loopback.script("GET", "/items", Answer(500, deep))
    envelope = gateway.exec("items.item.list", {"limit": 5})
    assert envelope["error"]["code"] == "INTERNAL" and "answered 500" in envelope["error"]["message"], envelope
    assert envelope["error"]["details"]["status"] == 500


def test_a_server_that_drips_its_answer_is_cut_off_at_the_timeout(loopback, loopback_gateway):
    """httpx's read timeout is per read: a byte every half second kept the call running for as long as the server liked."""
    loopback.script("GET", "/items", Answer(200, [{"name": "a" * 40}], drip_s=0.5))
    started = time.monotonic()
    envelope = loopback_gateway(timeout_s=1.0, retries=0).exec("items.item.list", {"limit": 5})
    assert time.monotonic() - started < 4.0
    assert envelope["error"]["code"] == "INTERNAL" and envelope["error"]["details"]["retryable"], envelope
    assert "did not answer" in envelope["error"]["message"]


def test_an_answer_past_the_size_limit_is_refused_not_read_whole(loopback, loopback_gateway, monkeypatch):
    from opgate.core.executors.http import _executor

    monkeypatch.setattr(_executor, "MAX_ANSWER_BYTES", 100_000)
    gateway = loopback_gateway(retries=0)
    loopback.script("GET", "/items", Answer(200, ["x" * 1000] * 200))  # about 200 KB, with a Content-Length
    envelope = gateway.exec("items.item.list", {"limit": 5})
    assert envelope["error"]["code"] == "INTERNAL", envelope
    assert "more than 100,000 bytes" in envelope["error"]["message"] and not envelope["error"]["details"].get("retryable")
    loopback.script("GET", "/items", Answer(200, ["x" * 1000] * 50))  # within the limit
    assert gateway.exec("items.item.list", {"limit": 5})["ok"]


def test_a_body_that_cannot_be_decoded_is_reported_as_the_upstreams_not_unexpected(loopback, loopback_gateway):
    """A Content-Encoding the body does not match made httpx raise DecodingError: INTERNAL 'unexpected error', 'nothing was written'."""
    loopback.script("GET", "/items", Answer(200, "not gzip at all", headers={"Content-Encoding": "gzip"}))
    envelope = loopback_gateway(retries=0).exec("items.item.list", {"limit": 5})
    error = envelope["error"]
    assert error["code"] == "INTERNAL" and "could not be decoded" in error["message"] and "gzip" in error["message"], error
    assert "unexpected" not in error["message"] and error["details"]["upstream"] == "items"


def test_a_next_page_link_that_is_no_url_leaves_the_answer_whole(loopback, loopback_gateway):
    """urlsplit raised on the answer's own next-page link: a created item came back as INTERNAL 'nothing was written'."""
    loopback.script("POST", "/items", Answer(201, {"id": "i1", "next": "http://[bad/items?page=2"}))
    envelope = loopback_gateway(retries=0).exec("items.item.create", {"body": {"name": "n"}})
    assert envelope["ok"], envelope
    assert envelope["result"]["id"] == "i1" and envelope["meta"]["pagination"] == {"next": "http://[bad/items?page=2"}
