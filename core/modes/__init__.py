"""What a model sees each turn (modes), and answering its tool calls (the router)."""

from ._export import BYTES_PER_TOKEN, MODES, PROVIDERS, export, mode_tools, stats
from ._gateway_tools import gateway_tools, namespace_map
from ._hybrid import GENERIC_TOOLS, TYPED_LANE_BYTES, TYPED_LANE_CAP, hybrid_tools, list_tools, typed_lane
from ._protocol_tools import PROTOCOL_TOOLS
from ._router import LOOP_THRESHOLD, RETRY_LIMIT, ROUTER_MODES, ToolRouter
from ._spec import ToolSpec, typed_tool

__all__ = [
    "BYTES_PER_TOKEN",
    "GENERIC_TOOLS",
    "LOOP_THRESHOLD",
    "MODES",
    "PROTOCOL_TOOLS",
    "PROVIDERS",
    "RETRY_LIMIT",
    "ROUTER_MODES",
    "TYPED_LANE_BYTES",
    "TYPED_LANE_CAP",
    "ToolRouter",
    "ToolSpec",
    "export",
    "gateway_tools",
    "hybrid_tools",
    "list_tools",
    "mode_tools",
    "namespace_map",
    "stats",
    "typed_lane",
    "typed_tool",
]
