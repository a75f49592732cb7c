"""opgate as an MCP server: the gateway's four tools for any MCP host.

``opgate serve`` runs it over stdio (the default) or streamable HTTP. Every
call goes through the core's ``ToolRouter`` and ``Gateway``, as in every
other front end; this package only speaks the protocol.
"""

from ._http import HttpAddress, UnsafeBind, serve_http, transport_security
from ._http_access import HttpAccess
from ._server import CONFIRMATION_TIMEOUT, GatewayMCPServer
from ._stdio import MAX_MESSAGE_BYTES, serve_stdio
from ._tools import is_error, listed_tools, tool_result

__all__ = [
    "CONFIRMATION_TIMEOUT",
    "MAX_MESSAGE_BYTES",
    "GatewayMCPServer",
    "HttpAccess",
    "HttpAddress",
    "UnsafeBind",
    "is_error",
    "listed_tools",
    "serve_http",
    "serve_stdio",
    "tool_result",
    "transport_security",
]
