"""What a model sees each turn (modes), and answering its tool calls (the router).

Names load their module on first use: the CLI reads ``MODES`` to build its
parser, and must not load the router (and exec behind it) to do so.
"""

import typing as _typing

from .._lazy import lazy_attributes as _lazy_attributes

_LAZY = {
    "absent_nulls": "._arguments",
    "BYTES_PER_TOKEN": "._export",
    "MODES": "._names",
    "PROVIDERS": "._export",
    "STRICT_PROVIDERS": "._export",
    "Export": "._export",
    "build_export": "._export",
    "export": "._export",
    "format_tools": "._export",
    "mode_tools": "._export",
    "stats": "._export",
    "GATEWAY_TOOLS": "._gateway_tools",
    "gateway_tools": "._gateway_tools",
    "GENERIC_TOOLS": "._hybrid",
    "TYPED_LANE_BYTES": "._hybrid",
    "TYPED_LANE_CAP": "._hybrid",
    "hybrid_tool_schema": "._hybrid",
    "hybrid_tools": "._hybrid",
    "list_tools": "._hybrid",
    "typed_lane": "._hybrid",
    "NAMESPACE_CAP": "._namespaces",
    "plan_namespaces": "._namespaces",
    "PROTOCOL_TOOLS": "._protocol_tools",
    "LOOP_THRESHOLD": "._router",
    "RETRY_LIMIT": "._router",
    "ROUTER_MODES": "._router",
    "ToolRouter": "._router",
    "ToolSpec": "._spec",
    "typed_tool": "._spec",
}

if _typing.TYPE_CHECKING:
    from ._arguments import absent_nulls
    from ._names import MODES
    from ._export import BYTES_PER_TOKEN, PROVIDERS, STRICT_PROVIDERS, Export, build_export, export, format_tools, mode_tools, stats
    from ._gateway_tools import GATEWAY_TOOLS, gateway_tools
    from ._hybrid import GENERIC_TOOLS, TYPED_LANE_BYTES, TYPED_LANE_CAP, hybrid_tool_schema, hybrid_tools, list_tools, typed_lane
    from ._namespaces import NAMESPACE_CAP, plan_namespaces
    from ._protocol_tools import PROTOCOL_TOOLS
    from ._router import LOOP_THRESHOLD, RETRY_LIMIT, ROUTER_MODES, ToolRouter
    from ._spec import ToolSpec, typed_tool

__all__ = [
    "BYTES_PER_TOKEN",
    "GATEWAY_TOOLS",
    "GENERIC_TOOLS",
    "LOOP_THRESHOLD",
    "MODES",
    "NAMESPACE_CAP",
    "PROTOCOL_TOOLS",
    "PROVIDERS",
    "RETRY_LIMIT",
    "ROUTER_MODES",
    "STRICT_PROVIDERS",
    "TYPED_LANE_BYTES",
    "TYPED_LANE_CAP",
    "Export",
    "ToolRouter",
    "ToolSpec",
    "absent_nulls",
    "build_export",
    "export",
    "format_tools",
    "gateway_tools",
    "hybrid_tool_schema",
    "hybrid_tools",
    "list_tools",
    "mode_tools",
    "plan_namespaces",
    "stats",
    "typed_lane",
    "typed_tool",
]

__getattr__ = _lazy_attributes(__name__, globals(), _LAZY)
