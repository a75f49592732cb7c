"""What a model sees each turn (modes), and answering its tool calls (the router)."""

from ._arguments import absent_nulls
from ._export import BYTES_PER_TOKEN, MODES, PROVIDERS, STRICT_PROVIDERS, Export, build_export, export, format_tools, mode_tools, stats
from ._gateway_tools import GATEWAY_TOOLS, gateway_tools
from ._hybrid import GENERIC_TOOLS, TYPED_LANE_BYTES, TYPED_LANE_CAP, hybrid_tools, list_tools, typed_lane
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
    "hybrid_tools",
    "list_tools",
    "mode_tools",
    "plan_namespaces",
    "stats",
    "typed_lane",
    "typed_tool",
]
