"""opgate as an MCP server: the gateway's tools (or another mode's) for any MCP host.

``opgate serve`` runs it over stdio (the default) or streamable HTTP. Every
call goes through the core's ``ToolRouter`` and ``Gateway``, as in every
other front end; this package only speaks the protocol.
"""

from ._http import HttpAddress, UnsafeBind, serve_http, transport_security
from ._http_access import HttpAccess
from ._server import CONFIRMATION_TIMEOUT, GatewayMCPServer
from ._session_keys import SESSION_HEADER, SessionKey, caller_identity, scope_identity, session_key
from ._stdio import serve_stdio
from ._stdio_lines import MAX_MESSAGE_BYTES
from ._tools import is_error, listed_tools, tool_result

__all__ = [
    "CONFIRMATION_TIMEOUT",
    "MAX_MESSAGE_BYTES",
    "SESSION_HEADER",
    "GatewayMCPServer",
    "HttpAccess",
    "HttpAddress",
    "SessionKey",
    "UnsafeBind",
    "caller_identity",
    "is_error",
    "listed_tools",
    "scope_identity",
    "serve_http",
    "serve_stdio",
    "session_key",
    "tool_result",
    "transport_security",
]
