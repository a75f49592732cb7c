"""Fetching one page over http(s) with the address guard on every hop, and a cap on everything.

Redirects are followed here, not by httpx, so that each hop's host is resolved
and checked before anything connects to it. Each hop connects to an address
the guard has just checked (the URL's host is swapped for that address; the
``Host`` header and TLS server name keep the real name, so certificates are
still verified against it). Time, bytes and characters are all bounded: the
settings' timeout covers the whole visit, ``max_bytes`` caps what is read off
the wire and ``max_chars`` what is decoded.
"""

from __future__ import annotations

import codecs
import functools
import re
import ssl
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..exec._errors import InternalError, InvalidArguments, NotFoundError, PermissionDenied
from ..settings import WebSettings
from ._web_guard import AddressGuard, IPAddress, resolve_checked

if TYPE_CHECKING:
    import httpx

# httpx is imported where it is used, not here: its package __init__ imports
# its command line client, which loads rich whenever rich is installed, and
# the core must not load a user interface library just by being imported.

MAX_REDIRECTS = 5
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
DEFAULT_PORTS = {"http": 80, "https": 443}
ACCEPT = "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5"
TEXT_TYPES = ("application/json", "application/xml", "application/javascript", "application/x-javascript", "application/xhtml+xml", "application/rss+xml", "application/atom+xml")
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", re.IGNORECASE)


@dataclass(frozen=True)
class Fetched:
    """A page as read: where it ended up, its status and media type, and its text (possibly cut)."""

    url: str
    final_url: str
    status: int
    content_type: str
    text: str
    cut: bool
    textual: bool = True


def is_textual(content_type: str) -> bool:
    """Whether a media type is text worth decoding (an unknown type is given the benefit of the doubt)."""
    return not content_type or content_type.startswith("text/") or content_type in TEXT_TYPES or content_type.endswith(("+json", "+xml"))


def parse_url(url: str, *, field: str = "url") -> httpx.URL:
    """``url`` as an absolute http(s) URL with a host, or :class:`InvalidArguments` saying what is wrong."""

    import httpx

    def bad(message: str) -> InvalidArguments:
        return InvalidArguments(f"{field} {message}", field_errors=[{"field": field, "path": f"/{field}", "code": "invalid_url", "message": message}])

    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise bad(f"is not a valid URL ({exc}); send an absolute address such as https://example.com/page") from None
    if parsed.scheme not in DEFAULT_PORTS:
        raise bad(f"must be an http or https address, not {parsed.scheme or 'a relative one'!r}; other schemes are not fetched")
    if not parsed.raw_host:
        raise bad("has no host; send an absolute address such as https://example.com/page")
    return parsed


class Deadline:
    """One time budget for a whole exchange (every hop and every chunk); ``subject`` names what was asked."""

    def __init__(self, seconds: float, subject: str):
        self.seconds = seconds
        self.subject = subject
        self.ends = time.monotonic() + seconds

    def remaining(self) -> float:
        left = self.ends - time.monotonic()
        if left <= 0:
            raise self.expired()
        return left

    def expired(self) -> InternalError:
        return InternalError(f"{self.subject} did not answer within {self.seconds:g} s; try again later", retryable=True, timeout_s=self.seconds)


def _caused_by(exc: BaseException, kind: type[BaseException]) -> bool:
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, kind):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _encoding(response: httpx.Response, head: bytes) -> str:
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    declared = response.charset_encoding
    if not declared and (match := _META_CHARSET.search(head[:2048])):
        declared = match.group(1).decode("ascii")
    try:
        return codecs.lookup(declared).name if declared else "utf-8"
    except LookupError:
        return "utf-8"


def read_text(response: httpx.Response, *, max_bytes: int, max_chars: int, deadline: Deadline) -> tuple[str, bool]:
    """The body decoded, reading at most ``max_bytes`` and keeping at most ``max_chars``; and whether it was cut."""
    head = bytearray()
    decoder = None
    parts: list[str] = []
    n_bytes = n_chars = 0
    cut = False
    for chunk in response.iter_bytes():
        if n_bytes + len(chunk) > max_bytes:
            chunk, cut = chunk[: max_bytes - n_bytes], True
        n_bytes += len(chunk)
        if decoder is None:
            head += chunk
            if len(head) < 1024 and not cut:
                continue
            decoder = codecs.getincrementaldecoder(_encoding(response, bytes(head)))(errors="replace")
            chunk = bytes(head)
        text = decoder.decode(chunk)
        parts.append(text)
        n_chars += len(text)
        if cut or n_chars > max_chars:
            cut = True
            break
        deadline.remaining()
    if decoder is None:
        parts.append(codecs.decode(bytes(head), _encoding(response, bytes(head)), errors="replace"))
    elif not cut:
        parts.append(decoder.decode(b"", final=True))
    text = "".join(parts)
    if len(text) > max_chars:
        text, cut = text[:max_chars], True
    return text, cut


@functools.cache
def tls_context() -> ssl.SSLContext:
    """One verifying TLS context for every client: building one loads the CA bundle, which is slow."""
    import httpx

    return httpx.create_ssl_context()


class PageFetcher:
    """Fetches pages for ``util.web.visit`` within the web settings, checking addresses with ``guard``.

    ``tls`` is the context that verifies certificates (default: the system's CA bundle via httpx).
    """

    def __init__(self, web: WebSettings, guard: AddressGuard, *, tls: ssl.SSLContext | None = None):
        self.web = web
        self.guard = guard
        self.tls = tls or tls_context()

    def fetch(self, url: str, *, max_chars: int) -> Fetched:
        current = parse_url(url)
        deadline = Deadline(self.web.timeout_s, url)
        for _hop in range(MAX_REDIRECTS + 1):
            with self._open(current, deadline) as response:
                location = response.headers.get("location")
                if response.status_code not in REDIRECT_STATUSES or not location:
                    return self._read(url, current, response, max_chars, deadline)
            current = self._next_hop(current, location)
        raise InternalError(f"{url} redirected more than {MAX_REDIRECTS} times (last to {current}); open the final address directly if you know it", url=url, final_url=str(current))

    def _next_hop(self, current: httpx.URL, location: str) -> httpx.URL:
        import httpx

        try:
            target = current.join(location)
        except httpx.InvalidURL as exc:
            raise InternalError(f"{current} redirected to an invalid address {location!r} ({exc})", url=str(current)) from None
        if target.scheme not in DEFAULT_PORTS or not target.raw_host:
            raise PermissionDenied(f"refused to follow the redirect from {current} to {location!r}: only http and https addresses are fetched", url=str(current))
        return target

    def _read(self, url: str, current: httpx.URL, response: httpx.Response, max_chars: int, deadline: Deadline) -> Fetched:
        import httpx

        content_type = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        textual = is_textual(content_type)
        try:
            text, cut = read_text(response, max_bytes=self.web.max_bytes, max_chars=max_chars, deadline=deadline) if textual else ("", False)
        except httpx.TimeoutException:
            raise deadline.expired() from None
        except httpx.TransportError as exc:
            raise InternalError(f"reading {current} failed part-way ({type(exc).__name__}: {exc}); try again later", retryable=True, url=url) from None
        except httpx.DecodingError as exc:
            raise InternalError(f"{current} sent a body that could not be decompressed ({exc})", url=url) from None
        return Fetched(url, str(current), response.status_code, content_type, text, cut, textual)

    def _open(self, url: httpx.URL, deadline: Deadline):
        host = url.raw_host.decode("ascii")
        port = url.port or DEFAULT_PORTS[url.scheme]
        addresses = resolve_checked(host, port, self.guard, deadline.remaining())
        return self._connect_any(url, host, port, addresses, deadline)

    def _connect_any(self, url: httpx.URL, host: str, port: int, addresses: list[IPAddress], deadline: Deadline):
        import httpx

        failure: Exception | None = None
        for address in addresses:
            try:
                return _PinnedResponse(self.web, self.tls, url, host, address, deadline)
            except httpx.TimeoutException:
                raise deadline.expired() from None
            except httpx.ConnectError as exc:
                if _caused_by(exc, ssl.SSLError):
                    raise InternalError(f"the secure connection to {host} failed ({exc}); the site's certificate or TLS setup is not accepted", url=str(url)) from None
                failure = exc
            except httpx.TransportError as exc:
                raise InternalError(f"fetching {url} failed ({type(exc).__name__}: {exc}); try again later", retryable=True, url=str(url)) from None
        if failure is not None and _caused_by(failure, ConnectionRefusedError):
            raise NotFoundError(f"nothing answered at {host}:{port} (connection refused); check the address", url=str(url))
        raise InternalError(f"could not connect to {host}:{port} ({failure}); try again later", retryable=True, url=str(url))


class _PinnedResponse:
    """A streamed GET to ``url`` made through the checked ``address``; a context manager that closes it."""

    def __init__(self, web: WebSettings, tls: ssl.SSLContext, url: httpx.URL, host: str, address: IPAddress, deadline: Deadline):
        import httpx

        timeout = min(web.timeout_s, deadline.remaining())
        # A fresh client per hop: a pooled TLS connection must never serve another host name.
        # trust_env=False: ~/.netrc credentials and proxy variables must not apply to addresses a model chose.
        self._client = httpx.Client(timeout=httpx.Timeout(timeout), follow_redirects=False, trust_env=False, verify=tls)
        headers = {"Host": url.netloc.decode("ascii"), "User-Agent": web.user_agent, "Accept": ACCEPT}
        extensions = {"sni_hostname": host} if url.scheme == "https" else {}
        request = self._client.build_request("GET", url.copy_with(host=str(address)), headers=headers, extensions=extensions)
        try:
            self.response = self._client.send(request, stream=True)
        except BaseException:
            self._client.close()
            raise

    def __enter__(self) -> httpx.Response:
        return self.response

    def __exit__(self, *exc: object) -> None:
        self.response.close()
        self._client.close()

