"""An HTTP op's request (a dry-run's preview) and response (status, headers, body) as Rich text.

Everything here comes from the envelope (``meta.preview``, ``meta.http``,
``error.details.http``) and is data from a server or a document: it is
assembled as ``Text``, never parsed as markup.
"""

from __future__ import annotations

import json
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from ._palette import Palette, json_syntax
from ._plain import data_text, shown


def _headers(headers: Any) -> list[Text]:
    if not isinstance(headers, dict):
        return []
    return [Text.assemble((f"{shown(name)}: ", "bold"), shown(value)) for name, value in headers.items()]


def _body(body: Any, palette: Palette) -> RenderableType:
    if isinstance(body, str):
        try:
            return json_syntax(json.loads(body), palette)
        except ValueError:
            return data_text(body)
    return json_syntax(body, palette)


def render_request(preview: dict[str, Any], palette: Palette) -> RenderableType:
    """``POST https://…``, the headers (secrets already redacted by the core), a blank line, the body as encoded."""
    parts: list[RenderableType] = [Text.assemble((f"{shown(preview.get('method', ''))} ", f"bold {palette.accent}"), shown(preview.get("url", "")))]
    parts += _headers(preview.get("headers"))
    auth = preview.get("auth")
    if isinstance(auth, dict) and auth.get("from_env"):
        parts.append(Text(f"(auth {auth.get('kind', '')}: from ${', $'.join(auth['from_env'])})", style="dim"))
    if preview.get("body") not in (None, ""):
        parts += [Text(""), _body(preview["body"], palette)]
    return Group(*parts)


def render_preview(preview: dict[str, Any], palette: Palette) -> RenderableType:
    """What a call that cannot rehearse would send: an HTTP request as a request, anything else (an MCP
    upstream's tool call) as JSON. The Result and the run confirmation show it the same way."""
    if "method" in preview:
        return render_request(preview, palette)
    return json_syntax(preview, palette)


def http_response(envelope: dict[str, Any]) -> tuple[dict[str, Any], Any] | None:
    """``(meta.http, body)`` of an HTTP op's answer, success or error; ``None`` for other ops."""
    if envelope.get("ok"):
        http = (envelope.get("meta") or {}).get("http")
        return (http, envelope.get("result")) if isinstance(http, dict) else None
    http = ((envelope.get("error") or {}).get("details") or {}).get("http")
    return (http, http.get("body")) if isinstance(http, dict) else None


def render_response(http: dict[str, Any], body: Any, palette: Palette) -> RenderableType:
    """``HTTP 201 Created``, the headers, a blank line, the body."""
    status = http.get("status")
    style = palette.success if isinstance(status, int) and status < 400 else palette.error
    parts: list[RenderableType] = [Text.assemble((f"HTTP {shown(status)} ", f"bold {style}"), shown(http.get("reason") or ""))]
    parts += _headers(http.get("headers"))
    if body is not None:
        parts += [Text(""), _body(body, palette)]
    return Group(*parts)
