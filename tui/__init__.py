"""The Textual explorer over opgate.core: browse ops, read help, build calls, dry-run, run, history.

``import opgate.tui`` stays light: Textual is imported when :func:`run_explorer`
(or :func:`make_app`) is called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import ExplorerApp

__all__ = ["make_app", "run_explorer"]


def make_app(gateway: Any, catalog_label: str = "built-in catalogue", **options: Any) -> ExplorerApp:
    """The explorer app over ``gateway`` (tests drive it with ``run_test()``)."""
    from .app import ExplorerApp

    return ExplorerApp(gateway, catalog_label, **options)


def run_explorer(
    gateway: Any, *, catalog_label: str = "built-in catalogue", keymap: dict[str, str] | None = None,
    theme: str | None = None, global_options: list[str] | None = None, demo: bool = False, collections_dir: Any = None,
) -> int:
    """Run the explorer in the terminal until the person quits; the exit status.

    ``keymap`` maps binding ids (F1 lists them) to keys, ``theme`` names a
    Textual theme: both usually come from ``[explorer]`` in opgate.toml.
    ``collections_dir`` is the folder of saved collections (default: ./collections).
    """
    app = make_app(
        gateway, catalog_label, keymap=keymap, theme=theme, global_options=global_options, demo=demo, collections_dir=collections_dir,
    )
    result = app.run()
    return int(result or app.return_code or 0)
