"""The explorer's screens, one per module."""

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
