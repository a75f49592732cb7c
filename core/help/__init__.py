"""``help``: the namespace tree and its compact payloads."""

from ._args import describe_args, type_label, usage_line
from ._service import HelpService, help_error
from ._tree import HelpNode, HelpTree

__all__ = ["HelpNode", "HelpService", "HelpTree", "describe_args", "help_error", "type_label", "usage_line"]
