"""The main screen: the op tree on the left; Docs, Build and Result on the right."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Static, TabbedContent, TabPane

from .._failures import ReportsWorkerFailures
from .._keys import EXPLORER_BINDINGS
from .._plain import shown
from ..widgets.collection_browser import CollectionBrowser
from ..widgets.gateway_bar import GatewayBar
from ..widgets.key_footer import KeyFooter
from ..widgets.op_docs import OpDocs
from ..widgets.op_tree import OpTree
from ._explorer_copy import CopyActions
from ._explorer_ids import CallIds
from ._explorer_moves import ExplorerMoves
from ._explorer_panes import DeferredPanes
from .explorer_collections import CollectionActions

if TYPE_CHECKING:
    from ..widgets.call_builder import CallBuilder
    from ..widgets.entity_links import EntityLinks

# The widget each tab focuses (the Build and Result panes are mounted after the first frame: see DeferredPanes).
FOCUS_IN_TAB = {"docs": "#docs-view", "build": "#builder", "result": "#result-view"}


class ExplorerScreen(DeferredPanes, ExplorerMoves, CopyActions, CallIds, ReportsWorkerFailures, CollectionActions):
    """Browse, read, build, dry-run and run. Every gateway call runs in a thread worker."""

    BINDINGS: ClassVar = EXPLORER_BINDINGS

    @dataclass
    class HelpLoaded(Message):
        op: str
        payload: dict[str, Any]

    @dataclass
    class CallStarted(Message):
        """``gw.exec`` was asked; the top bar says so until :class:`CallDone` (an upstream may take seconds)."""

        op: str

    @dataclass
    class CallDone(Message):
        """``gw.exec`` answered. ``purpose`` is ``show`` (a call to display) or ``preview`` (the dry-run before a confirm)."""

        op: str
        args: dict[str, Any]
        envelope: dict[str, Any]
        purpose: str = "show"

    @dataclass
    class Unopenable(Message):
        """No visible ``onto.<kind>.get`` can open this entity."""

        entity_id: str

    def __init__(self) -> None:
        super().__init__()
        self.current_op: str | None = None
        self.shown_path: str | None = None
        self.call_op: str | None = None
        self.call_args: dict[str, Any] = {}
        self.field_errors: list[dict[str, Any]] = []
        self.busy = False
        # Chosen before the first dry-run and kept until a real write succeeds, so the
        # ids a dry-run shows are the ids the confirmation shows and the run creates.
        self.id_seed = secrets.token_hex(16)
        self.init_moves()
        self.init_panes()

    def compose(self) -> ComposeResult:
        yield GatewayBar()
        yield Static("", id="breadcrumb")
        with Horizontal(id="main"):
            yield OpTree(id="tree")
            yield CollectionBrowser(id="collections")
            with TabbedContent(id="tabs", initial="docs"):
                with TabPane("Docs", id="docs"):
                    yield OpDocs(id="docs-view")
                # Hidden at first: filled once the first frame is drawn (see mount_panes).
                yield TabPane("Build", id="build")
                yield TabPane("Result", id="result")
        yield KeyFooter(compact=True)

    def on_mount(self) -> None:
        self.watch(self.app, "allow_write", lambda _: self.app.sync_bar(self.query_one(GatewayBar)))  # type: ignore[attr-defined]
        self.watch(self.app, "context", lambda _: self.reload_tree(), init=False)
        self.reload_tree()
        self.query_one("#breadcrumb").display = False
        self.query_one(OpTree).focus()
        self.call_after_refresh(self.mount_panes)
        self.call_after_refresh(self.warm_up)

    @work(thread=True, exit_on_error=False, group="warm-up", name="warm up the validator")
    def warm_up(self) -> None:
        """After the first frame: import and make what the first opened op needs (jsonschema), off the UI thread."""
        from ..widgets.call_builder import validator

        validator()

    @property
    def gateway(self) -> Any:
        return self.app.gateway  # type: ignore[attr-defined]

    def reload_tree(self) -> None:
        """The context scope changed (or the app started): rebuild the tree from ``gw.help_tree``."""
        self.app.sync_bar(self.query_one(GatewayBar))  # type: ignore[attr-defined]
        self.query_one(OpTree).help_tree = self.gateway.help_tree
        if self.call_op and not self.gateway.is_visible(self.call_op):
            self.notify(f"{self.call_op} is not an op of this context; the builder keeps it, but it cannot run here", severity="warning", markup=False)

    # -- browsing -----------------------------------------------------------------------------

    @on(OpTree.OpHighlighted)
    def _highlighted(self, event: OpTree.OpHighlighted) -> None:
        self.current_op = self.shown_path = event.op
        self.load_help(event.op)

    @on(OpTree.GroupHighlighted)
    def _group_highlighted(self, event: OpTree.GroupHighlighted) -> None:
        path = f"{event.path}.{event.kind}" if event.kind else event.path
        self.current_op = None
        self.shown_path = path
        self.load_help(path)

    @on(OpTree.OpChosen)
    async def _chosen(self, event: OpTree.OpChosen) -> None:
        await self.open_op(event.op)

    @work(thread=True, exclusive=True, exit_on_error=False, group="help", name="help")
    def load_help(self, path: str) -> None:
        """Help for an op (full) or a group; shown if the cursor is still there."""
        self.post_message(self.HelpLoaded(path, self.gateway.help(path, format="full")))

    @on(HelpLoaded)
    def _help_loaded(self, event: HelpLoaded) -> None:
        if event.op == self.shown_path:
            self.query_one(OpDocs).payload = event.payload

    async def open_op(self, op: str, args: dict[str, Any] | None = None, *, tab: str = "build") -> bool:
        """Show ``op`` in the tree and the docs, and start a call to it in the builder."""
        record = self.gateway.registry.get(op)
        if record is None or not self.gateway.is_visible(op):
            self.notify(f"{op} is not an op of the current context", severity="warning", markup=False)
            return False
        if not await self.mount_panes():
            return False
        with self.one_frame():
            self.query_one(OpTree).reveal(op)
            self.current_op = self.shown_path = op
            self.load_help(op)
            await self.builder.open(record, args)
            self.action_show_tab(tab)
            if tab == "build":
                self.builder.focus_first_needed()
            self.show_breadcrumb()
        return True

    def action_show_tab(self, tab: str) -> None:
        self.after_panes(lambda: self._show_tab(tab))

    def _show_tab(self, tab: str) -> None:
        tabs = self.query_one(TabbedContent)
        if tab == "docs" and self.call_op and not self.query_one(OpTree).has_focus and self.shown_path != self.call_op:
            # From the builder or a result, Docs is about the call being built, not where the tree cursor was left.
            self.shown_path = self.call_op
            self.load_help(self.call_op)
        if tab == "docs" and tabs.active == "docs" and self.query_one(OpDocs).has_focus:
            self.query_one(OpDocs).show_schema = not self.query_one(OpDocs).show_schema  # F2 again: the schema
        tabs.active = tab
        widget = self.query_one(FOCUS_IN_TAB[tab])
        if tab == "build":
            self.builder.focus_first_needed()
        else:
            widget.focus()

    def action_toggle_schema(self) -> None:
        self.after_panes(self._toggle_schema)

    def _toggle_schema(self) -> None:
        docs = self.query_one(OpDocs)
        schema = not docs.show_schema
        self._show_tab("docs")  # on the focused Docs tab this is "F2 again", which toggles too: set it after
        docs.show_schema = schema

    # -- building ---------------------------------------------------------------------------

    # Named handlers, not @on: the classes of these messages are imported after the first frame.
    def on_call_builder_changed(self, event: CallBuilder.Changed) -> None:
        changed_op = event.op != self.call_op
        self.call_op, self.call_args, self.field_errors = event.op, event.args, event.field_errors
        if changed_op:
            self.refresh_bindings()  # F5/F6 are disabled for browse-only ops

    async def action_insert_example(self) -> None:
        if not await self.mount_panes():
            return
        builder = self.builder
        if builder.record is None and self.current_op:
            await self.open_op(self.current_op)
        record = builder.record
        if record is None or not record.examples:
            self.notify("This op has no examples.", severity="warning")
            return
        builder.example_index = (builder.example_index + 1) % len(record.examples)
        example = record.examples[builder.example_index]
        await builder.set_args(dict(example.get("args") or {}))
        self.action_show_tab("build")
        self.notify(f"Example {builder.example_index + 1}/{len(record.examples)}: {example.get('title', '')}", markup=False)

    # -- running ----------------------------------------------------------------------------------

    async def _ready(self) -> Any:
        if not await self.mount_panes():
            return None
        builder = self.builder
        if builder.record is None:
            if self.current_op:
                await self.open_op(self.current_op)
                self.notify("Fill in the form, then press the key again.")
            else:
                self.notify("Pick an op first: / finds one.", severity="warning")
            return None
        if not builder.record.runnable:
            self.notify(f"{builder.record.op} cannot run here: {builder.record.binding.why_not_runnable}.", title="Browse only", severity="warning", timeout=8)
            return None
        if builder.has_problems:
            self.notify("Some fields hold text that is not a value; fix the marked fields first.", severity="error")
            return None
        return builder.record

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """F5 and F6 are shown disabled for an op that nothing can run here; Back only when there is a way back."""
        if action == "back":
            return bool(self.back_stack)
        if action in ("dry_run", "run") and not self.query_one(CollectionBrowser).has_focus:
            record = self.gateway.registry.get(self.call_op or "")
            if record is not None and not record.runnable:
                return None
        return True

    async def action_dry_run(self) -> None:
        if self.query_one(CollectionBrowser).has_focus:
            self.run_from_collections(dry_run=True)
            return
        record = await self._ready()
        if record is not None:
            self.exec_call(record.op, self.call_args, dry_run=True)

    async def action_run(self) -> None:
        if self.query_one(CollectionBrowser).has_focus:
            self.run_from_collections(dry_run=False)
            return
        record = await self._ready()
        if record is None:
            return
        if record.kind == "read":
            self.exec_call(record.op, self.call_args)
        elif not self.gateway.allow_write:
            from .allow_write import AllowWriteScreen

            def answered(allow: bool | None) -> None:
                if allow:
                    self.app.set_allow_write(True, announce=False)  # type: ignore[attr-defined]
                    self._confirm_then_run(record)
                else:
                    self.notify("Still read-only: nothing was written. F5 dry-runs.", severity="warning")
            self.app.push_screen(AllowWriteScreen(record.op), answered)
        else:
            self._confirm_then_run(record)

    def _confirm_then_run(self, record: Any) -> None:
        if record.requires_confirmation:
            # The gateway dry-runs it and asks gw.approver, which opens the same modal.
            self.exec_call(record.op, self.call_args)
        else:
            self.exec_call(record.op, self.call_args, dry_run=True, purpose="preview")

    @work(thread=True, exclusive=True, exit_on_error=False, group="exec", name="exec")
    def exec_call(self, op: str, args: dict[str, Any], *, dry_run: bool = False, purpose: str = "show", state_digest: str | None = None) -> None:
        self.post_message(self.CallStarted(f"{op} (dry-run)" if dry_run else op))
        envelope = self.gateway.exec(op, args, dry_run=dry_run, state_digest=state_digest, id_seed=self.id_seed)
        self.post_message(self.CallDone(op, args, envelope, purpose))

    @on(CallStarted)
    def _call_started(self, event: CallStarted) -> None:
        self.query_one(GatewayBar).running = event.op

    def worker_failed(self, worker: Any) -> None:
        self.query_one(GatewayBar).running = ""

    @on(CallDone)
    async def _call_done(self, event: CallDone) -> None:
        self.query_one(GatewayBar).running = ""
        self.app.remember(event.envelope)  # type: ignore[attr-defined]
        meta = event.envelope.get("meta") or {}
        if event.envelope.get("ok") and meta.get("diff") and not meta.get("dry_run"):
            self.id_seed = secrets.token_hex(16)  # those ids are taken now: the next call gets new ones
        if event.purpose != "entity":
            self.last_call = (event.op, event.args, event.envelope)
        if not await self.mount_panes():
            return
        if event.purpose == "entity":
            self.remember_place(self.result_view.envelope)
            await self.open_op(event.op, event.args, tab="result")
            self.last_call = (event.op, event.args, event.envelope)
            self.refresh_bindings()
        if event.purpose == "preview" and event.envelope.get("ok"):
            from .confirm_run import ConfirmRunScreen

            digest = (event.envelope.get("meta") or {}).get("state_digest")

            def answered(run: bool | None) -> None:
                if run:
                    self.exec_call(event.op, event.args, state_digest=digest)
                else:
                    self.notify("Cancelled: nothing was written.")

            self.app.push_screen(ConfirmRunScreen(event.op, event.args, event.envelope), answered)
            return
        self.show_result(event.envelope)

    def show_result(self, envelope: dict[str, Any]) -> None:
        self.after_panes(lambda: self._show_result(envelope))

    def from_store(self, envelope: dict[str, Any]) -> bool:
        """Whether the op that answered ran on the store: only then are the ids it names entities a get op opens."""
        record = self.gateway.registry.get(str(envelope.get("op") or ""))
        return record is None or record.binding.kind == "store"

    def _show_result(self, envelope: dict[str, Any]) -> None:
        self.result_view.show(envelope, from_store=self.from_store(envelope))
        self._show_tab("result")
        if envelope.get("ok"):
            dry = " (dry-run)" if (envelope.get("meta") or {}).get("dry_run") else ""
            self.notify(f"{envelope.get('op')}: ok{dry}", timeout=3, markup=False)
        elif ((envelope.get("error") or {}).get("details") or {}).get("cancelled"):
            self.notify("Cancelled: nothing was written.", markup=False)  # the person's "no" is not an error
        else:
            error = envelope.get("error") or {}
            self.notify(shown(error.get("message", "")), title=shown(error.get("code", "error")), severity="error", timeout=8, markup=False)

    # -- entities -------------------------------------------------------------------------------

    def on_entity_links_entity_chosen(self, event: EntityLinks.EntityChosen) -> None:
        self.open_entity(event.id, event.kind)

    def on_entity_links_id_chosen(self, event: EntityLinks.IdChosen) -> None:
        self.copy_call(event.id, "an id from the answer")

    def _get_op(self, kind: str | None) -> str | None:
        op = f"onto.{kind}.get"
        return op if kind and self.gateway.is_visible(op) else None

    @work(thread=True, exclusive=True, exit_on_error=False, group="exec", name="open entity")
    def open_entity(self, entity_id: str, kind: str | None) -> None:
        op = self._get_op(kind)
        if op is None and self.gateway.is_visible("onto.entity.relationships.get"):
            found = self.gateway.exec("onto.entity.relationships.get", {"entity_id": entity_id, "limit": 1})
            op = self._get_op(((found.get("result") or {}).get("entity") or {}).get("kind"))
        if op is None:
            self.post_message(self.Unopenable(entity_id))
            return
        args = {f"{op.split('.')[1]}_id": entity_id}
        envelope = self.gateway.exec(op, args)
        self.post_message(self.CallDone(op, args, envelope, "entity"))

    @on(Unopenable)
    def _unopenable(self, event: Unopenable) -> None:
        self.notify(f"No get op opens {event.entity_id} in this context", severity="warning", markup=False)
