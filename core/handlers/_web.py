"""The web ops: ``util.web.visit`` reads one page, ``util.web.search`` asks a search provider.

Both reach outside the store, so both are ``external`` handlers (no
transaction, no dry-run). ``visit`` only reaches public addresses unless the
web settings allow private ones (see :mod:`._web_guard`).

How ``visit`` reads its arguments:

- ``mode="auto"`` goes by the media type: HTML becomes its readable text,
  other text comes back as it is, anything else (images, PDFs) comes back
  empty with a warning. ``mode="text"`` also treats a body that looks like
  HTML as HTML whatever its media type. ``mode="html"`` returns the markup.
- ``output_format`` shapes the readable text: Markdown, or plain text with
  the same blocks and no markup. It has no effect on raw markup or plain text.
- ``max_html_chars`` bounds what is read off the page (besides the settings'
  ``max_bytes``), ``max_chars`` what is returned; cutting either sets
  ``truncated``.
- An HTTP error status is still a page: it is returned with its ``status``
  and a warning, not as an error.
- ``persist`` keeps the page as read in the local cache (:mod:`._web_cache`);
  any later visit to the same URL is served from that copy while it is fresh,
  with a warning saying so. It writes that cache file even when writes are
  off, and the op's help says so: ``allow_write`` guards the workspace, and
  ``persist`` is the caller's own explicit request for the file.
"""

from __future__ import annotations

import ssl
from dataclasses import replace
from typing import Any

from ..exec._handler import HandlerContext
from ._web_cache import PageCache
from ._web_fetch import DEFAULT_PORTS, Fetched, PageFetcher, parse_url
from ._web_guard import AddressGuard, resolve_checked
from ._web_search import web_search
from ._web_table import HANDLERS
from ._web_text import html_to_page, looks_like_html, page_title

HTML_TYPES = ("text/html", "application/xhtml+xml")


class WebVisit:
    """The ``util.web.visit`` handler.

    ``guard`` decides which addresses may be reached (default: from the
    settings' ``allow_private_addresses``); ``cache`` is where ``persist``
    keeps pages (default: the user cache dir, touched only when used);
    ``tls`` verifies certificates (default: the system's CA bundle).
    """

    def __init__(self, *, guard: AddressGuard | None = None, cache: PageCache | None = None, tls: ssl.SSLContext | None = None):
        self.guard = guard
        self.cache = cache if cache is not None else PageCache()
        self.tls = tls

    def __call__(self, ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
        url = args["url"]
        max_html_chars = int(args.get("max_html_chars", 200_000))
        parsed = parse_url(url)
        key = str(parsed)
        guard = self.guard or AddressGuard.from_settings(ctx.settings.web)
        fetched = self._cached(key, max_html_chars, ctx)
        if fetched is not None:
            # A kept copy is served only if this gateway's guard allows its hosts
            # now (the one asked for and the one it ended on): the cache is shared,
            # and a more permissive gateway may have filled it.
            for address in {key, fetched.final_url}:
                where = parse_url(address)
                resolve_checked(where.host, where.port or DEFAULT_PORTS[where.scheme], guard, ctx.settings.web.timeout_s)
        else:
            fetched = PageFetcher(ctx.settings.web, guard, tls=self.tls).fetch(url, max_chars=max_html_chars)
            if args.get("persist", False):
                self._keep(replace(fetched, url=key), ctx)
        return render(
            fetched, url=url, mode=args.get("mode", "auto"), markdown=args.get("output_format", "markdown") == "markdown",
            max_chars=int(args.get("max_chars", 20_000)), warn=ctx.warn,
        )

    def _cached(self, key: str, max_html_chars: int, ctx: HandlerContext) -> Fetched | None:
        hit = self.cache.get(key)
        if hit is None:
            return None
        fetched, age = hit
        if fetched.cut and len(fetched.text) < max_html_chars:
            return None  # the kept copy is shorter than this call wants to read
        ctx.warn(f"served from the local cache: this page was kept {_age(age)} ago by a visit with persist")
        if len(fetched.text) > max_html_chars:
            fetched = replace(fetched, text=fetched.text[:max_html_chars], cut=True)
        return fetched

    def _keep(self, fetched: Fetched, ctx: HandlerContext) -> None:
        if not 200 <= fetched.status < 300:
            ctx.warn(f"not kept in the local cache: only successful pages are kept (this one answered HTTP {fetched.status})")
            return
        try:
            self.cache.put(fetched)
        except OSError as exc:
            ctx.warn(f"could not keep the page in the local cache ({exc}); the result is unaffected")


def _age(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min" if seconds < 7200 else f"{seconds / 3600:.0f} h"


def render(fetched: Fetched, *, url: str, mode: str, markdown: bool, max_chars: int, warn) -> dict[str, Any]:
    """The visit result for a page as read: ``{url, final_url, status, title, content, truncated}``."""
    text, title = fetched.text, None
    is_html = fetched.content_type in HTML_TYPES or ((mode == "text" or not fetched.content_type) and looks_like_html(text))
    if not fetched.textual:
        warn(f"{fetched.final_url} is {fetched.content_type}, not text or HTML, so no content is returned for it")
        content = ""
    elif is_html and mode == "html":
        content, title = text, page_title(text)
    elif is_html:
        page = html_to_page(text, fetched.final_url, markdown=markdown)
        content, title = page.content, page.title
        if not content and text.strip():
            warn("the page has no readable text without running its scripts, which web_visit does not do; try mode='html' to see the markup")
    else:
        content = text
    truncated = fetched.cut
    if len(content) > max_chars:
        content, truncated = content[:max_chars].rstrip(), True
    if fetched.status >= 400:
        warn(f"the server answered HTTP {fetched.status}; the content is its error page")
    return {"url": url, "final_url": fetched.final_url, "status": fetched.status, "title": title, "content": content, "truncated": truncated}


DEFAULT_VISIT = WebVisit()  # what the util.web.visit handler in _web_table calls

__all__ = ["DEFAULT_VISIT", "HANDLERS", "WebVisit", "render", "web_search"]
