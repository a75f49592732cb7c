"""Who may reach the HTTP server, and from where: the ASGI app with authentication, CORS and limits.

Without authentication the app is the SDK's plain streamable-HTTP app, as a
single person's loopback server has always been. With it, the SDK's bearer
middleware and protected-resource metadata wrap ``/mcp``, and
:class:`~._auth.CallerMiddleware` names each caller and holds it to its rate.
The Origin and Host checks (``transport_security``) apply either way; names
given in ``allowed_hosts`` / ``allowed_origins`` pass them, and listed
origins also get CORS answers, so that a browser page on them can call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

from mcp.server.auth.handlers.metadata import ProtectedResourceMetadataHandler
from mcp.server.auth.routes import cors_middleware
from mcp.server.auth.settings import AuthSettings
from mcp.shared.auth import ProtectedResourceMetadata
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import Route

from opgate.core.access import ROLES, SharedRate, TokenBook
from opgate.core.config import DEFAULT_RATE_BURST, DEFAULT_RATE_LIMIT

from ._auth import CallerMiddleware, CallerSessions, RateLimits, StoreTokenVerifier
from ._http_ids import RequestIdCheck

ROOT_METADATA_PATH = "/.well-known/oauth-protected-resource"
# Headers a browser client must be allowed to send and to read across origins.
_CORS_REQUEST_HEADERS = ["Authorization", "Content-Type", "Accept", "Mcp-Session-Id", "Mcp-Protocol-Version", "Last-Event-ID"]
_CORS_RESPONSE_HEADERS = ["Mcp-Session-Id", "WWW-Authenticate", "Retry-After"]


@dataclass(frozen=True)
class HttpAccess:
    """How the HTTP server admits callers.

    ``tokens`` set turns authentication on. ``public_url`` is the URL
    callers use for ``/mcp`` (behind a reverse proxy, the proxy's https
    URL); by default the address the server listens on.
    """

    tokens: TokenBook | None = None
    public_url: str | None = None
    allowed_origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    rate_limit: float = DEFAULT_RATE_LIMIT
    rate_burst: int = DEFAULT_RATE_BURST
    shared_rate: SharedRate | None = field(default=None, compare=False)
    """Counts each caller's rate in the database, for every server process at once (a PostgreSQL workspace)."""
    sessions: CallerSessions = field(default_factory=CallerSessions, compare=False)

    @property
    def authenticated(self) -> bool:
        return self.tokens is not None

    def exposed_names(self) -> list[str]:
        """Host names callers are told to use: a reverse proxy in front of loopback exposes them as much as a bind would."""
        public = urlsplit(self.public_url).hostname if self.public_url else None
        return [name.strip("[]") for name in (*self.allowed_hosts, public) if name]


def extra_hosts(access: HttpAccess, public_url: str) -> list[str]:
    """Host-header values to accept besides loopback ones: the listed names and the public URL's."""
    names = [*access.allowed_hosts, urlsplit(public_url).hostname or ""]
    hosts: list[str] = []
    for name in filter(None, names):
        shown = f"[{name}]" if ":" in name and not name.startswith("[") else name
        hosts += [shown, f"{shown}:*"]
    return hosts


def metadata_routes(public_url: str) -> list[Route]:
    """The RFC 9728 document at the root well-known path (the path-suffixed one comes from the SDK)."""
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(public_url))
    metadata = ProtectedResourceMetadata(
        resource=public_url, authorization_servers=[origin], scopes_supported=list(ROLES),
        resource_name="opgate",
    )
    handler = ProtectedResourceMetadataHandler(metadata)
    return [Route(ROOT_METADATA_PATH, endpoint=cors_middleware(handler.handle, ["GET", "OPTIONS"]), methods=["GET", "OPTIONS"])]


def access_app(sdk_server, *, path: str, security, host: str, access: HttpAccess, public_url: str) -> Starlette:
    """The ASGI app: the SDK's streamable HTTP app, with authentication and CORS as ``access`` says."""
    options = {}
    if access.tokens is not None:
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(public_url))
        # Our tokens are opaque and issued for this server only, so there is no audience to check.
        options = {
            "auth": AuthSettings(issuer_url=origin, resource_server_url=public_url, required_scopes=None, validate_token_resource=False),
            "token_verifier": StoreTokenVerifier(access.tokens),
            "custom_starlette_routes": metadata_routes(public_url),
        }
    app = sdk_server.streamable_http_app(streamable_http_path=path, transport_security=security, host=host, **options)
    if access.tokens is not None:
        # Innermost: it runs after the SDK's authentication middleware has set scope["user"].
        app.user_middleware.append(Middleware(CallerMiddleware, sessions=access.sessions, limits=RateLimits(access.rate_limit, access.rate_burst, shared=access.shared_rate)))
    # Innermost of ours: only a caller who passed authentication and its rate gets its body read.
    app.user_middleware.append(Middleware(RequestIdCheck, path=path))
    if access.allowed_origins:
        app.user_middleware.insert(0, Middleware(
            CORSMiddleware, allow_origins=list(access.allowed_origins), allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
            allow_headers=_CORS_REQUEST_HEADERS, expose_headers=_CORS_RESPONSE_HEADERS, max_age=600,
        ))
    return app
