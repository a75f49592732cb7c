"""``util.web.search``: ask the configured search provider and normalise its answer.

The provider is whatever ``WebSettings.search_url`` names (``OPGATE_SEARCH_URL``):
it is sent ``GET ?q=<query>&count=<max_results>`` (plus ``search_depth=advanced``
when asked), with ``search_api_key`` as a bearer token, and must answer JSON in
one of the common shapes: ``{"results": [...]}``, ``{"web": {"results": [...]}}``
or a bare list, each item with a title, a url (or link) and a snippet (or
description or content). The provider is chosen by the operator, so it is not
put through the address guard: a search proxy on localhost is a normal setup.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..exec._errors import InternalError, InvalidArguments
from ..exec._handler import HandlerContext
from ._web_fetch import Deadline, read_text, tls_context
from ._web_text import strip_tags

if TYPE_CHECKING:
    import httpx

SNIPPET_CHARS = 500
NO_PROVIDER = (
    "web_search has no search provider configured, so it cannot search. Set OPGATE_SEARCH_URL to an endpoint that "
    "answers GET ?q=<query>&count=<n> with JSON results (and OPGATE_SEARCH_API_KEY if it needs a bearer token), "
    "or pass WebSettings(search_url=...) to the gateway, then try again"
)
_FIELDS = {"title": ("title", "name"), "url": ("url", "link", "href"), "snippet": ("snippet", "description", "content", "body", "text")}


def web_search(ctx: HandlerContext, args: dict[str, Any]) -> dict[str, Any]:
    """Search the web through the configured provider; ``{query, results: [{title, url, snippet}]}``."""
    import httpx  # here, not at the top: see _web_fetch

    web = ctx.settings.web
    if not web.search_url:
        raise InternalError(NO_PROVIDER, setting="OPGATE_SEARCH_URL")
    query = " ".join(str(args["query"]).split())
    if not query:
        raise InvalidArguments("query is blank; say what to search for", field_errors=[{"field": "query", "path": "/query", "code": "blank", "message": "query has no words"}])
    count = int(args.get("max_results", 5))
    try:
        endpoint = httpx.URL(web.search_url)
    except httpx.InvalidURL as exc:
        raise InternalError(f"OPGATE_SEARCH_URL {web.search_url!r} is not a valid URL ({exc}); fix the setting", setting="OPGATE_SEARCH_URL") from None
    params: dict[str, Any] = {"q": query, "count": count}
    if args.get("search_depth") == "advanced":
        params["search_depth"] = "advanced"
    headers = {"Accept": "application/json", "User-Agent": web.user_agent}
    if web.search_api_key:
        headers["Authorization"] = f"Bearer {web.search_api_key}"
    data = _ask(endpoint.copy_merge_params(params), headers, ctx)
    results, dropped = normalise_results(data, provider=endpoint.host)
    if dropped:
        ctx.warn(f"the search provider returned {dropped} result(s) without an http(s) url; they were left out")
    return {"query": query, "results": results[:count]}


def _ask(url: httpx.URL, headers: dict[str, str], ctx: HandlerContext) -> Any:
    import httpx

    web = ctx.settings.web
    provider = url.host
    deadline = Deadline(web.timeout_s, f"the search provider {provider}")
    try:
        with httpx.Client(timeout=httpx.Timeout(web.timeout_s), follow_redirects=True, max_redirects=3, trust_env=False, verify=tls_context()) as client:
            with client.stream("GET", url, headers=headers) as response:
                body, cut = read_text(response, max_bytes=web.max_bytes, max_chars=web.max_bytes, deadline=deadline)
                status = response.status_code
    except httpx.TimeoutException:
        raise deadline.expired() from None
    except httpx.HTTPError as exc:
        raise InternalError(f"could not reach the search provider {provider} ({type(exc).__name__}: {exc}); try again later", retryable=True, provider=provider) from None
    _check_status(status, provider, body)
    if cut:
        raise InternalError(f"the search provider {provider} answered with more than {web.max_bytes} bytes; ask for fewer results", provider=provider)
    try:
        return json.loads(body)
    except json.JSONDecodeError as exc:
        raise InternalError(
            f"the search provider {provider} answered with something that is not JSON ({exc.msg} at character {exc.pos}); check OPGATE_SEARCH_URL points at a JSON search API",
            provider=provider, body_start=body[:200],
        ) from None


def _check_status(status: int, provider: str | None, body: str) -> None:
    if status < 400:
        return
    start = " ".join(body[:200].split())
    if status in (401, 403):
        raise InternalError(f"the search provider {provider} refused the request (HTTP {status}); check OPGATE_SEARCH_API_KEY", provider=provider, status=status)
    if status == 429 or status >= 500:
        raise InternalError(f"the search provider {provider} is unavailable for now (HTTP {status}); try again later", retryable=True, provider=provider, status=status)
    raise InternalError(f"the search provider {provider} rejected the request (HTTP {status}: {start!r})", provider=provider, status=status)


def _items(data: Any) -> list[Any] | None:
    if isinstance(data, list):
        return data
    if not isinstance(data, dict):
        return None
    for holder in (data, data.get("web")):
        if isinstance(holder, dict) and isinstance(holder.get("results"), list):
            return holder["results"]
    return None


def _first_text(item: dict[str, Any], names: tuple[str, ...]) -> str:
    return next((value for name in names if isinstance(value := item.get(name), str) and value.strip()), "")


def normalise_results(data: Any, *, provider: str | None = None) -> tuple[list[dict[str, str]], int]:
    """``[{title, url, snippet}]`` from a provider's JSON, and how many items had no usable url.

    Raises :class:`InternalError` when the JSON holds no results list at all.
    """
    items = _items(data)
    if items is None:
        shape = f"an object with keys {sorted(data)[:8]}" if isinstance(data, dict) else type(data).__name__
        raise InternalError(
            f"the search provider {provider} answered JSON without a results list ({shape}); expected {{\"results\": [...]}} or {{\"web\": {{\"results\": [...]}}}}",
            provider=provider,
        )
    results: list[dict[str, str]] = []
    seen: set[str] = set()
    dropped = 0
    for item in items:
        url = _first_text(item, _FIELDS["url"]).strip() if isinstance(item, dict) else ""
        if not url.lower().startswith(("http://", "https://")):
            dropped += 1
            continue
        if url in seen:
            continue
        seen.add(url)
        snippet = strip_tags(_first_text(item, _FIELDS["snippet"]))
        if len(snippet) > SNIPPET_CHARS:
            snippet = snippet[: SNIPPET_CHARS - 1].rstrip() + "…"
        results.append({"title": strip_tags(_first_text(item, _FIELDS["title"])) or url, "url": url, "snippet": snippet})
    return results, dropped


__all__ = ["NO_PROVIDER", "normalise_results", "web_search"]
