"""util.web.visit and util.web.search against real HTTP servers on 127.0.0.x, never the internet."""

from __future__ import annotations

import http.server
import json
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from opgate.core import Gateway
from opgate.core.exec._errors import InternalError, InvalidArguments, NotFoundError, OpError, PermissionDenied
from opgate.core.exec._handler import HandlerContext
from opgate.core.exec._session import Session
from opgate.core.handlers import builtin_handlers
from opgate.core.handlers._web import HANDLERS, WebVisit
from opgate.core.handlers._web_cache import PageCache
from opgate.core.handlers._web_guard import AddressGuard, address_kind
from opgate.core.handlers._web_search import normalise_results
from opgate.core.settings import GatewaySettings, WebSettings

ARTICLE = """<!doctype html><html><head><title>The WAL &amp; checkpoints</title>
<script>document.write("<p>script text</p>")</script><style>p { color: red }</style></head>
<body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<main><h1>Write-ahead logging</h1>
<p>The <b>WAL</b> file grows until a <a href="/checkpoint">checkpoint</a> runs.</p>
<ul><li>readers do not block writers<li>writers do not block readers</ul>
<pre>PRAGMA journal_mode=WAL;</pre></main>
<footer>Copyright notice</footer></body></html>"""


# --- a real local web site -------------------------------------------------------------

Route = Callable[[http.server.BaseHTTPRequestHandler], None]


@dataclass
class Site:
    """A threaded HTTP server on ``host`` with routes by path; records the requests it got."""

    host: str = "127.0.0.1"
    tls: ssl.SSLContext | None = None
    routes: dict[str, Route] = field(default_factory=dict)
    hits: list[tuple[str, str]] = field(default_factory=list)  # (path, Host header)

    def start(self) -> Site:
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                site.hits.append((self.path, self.headers.get("Host", "")))
                route = site.routes.get(path)
                if route is None:
                    send(self, 404, b"<html><head><title>Not here</title></head><body><p>No such page.</p></body></html>")
                else:
                    try:
                        route(self)
                    except (BrokenPipeError, ConnectionResetError):
                        pass

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer((self.host, 0), Handler)
        self.server.daemon_threads = True
        if self.tls is not None:
            self.server.socket = self.tls.wrap_socket(self.server.socket, server_side=True)
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    def url(self, path: str, host: str | None = None) -> str:
        return f"{'https' if self.tls else 'http'}://{host or self.host}:{self.port}{path}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def send(handler, status: int, body: bytes, content_type: str = "text/html; charset=utf-8", headers: dict[str, str] | None = None) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(body)


def page(body: bytes, content_type: str = "text/html; charset=utf-8") -> Route:
    return lambda h: send(h, 200, body, content_type)


def redirect(location: str | Callable[[], str], status: int = 302) -> Route:
    return lambda h: send(h, status, b"", headers={"Location": location() if callable(location) else location})


def endless(h) -> None:
    """Sends an HTML page that never ends (no length, no end of stream)."""
    h.send_response(200)
    h.send_header("Content-Type", "text/html; charset=utf-8")
    h.send_header("Connection", "close")
    h.end_headers()
    h.wfile.write(b"<html><head><title>Forever</title></head><body>")
    while True:
        h.wfile.write(b"<p>" + b"more words " * 100 + b"</p>\n")


@pytest.fixture
def site() -> Iterator[Site]:
    s = Site().start()
    yield s
    s.stop()


@pytest.fixture
def other_site() -> Iterator[Site]:
    """A second server on another loopback address, to stand for a private host behind a redirect."""
    s = Site(host="127.0.0.2").start()
    yield s
    s.stop()


# Only its catalogue is needed: no call log, no workspace, nothing left open.
REGISTRY = Gateway(call_log=False).registry


def context(op: str = "util.web.visit", **web: object) -> HandlerContext:
    return HandlerContext(op=op, record=REGISTRY.get(op), tx=None, session=Session(), settings=GatewaySettings(web=WebSettings(**web)))


@pytest.fixture
def visit(tmp_path: Path) -> WebVisit:
    """The visit handler with its cache in a temp dir (never the user's cache)."""
    return WebVisit(cache=PageCache(tmp_path / "cache"))


# --- visit: reading pages ----------------------------------------------------------------


def test_handlers_are_registered_as_external():
    table = builtin_handlers()
    for op in ("util.web.visit", "util.web.search"):
        assert table[op] is HANDLERS[op] and HANDLERS[op].external


def test_a_page_comes_back_with_title_and_readable_markdown(site: Site, visit: WebVisit):
    site.routes["/wal"] = page(ARTICLE.encode())
    ctx = context(allow_private_addresses=True)
    result = visit(ctx, {"url": site.url("/wal")})
    assert set(result) == {"url", "final_url", "status", "title", "content", "truncated"}
    assert (result["status"], result["title"], result["truncated"]) == (200, "The WAL & checkpoints", False)
    content = result["content"]
    assert content.startswith("# Write-ahead logging")
    assert f"[checkpoint]({site.url('/checkpoint')})" in content
    assert "- readers do not block writers\n- writers do not block readers" in content
    assert "```\nPRAGMA journal_mode=WAL;\n```" in content
    for noise in ("script text", "color: red", "About", "Copyright"):
        assert noise not in content
    assert ctx.warnings == []


def test_text_output_has_no_markup_and_html_mode_keeps_it(site: Site, visit: WebVisit):
    site.routes["/wal"] = page(ARTICLE.encode())
    text = visit(context(allow_private_addresses=True), {"url": site.url("/wal"), "output_format": "text"})["content"]
    assert text.startswith("Write-ahead logging\n") and "The WAL file grows until a checkpoint runs." in text
    assert "**" not in text and "](" not in text and "```" not in text
    raw = visit(context(allow_private_addresses=True), {"url": site.url("/wal"), "mode": "html"})
    assert raw["content"] == ARTICLE and raw["title"] == "The WAL & checkpoints"


def test_mode_text_reads_html_served_with_the_wrong_media_type(site: Site, visit: WebVisit):
    site.routes["/mislabelled"] = page(ARTICLE.encode(), "text/plain")
    auto = visit(context(allow_private_addresses=True), {"url": site.url("/mislabelled")})
    text = visit(context(allow_private_addresses=True), {"url": site.url("/mislabelled"), "mode": "text"})
    assert auto["content"] == ARTICLE and auto["title"] is None
    assert text["title"] == "The WAL & checkpoints" and "<p>" not in text["content"]


def test_plain_text_is_returned_as_is_and_binary_as_nothing(site: Site, visit: WebVisit):
    site.routes["/notes.txt"] = page(b"line one\n  line *two*\n", "text/plain; charset=utf-8")
    site.routes["/logo.png"] = page(b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "image/png")
    assert visit(context(allow_private_addresses=True), {"url": site.url("/notes.txt")})["content"] == "line one\n  line *two*\n"
    ctx = context(allow_private_addresses=True)
    result = visit(ctx, {"url": site.url("/logo.png")})
    assert result["content"] == "" and result["status"] == 200
    assert any("image/png" in w for w in ctx.warnings)


def test_the_declared_charset_is_honoured(site: Site, visit: WebVisit):
    body = '<html><head><meta charset="iso-8859-1"><title>Café</title></head><body><p>Crème brûlée</p></body></html>'
    site.routes["/latin"] = page(body.encode("latin-1"), "text/html")
    result = visit(context(allow_private_addresses=True), {"url": site.url("/latin")})
    assert (result["title"], result["content"]) == ("Café", "Crème brûlée")


def test_an_error_status_is_still_a_page(site: Site, visit: WebVisit):
    ctx = context(allow_private_addresses=True)
    result = visit(ctx, {"url": site.url("/missing")})
    assert (result["status"], result["title"], result["content"]) == (404, "Not here", "No such page.")
    assert any("HTTP 404" in w for w in ctx.warnings)


# --- visit: caps and truncation ----------------------------------------------------------


def test_max_chars_cuts_the_content_and_marks_it_truncated(site: Site, visit: WebVisit):
    paragraphs = "".join(f"<p>Paragraph {i} of the long page.</p>" for i in range(400))
    site.routes["/long"] = page(f"<html><body>{paragraphs}</body></html>".encode())
    site.routes["/short"] = page(b"<html><body><p>Short.</p></body></html>")
    long = visit(context(allow_private_addresses=True), {"url": site.url("/long"), "max_chars": 500})
    assert long["truncated"] is True and 400 < len(long["content"]) <= 500
    assert long["content"].startswith("Paragraph 0 of") and "Paragraph 399" not in long["content"]
    short = visit(context(allow_private_addresses=True), {"url": site.url("/short"), "max_chars": 500})
    assert short == {**short, "content": "Short.", "truncated": False}


def test_max_html_chars_bounds_what_is_read(site: Site, visit: WebVisit):
    site.routes["/long"] = page(("<html><body><p>" + "word " * 2000 + "</p><p>THE END</p></body></html>").encode())
    result = visit(context(allow_private_addresses=True), {"url": site.url("/long"), "max_html_chars": 1000})
    assert result["truncated"] is True and "THE END" not in result["content"] and len(result["content"]) <= 1000
    whole = visit(context(allow_private_addresses=True), {"url": site.url("/long"), "max_chars": 100_000})
    assert whole["truncated"] is False and whole["content"].endswith("THE END")


def test_a_body_that_never_ends_stops_at_max_bytes(site: Site, visit: WebVisit):
    site.routes["/endless"] = endless
    started = time.monotonic()
    result = visit(context(allow_private_addresses=True, max_bytes=20_000, timeout_s=5), {"url": site.url("/endless"), "mode": "html", "max_chars": 100_000, "max_html_chars": 500_000})
    assert time.monotonic() - started < 4
    assert result["truncated"] is True and result["title"] == "Forever"
    assert 19_000 <= len(result["content"]) <= 20_000


# --- visit: what may be reached ----------------------------------------------------------


@pytest.mark.parametrize("url", ["ftp://127.0.0.1/file", "file:///etc/passwd", "javascript:alert(1)", "/relative/page", "http://"])
def test_only_absolute_http_urls_are_fetched(url: str, visit: WebVisit):
    with pytest.raises(InvalidArguments) as caught:
        visit(context(allow_private_addresses=True), {"url": url})
    assert caught.value.field_errors[0]["field"] == "url"


def test_loopback_is_refused_by_default_and_allowed_by_the_setting(site: Site, visit: WebVisit):
    site.routes["/page"] = page(b"<p>inside</p>")
    for host in ("127.0.0.1", "localhost"):
        with pytest.raises(PermissionDenied) as caught:
            visit(context(), {"url": site.url("/page", host)})
        assert "loopback" in caught.value.message and "allow_private_addresses" in caught.value.message
    assert site.hits == []
    result = visit(context(allow_private_addresses=True), {"url": site.url("/page", "localhost")})
    assert result["content"] == "inside"
    assert site.hits == [("/page", f"localhost:{site.port}")]  # connected by address, still named by host


@pytest.mark.parametrize(
    ("address", "kind"),
    [("10.1.2.3", "private"), ("192.168.0.1", "private"), ("127.0.0.1", "loopback"), ("::1", "loopback"),
     ("169.254.169.254", "link-local"), ("fe80::1", "link-local"), ("224.0.0.1", "multicast"), ("ff02::1", "multicast"),
     ("240.0.0.1", "reserved"), ("0.0.0.0", "unspecified"), ("::", "unspecified"), ("fc00::1", "private"),
     ("::ffff:127.0.0.1", "loopback"), ("::ffff:10.0.0.1", "private"), ("100.64.0.1", "non-public"),
     ("8.8.8.8", None), ("2606:4700:4700::1111", None)],
)
def test_address_kinds(address: str, kind: str | None):
    import ipaddress

    ip = ipaddress.ip_address(address)
    assert address_kind(ip) == kind
    assert (AddressGuard().refusal(ip) is None) is (kind is None)
    assert AddressGuard(allow_private=True).refusal(ip) is None


def test_every_resolved_address_must_be_allowed(monkeypatch: pytest.MonkeyPatch, visit: WebVisit):
    infos = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", 80)), (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.5", 80))]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: infos)
    with pytest.raises(PermissionDenied, match="10.0.0.5 is a private address"):
        visit(context(), {"url": "http://mixed.example/"})


def test_the_connection_goes_to_the_checked_address_not_a_second_lookup(site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """DNS rebinding: the first answer passes the guard, a later lookup would say something else."""
    site.routes["/page"] = page(b"<p>pinned</p>")
    real = socket.getaddrinfo
    answers = iter(["127.0.0.1"])

    def rebinding(host, port, *args, **kwargs):
        if host != "rebind.test":
            return real(host, port, *args, **kwargs)
        return real(next(answers, "10.0.0.1"), port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    visit = WebVisit(guard=AddressGuard.allowing("127.0.0.1/32"), cache=PageCache(tmp_path))
    result = visit(context(timeout_s=2), {"url": site.url("/page", "rebind.test")})
    assert result["content"] == "pinned" and site.hits == [("/page", f"rebind.test:{site.port}")]


def test_a_redirect_to_a_private_address_is_refused(site: Site, other_site: Site, tmp_path: Path):
    other_site.routes["/secret"] = page(b"<p>metadata credentials</p>")
    site.routes["/hop"] = redirect(lambda: other_site.url("/secret"))
    site.routes["/page"] = page(b"<p>public</p>")
    only_first = WebVisit(guard=AddressGuard.allowing("127.0.0.1/32"), cache=PageCache(tmp_path))
    assert only_first(context(), {"url": site.url("/page")})["content"] == "public"
    with pytest.raises(PermissionDenied, match="127.0.0.2 is a loopback address"):
        only_first(context(), {"url": site.url("/hop")})
    assert other_site.hits == []
    # The same redirect is followed when the second address is allowed: the refusal above was the guard's.
    both = WebVisit(guard=AddressGuard.allowing("127.0.0.1/32", "127.0.0.2/32"), cache=PageCache(tmp_path))
    result = both(context(), {"url": site.url("/hop")})
    assert (result["final_url"], result["content"]) == (other_site.url("/secret"), "metadata credentials")


def test_redirects_are_followed_a_few_times_only(site: Site, visit: WebVisit):
    for n in range(8):
        site.routes[f"/r{n}"] = redirect(f"/r{n + 1}", 301 if n % 2 else 307)
    site.routes["/r8"] = page(b"<p>arrived</p>")
    site.routes["/r3again"] = redirect("/r4")  # four hops to /r8
    result = visit(context(allow_private_addresses=True), {"url": site.url("/r3again")})
    assert (result["final_url"], result["content"]) == (site.url("/r8"), "arrived")
    with pytest.raises(InternalError, match="redirected more than 5 times"):
        visit(context(allow_private_addresses=True), {"url": site.url("/r0")})


def test_a_redirect_to_another_scheme_is_not_followed(site: Site, visit: WebVisit):
    site.routes["/to-file"] = redirect("file:///etc/passwd")
    with pytest.raises(PermissionDenied, match="only http and https"):
        visit(context(allow_private_addresses=True), {"url": site.url("/to-file")})


def self_signed(tmp_path: Path, name: str) -> Path:
    """A certificate and key for ``name`` in one PEM file, made with the openssl command line."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a test certificate")
    pem = tmp_path / f"{name}.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", f"/CN={name}",
         "-addext", f"subjectAltName=DNS:{name}", "-keyout", str(pem), "-out", str(pem)],
        check=True, capture_output=True,
    )
    return pem


@pytest.mark.parametrize("cert_name", ["localhost", "other.example"])
def test_https_is_verified_against_the_host_name_not_the_address(tmp_path: Path, cert_name: str):
    pem = self_signed(tmp_path, cert_name)
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_tls.load_cert_chain(pem)
    secure = Site(tls=server_tls).start()
    secure.routes["/page"] = page(b"<p>over tls</p>")
    trusting = ssl.create_default_context(cafile=str(pem))
    visit = WebVisit(cache=PageCache(tmp_path / "cache"), tls=trusting)
    try:
        if cert_name == "localhost":  # connects to 127.0.0.1, verifies the certificate as localhost
            assert visit(context(allow_private_addresses=True), {"url": secure.url("/page", "localhost")})["content"] == "over tls"
        else:
            with pytest.raises(InternalError, match="secure connection to localhost failed") as caught:
                visit(context(allow_private_addresses=True), {"url": secure.url("/page", "localhost")})
            assert caught.value.retryable is False
    finally:
        secure.stop()


# --- visit: failures ---------------------------------------------------------------------


def test_a_slow_server_times_out_retryably(site: Site, visit: WebVisit):
    site.routes["/slow"] = lambda h: (time.sleep(3), send(h, 200, b"late"))
    started = time.monotonic()
    with pytest.raises(OpError) as caught:
        visit(context(allow_private_addresses=True, timeout_s=0.5), {"url": site.url("/slow")})
    assert caught.value.retryable is True and "did not answer within 0.5 s" in caught.value.message
    assert time.monotonic() - started < 2


def test_a_trickling_server_is_stopped_by_the_overall_deadline(site: Site, visit: WebVisit):
    def trickle(h) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/html")
        h.send_header("Connection", "close")
        h.end_headers()
        for _ in range(100):
            h.wfile.write(b"x" * 2000)
            h.wfile.flush()
            time.sleep(0.1)

    site.routes["/trickle"] = trickle
    started = time.monotonic()
    with pytest.raises(OpError) as caught:
        visit(context(allow_private_addresses=True, timeout_s=1), {"url": site.url("/trickle"), "max_html_chars": 500_000})
    assert caught.value.retryable is True
    assert time.monotonic() - started < 3


def test_connection_refused_is_not_found():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(NotFoundError, match="connection refused") as caught:
        WebVisit()(context(allow_private_addresses=True), {"url": f"http://127.0.0.1:{port}/"})
    assert caught.value.retryable is False


@pytest.mark.parametrize(("errno", "error", "retryable"), [(socket.EAI_NONAME, NotFoundError, False), (socket.EAI_AGAIN, InternalError, True)])
def test_dns_failures(monkeypatch: pytest.MonkeyPatch, errno: int, error: type, retryable: bool):
    def fail(*args, **kwargs):
        raise socket.gaierror(errno, "lookup failed")

    monkeypatch.setattr(socket, "getaddrinfo", fail)
    with pytest.raises(error) as caught:
        WebVisit()(context(), {"url": "https://no-such-host.example/"})
    assert caught.value.retryable is retryable and "no-such-host.example" in caught.value.message


# --- visit: persist ----------------------------------------------------------------------


def test_persist_keeps_the_page_for_later_visits(site: Site, tmp_path: Path):
    versions = iter([b"<p>first version</p>", b"<p>second version</p>", b"<p>third version</p>"])
    site.routes["/kept"] = lambda h: send(h, 200, next(versions))
    site.routes["/not-kept"] = page(b"<p>fresh</p>")
    visit = WebVisit(cache=PageCache(tmp_path / "cache"))
    assert visit(context(allow_private_addresses=True), {"url": site.url("/kept"), "persist": True})["content"] == "first version"
    ctx = context(allow_private_addresses=True)
    again = visit(ctx, {"url": site.url("/kept"), "output_format": "text"})
    assert again["content"] == "first version" and any("local cache" in w for w in ctx.warnings)
    assert [path for path, _ in site.hits] == ["/kept"]
    visit(context(allow_private_addresses=True), {"url": site.url("/not-kept")})
    assert len(list((tmp_path / "cache").glob("*.json"))) == 1
    expired = WebVisit(cache=PageCache(tmp_path / "cache", ttl_s=0))
    assert expired(context(allow_private_addresses=True), {"url": site.url("/kept")})["content"] == "second version"


# --- search ------------------------------------------------------------------------------

RESULTS = [
    {"title": "SQLite WAL", "url": "https://sqlite.org/wal.html", "snippet": "Write-ahead logging."},
    {"title": "Checkpoints", "url": "https://sqlite.org/c.html", "description": "About <strong>checkpoint</strong> starvation."},
    {"title": "Tavily style", "url": "https://example.org/t", "content": "Long content field."},
    {"title": "No address", "snippet": "dropped"},
]


@pytest.fixture
def provider(site: Site) -> Site:
    def reply(h, body) -> None:
        send(h, 200, json.dumps(body).encode(), "application/json")

    site.routes["/flat"] = lambda h: reply(h, {"results": RESULTS, "echo": h.path, "auth": h.headers.get("Authorization")})
    site.routes["/brave"] = lambda h: reply(h, {"type": "search", "web": {"results": RESULTS[:2]}})
    site.routes["/garbled"] = page(b"<html>not json</html>")
    site.routes["/shapeless"] = lambda h: reply(h, {"answer": 42})
    site.routes["/down"] = lambda h: send(h, 503, b"busy", "text/plain")
    site.routes["/locked"] = lambda h: send(h, 401, b"{}", "application/json")
    return site


def search(provider: Site, path: str, args: dict, **web: object) -> tuple[dict, HandlerContext]:
    ctx = context("util.web.search", search_url=provider.url(path), **web)
    return HANDLERS["util.web.search"].fn(ctx, args), ctx


def test_search_sends_query_count_and_key_and_normalises_results(provider: Site):
    result, ctx = search(provider, "/flat", {"query": "sqlite  wal", "max_results": 3, "search_depth": "advanced"}, search_api_key="sekrit")
    assert result == {
        "query": "sqlite wal",
        "results": [
            {"title": "SQLite WAL", "url": "https://sqlite.org/wal.html", "snippet": "Write-ahead logging."},
            {"title": "Checkpoints", "url": "https://sqlite.org/c.html", "snippet": "About checkpoint starvation."},
            {"title": "Tavily style", "url": "https://example.org/t", "snippet": "Long content field."},
        ],
    }
    path, _host = provider.hits[-1]
    assert path == "/flat?q=sqlite+wal&count=3&search_depth=advanced"
    assert any("without an http(s) url" in w for w in ctx.warnings)


def test_search_sends_the_key_as_a_bearer_token(provider: Site):
    seen = {}
    provider.routes["/auth"] = lambda h: (seen.update(auth=h.headers.get("Authorization")), send(h, 200, b'{"results": []}', "application/json"))
    assert search(provider, "/auth", {"query": "q"}, search_api_key="sekrit")[0] == {"query": "q", "results": []}
    assert seen["auth"] == "Bearer sekrit"
    search(provider, "/auth", {"query": "q"}, search_api_key=None)
    assert seen["auth"] is None


def test_search_reads_the_web_results_shape(provider: Site):
    result, _ = search(provider, "/brave", {"query": "wal"})
    assert [r["url"] for r in result["results"]] == ["https://sqlite.org/wal.html", "https://sqlite.org/c.html"]
    assert result["results"][1]["snippet"] == "About checkpoint starvation."


def test_search_without_a_provider_says_how_to_configure_one():
    ctx = context("util.web.search", search_url=None)
    with pytest.raises(InternalError) as caught:
        HANDLERS["util.web.search"].fn(ctx, {"query": "anything"})
    assert "OPGATE_SEARCH_URL" in caught.value.message and caught.value.retryable is False


@pytest.mark.parametrize(("path", "words"), [("/garbled", "not JSON"), ("/shapeless", "without a results list")])
def test_search_rejects_answers_it_cannot_read(provider: Site, path: str, words: str):
    with pytest.raises(InternalError, match=words) as caught:
        search(provider, path, {"query": "wal"})
    assert caught.value.retryable is False


def test_search_provider_errors(provider: Site):
    with pytest.raises(InternalError, match="HTTP 503") as down:
        search(provider, "/down", {"query": "wal"})
    assert down.value.retryable is True
    with pytest.raises(InternalError, match="OPGATE_SEARCH_API_KEY") as locked:
        search(provider, "/locked", {"query": "wal"})
    assert locked.value.retryable is False


def test_search_provider_timeout_is_retryable(provider: Site):
    provider.routes["/slow"] = lambda h: (time.sleep(3), send(h, 200, b'{"results": []}', "application/json"))
    with pytest.raises(OpError) as caught:
        search(provider, "/slow", {"query": "wal"}, timeout_s=0.5)
    assert caught.value.retryable is True


def test_normalise_results_accepts_a_bare_list_and_skips_junk():
    results, dropped = normalise_results([{"name": "<b>A</b>", "link": "http://a.example/", "body": "x" * 900}, "junk", {"url": "ftp://b/"}])
    assert dropped == 2 and results[0]["title"] == "A" and results[0]["url"] == "http://a.example/"
    assert len(results[0]["snippet"]) == 500 and results[0]["snippet"].endswith("…")


def test_a_kept_copy_is_not_served_past_a_stricter_guard(site: Site, tmp_path: Path):
    site.routes["/secret"] = page(b"<p>internal only</p>")
    cache = PageCache(tmp_path / "cache")
    WebVisit(cache=cache)(context(allow_private_addresses=True), {"url": site.url("/secret"), "persist": True})
    with pytest.raises(PermissionDenied):
        WebVisit(cache=cache)(context(allow_private_addresses=False), {"url": site.url("/secret")})


def test_the_help_says_plainly_that_persist_writes_a_cache_file_even_with_writes_off(closed_after):
    from opgate.core import Gateway

    text = json.dumps(closed_after(Gateway()).help("util.web.visit", format="full"))
    assert "writes that file even when writes are off" in text
    assert "writes a cache file on this machine even with writes off" in text
