"""A secret is masked in the forms a library quotes it in, not only as it was given.

httpx refuses a header value with a line break by quoting it as bytes
("Illegal header value b'Bearer ...\\n'"): the secret, given with its
newline, did not occur in that text as it was, and came through unmasked.
"""

from __future__ import annotations

import socket

import httpx
import pytest

from opgate.core.executors._redact import mask_known, redact

SECRET = "Bearer s3cret-token-9876\n"


def _refusal() -> str:
    """The real client's words for a request carrying the secret, to a loopback port that listens (it refuses to send it)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        with httpx.Client(timeout=5) as client, pytest.raises(httpx.HTTPError) as caught:
            client.get(f"http://127.0.0.1:{listener.getsockname()[1]}/", headers={"Authorization": SECRET})
    return str(caught.value)


def test_the_clients_quoted_form_is_masked():
    text = _refusal()
    assert "s3cret-token-9876" in text, "the client quotes the value: the case this test is about"
    assert "s3cret-token-9876" not in redact(text, [SECRET])
    assert "s3cret-token-9876" not in str(mask_known({"error": [text]}, (SECRET,)))


def test_short_forms_are_still_left_alone():
    assert redact("a b c", ["  ab  "]) == "a b c"
    assert mask_known("abc", ["ab"]) == "abc"


def test_a_command_line_is_shown_without_user_info_query_strings_or_secret_flag_values():
    from opgate.core.executors._redact import mask_command_line

    shown = mask_command_line("npx", ["-y", "@pkg/server-postgres", "postgresql://app:hunter2@db.internal/prod", "--token", "tok-1234567", "--api-key=key-1234567",
                                      "--password", "pw-1234567", "https://h.example/x?sig=sig-1234567", "--max-tokens", "5", "--port", "8080", "--env-value", "from-env-123"],
                              secrets=["from-env-123"])
    assert shown == ("npx -y @pkg/server-postgres postgresql://***@db.internal/prod --token *** --api-key=*** --password *** https://h.example/x?***"
                     " --max-tokens 5 --port 8080 --env-value ***"), shown


def test_an_http_upstream_url_is_shown_without_user_info_or_query_string():
    from opgate.core.executors.mcp._config import UpstreamConfig

    config = UpstreamConfig(name="remote", transport="http", source="servers.json", url="https://user:pw-1234567@mcp.example/mcp?key=k-1234567", headers={"X": "h-1234567"})
    assert config.where == "https://***@mcp.example/mcp?***"
