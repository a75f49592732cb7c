"""The explorer app: owns the Gateway, the read-only / allow-write mode and the context scope."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen

from opgate.core import ALL_CONTEXTS as ALL

from ._approver import ModalApprover, ModalAsker
from ._commands import OpCommands
from ._entity_names import EntityNameBook
from ._keys import APP_KEYS, BINDING_IDS, COPY_FORMATS
from ._terminal_guard import guard_terminal
from .screens.explorer import ExplorerScreen

if TYPE_CHECKING:
    from .widgets.gateway_bar import GatewayBar

# The other screens are imported when first opened (see tui.screens): the first frame needs only the explorer.

# The built-in palette commands we keep next to ours.
KEPT_SYSTEM_COMMANDS = ("Theme", "Screenshot", "Maximize", "Minimize")


class ExplorerApp(App[int]):
    """``ExplorerApp(gateway)``: browse, read, build, dry-run, run, history. See ``run_explorer``."""

    CSS_PATH = "explorer.tcss"
    TITLE = "opgate"
    BINDINGS: ClassVar = APP_KEYS
    COMMANDS: ClassVar = App.COMMANDS | {OpCommands}
    HORIZONTAL_BREAKPOINTS: ClassVar = [(0, "-tiny"), (80, "-narrow"), (110, "-wide"), (160, "-xwide")]
    # 24 rows or fewer: the form keeps the room, the raw JSON editor and payload step aside.
    VERTICAL_BREAKPOINTS: ClassVar = [(0, "-short"), (25, "-tall")]

    allow_write: reactive[bool] = reactive(False)
    context: reactive[str] = reactive(ALL)

    def __init__(
        self, gateway: Any, catalog_label: str = "built-in catalogue", *, keymap: dict[str, str] | None = None, theme: str | None = None,
        global_options: list[str] | None = None, demo: bool = False, collections_dir: str | Path | None = None, **kwargs: Any,
    ):
        super().__init__(**kwargs)
        guard_terminal()  # catalogue and stored text must not drive the terminal (see _terminal_guard)
        self.gateway = gateway
        self.catalog_label = catalog_label
        # The command-line options the explorer was started with, for "copy as a command line".
        self.global_options: list[str] = list(global_options or [])
        self.session_traces: set[str] = set()
        self.entity_names = EntityNameBook()
        self.keymap_overrides: dict[str, str] = {k: v for k, v in (keymap or {}).items() if k in BINDING_IDS}
        self.unknown_bindings = sorted(set(keymap or {}) - BINDING_IDS)
        self.wanted_theme = theme
        # A demo on a scratch copy: resetting it is harmless, so the palette offers it without a workspace check.
        self.demo = demo
        # Where saved calls go, one folder per collection (ctrl+o shows them; ctrl+s saves).
        self.collections_dir = Path(collections_dir) if collections_dir else Path.cwd() / "collections"
        self.last_collection: str | None = None
        self.set_reactive(ExplorerApp.allow_write, bool(gateway.allow_write))
        self.set_reactive(ExplorerApp.context, gateway.context or ALL)

    def get_default_screen(self) -> Screen:
        return ExplorerScreen()

    def on_mount(self) -> None:
        self.gateway.approver = ModalApprover(self)
        self.gateway.asker = ModalAsker(self)
        if self.keymap_overrides:
            self.set_keymap(self.keymap_overrides)
        if self.unknown_bindings:
            self.notify(f"opgate.toml [explorer.keymap]: no binding {', '.join(self.unknown_bindings)} (F1 lists the binding ids)", severity="warning", timeout=10, markup=False)
        for problem in self.gateway.registry.problems:
            # A server that did not start leaves its ops out of the tree: say so, or the person looks for them in vain.
            if problem.source == "upstreams" or problem.source.startswith("upstream "):
                self.notify(f"{problem.source}: {problem.message}", title="An upstream is missing", severity="warning", timeout=15, markup=False)
        if self.wanted_theme:
            if self.wanted_theme in self.available_themes:
                self.theme = self.wanted_theme
            else:
                self.notify(f"opgate.toml [explorer] theme: no theme {self.wanted_theme!r}; the palette's Theme command lists them", severity="warning", timeout=10, markup=False)

    @property
    def explorer(self) -> ExplorerScreen:
        return next(s for s in self.screen_stack if isinstance(s, ExplorerScreen))

    # -- shared state --------------------------------------------------------------------------

    def sync_bar(self, bar: GatewayBar) -> None:
        """Set a screen's top bar from the gateway (attributes down)."""
        bar.catalog = self.catalog_label
        bar.db = f"scratch demo copy (deleted at exit) {self.gateway.db_location}" if self.demo else self.gateway.db_location
        bar.context = self.context
        bar.ops = self.gateway.help_tree.root.total
        bar.allow_write = self.allow_write

    def remember(self, *envelopes: dict[str, Any]) -> None:
        """Note the trace ids of this session's calls (the history marks them) and the names their answers give."""
        for envelope in envelopes:
            self.entity_names.learn(envelope)
            trace = (envelope.get("meta") or {}).get("trace_id")
            if trace:
                self.session_traces.add(trace)

    def set_allow_write(self, allow: bool, *, announce: bool = True) -> None:
        """Turn writes on or off; ``announce=False`` when a run asked and its confirmation follows at once
        (the top bar says WRITES ON, and a toast would sit on the confirmation's buttons at 80x24)."""
        self.gateway.allow_write = allow
        self.allow_write = allow
        if not announce:
            return
        if allow:
            self.notify("Writes are ON: real runs change the workspace (each asks first).", title="Allow-write", severity="warning")
        else:
            self.notify("Read-only: real runs of writes are refused; dry-runs still work.", title="Read-only")

    def set_context(self, name: str) -> None:
        self.gateway.set_context(None if name == ALL else name)
        self.context = name
        self.notify(f"Context: {name} ({self.gateway.help_tree.root.total} op{'' if self.gateway.help_tree.root.total == 1 else 's'})", markup=False)

    async def go_to_op(self, op: str) -> None:
        """Open ``op`` in the explorer (from the palette or anywhere)."""
        while len(self.screen_stack) > 1 and not isinstance(self.screen, ExplorerScreen):
            self.pop_screen()
        await self.explorer.open_op(op)

    # -- actions ------------------------------------------------------------------------------

    def action_toggle_writes(self) -> None:
        """Turning writes off is immediate; turning them on asks once, so no stray key can arm real runs."""
        from .screens import AllowWriteScreen

        if self.allow_write:
            self.set_allow_write(False)
            return
        self.push_screen(AllowWriteScreen(None), lambda allow: allow and self.set_allow_write(True))

    def action_reset_demo(self) -> None:
        from .screens import ResetDemoScreen

        def answered(reset: bool | None) -> None:
            if reset:
                self.reset_demo_workspace()

        self.push_screen(ResetDemoScreen(self.gateway.db_location, scratch=self.demo), answered)

    @work(thread=True, exclusive=True, exit_on_error=False, group="reset", name="reset demo")
    def reset_demo_workspace(self) -> None:
        from opgate.core.store import NotAWorkspace, StoreError, reset_demo

        try:
            reset_demo(self.gateway.db_location).close()
        except (NotAWorkspace, StoreError, OSError) as exc:
            self.call_from_thread(self.notify, f"Nothing was reset: {exc}", title="Reset demo", severity="error", markup=False)
            return
        self.call_from_thread(self.notify, "The workspace holds the demo again.", title="Reset demo")

    def action_pick_context(self) -> None:
        from .screens import ContextScreen

        def chosen(name: str | None) -> None:
            if name and name != self.context:
                self.set_context(name)

        self.push_screen(ContextScreen(list(self.gateway.contexts.names), self.context), chosen)

    def action_keys_help(self) -> None:
        from .screens import KeysHelpScreen

        if not isinstance(self.screen, KeysHelpScreen):
            self.push_screen(KeysHelpScreen())

    def action_history(self) -> None:
        from .screens import HistoryScreen

        if isinstance(self.screen, HistoryScreen):
            return

        async def reopen(call: tuple[str, dict[str, Any]] | None) -> None:
            if call:
                await self.explorer.open_op(call[0], call[1])

        self.push_screen(HistoryScreen(), reopen)

    # -- command palette -------------------------------------------------------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The actions of the key lists (app and current screen), then a few of Textual's own."""
        seen: set[str] = set()
        for binding in [*APP_KEYS, *getattr(screen, "BINDINGS", [])]:
            # One command per action (ctrl+f and / both find); none that would do nothing now (Back with nowhere to go).
            if isinstance(binding, Binding) and binding.tooltip and binding.action.removeprefix("app.") not in seen:
                seen.add(binding.action.removeprefix("app."))
                target = self if binding in APP_KEYS or binding.action.startswith("app.") else screen
                if target.check_action(binding.action.removeprefix("app."), ()):
                    yield SystemCommand(binding.description, binding.tooltip, partial(target.run_action, binding.action.removeprefix("app.")))
        yield SystemCommand("Reset demo workspace", "Replace what the workspace holds with the demo (asks first)", self.action_reset_demo)
        if isinstance(screen, ExplorerScreen):
            for fmt, title in COPY_FORMATS:
                if fmt in screen.copy_formats():
                    yield SystemCommand(f"Copy as {title}", f"Copy the call being built as {title}", partial(screen.copy_as, fmt))
        for command in super().get_system_commands(screen):
            if command.title.startswith(KEPT_SYSTEM_COMMANDS):
                yield command
