"""The explorer's screens, one per module.

Each name is imported when first read: the first frame needs only a few of
them, and importing the rest (the form, the history, the modals) would delay it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from opgate.core._lazy import lazy_attributes

if TYPE_CHECKING:
    from .allow_write import AllowWriteScreen
    from .confirm_run import ConfirmRunScreen
    from .context_picker import ContextScreen
    from .copy_menu import CopyScreen
    from .elicit import ElicitScreen
    from .explorer import ExplorerScreen
    from .export_call import ExportCallScreen
    from .history import HistoryScreen
    from .id_picker import IdPickerScreen
    from .jump import JumpScreen
    from .keys_help import KeysHelpScreen
    from .reset_demo import ResetDemoScreen
    from .run_report import RunReportScreen
    from .save_call import SaveCallScreen

_MODULES = {
    "AllowWriteScreen": ".allow_write",
    "ConfirmRunScreen": ".confirm_run",
    "ContextScreen": ".context_picker",
    "CopyScreen": ".copy_menu",
    "ElicitScreen": ".elicit",
    "ExplorerScreen": ".explorer",
    "ExportCallScreen": ".export_call",
    "HistoryScreen": ".history",
    "IdPickerScreen": ".id_picker",
    "JumpScreen": ".jump",
    "KeysHelpScreen": ".keys_help",
    "ResetDemoScreen": ".reset_demo",
    "RunReportScreen": ".run_report",
    "SaveCallScreen": ".save_call",
}

__all__ = [
    "AllowWriteScreen",
    "ConfirmRunScreen",
    "ContextScreen",
    "CopyScreen",
    "ElicitScreen",
    "ExplorerScreen",
    "ExportCallScreen",
    "HistoryScreen",
    "IdPickerScreen",
    "JumpScreen",
    "KeysHelpScreen",
    "ResetDemoScreen",
    "RunReportScreen",
    "SaveCallScreen",
]

__getattr__ = lazy_attributes(__name__, globals(), _MODULES)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})  # the names not loaded yet too
