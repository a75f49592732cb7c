"""The explorer's collection work: save the call being built, browse collections, run a call or a whole collection.

A mixin of :class:`ExplorerScreen`, kept apart so the screen file stays about
browsing, building and running one call. Every file read, save and run
happens in a thread worker; results come back as messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.message import Message
from textual.screen import Screen

from ..widgets.collection_browser import CollectionBrowser, Listing
from ..widgets.op_tree import OpTree

if TYPE_CHECKING:
    from opgate.core.collection import RunReport

    from .save_call import SaveRequest

# The dialogs and the report screen are imported when first opened, not before the explorer's first frame.

DEFAULT_COLLECTION = "checks"


def list_collections(folder: Path) -> Listing:
    """Every collection under ``folder`` and those shipped with opgate; the broken ones with their first problem."""
    # opgate.core.collection is imported where it is used, as below: the explorer's first frame does without it.
    from opgate.core.collection import CollectionError, load_collection, shipped_collections

    shipped = shipped_collections()
    paths = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")) if folder.is_dir() else []
    loaded, broken = [], []
    for path in [*paths, *(p for name, p in shipped.items() if not (folder / name).exists())]:
        try:
            loaded.append(load_collection(path))
        except CollectionError as exc:
            broken.append((path, exc.problems[0]))
    return Listing(tuple(loaded), tuple(broken), frozenset(shipped.values()))


def combined_diff(report: RunReport) -> dict[str, list[Any]]:
    diff: dict[str, list[Any]] = {}
    for call in report.calls:
        for key, entries in ((call.envelope.get("meta") or {}).get("diff") or {}).items():
            diff.setdefault(key, []).extend(entries)
    return diff


class CollectionActions(Screen[None]):
    """The explorer screen's base for collections (it provides ``gateway``, ``open_op``, ``show_result``, ``call_op``...).

    A Screen itself, not a plain mixin: Textual registers ``@on`` handlers only on classes made by its metaclass.
    """

    last_call: tuple[str, dict[str, Any], dict[str, Any]] | None = None

    @dataclass
    class CollectionsLoaded(Message):
        listing: Listing

    @dataclass
    class CallSaved(Message):
        path: Path | None
        problem: str = ""

    @dataclass
    class CollectionRan(Message):
        report: RunReport
        preview: bool = False

    # -- browsing ---------------------------------------------------------------------------

    @property
    def collections_dir(self) -> Path:
        return Path(getattr(self.app, "collections_dir", None) or Path.cwd() / "collections")  # type: ignore[attr-defined]

    @work(thread=True, exclusive=True, exit_on_error=False, group="collections", name="collections")
    def load_collections(self) -> None:
        self.post_message(self.CollectionsLoaded(list_collections(self.collections_dir)))  # type: ignore[attr-defined]

    @on(CollectionsLoaded)
    def _collections_loaded(self, event: CollectionsLoaded) -> None:
        self.query_one(CollectionBrowser).listing = event.listing  # type: ignore[attr-defined]

    def collections_shown(self) -> bool:
        return self.query_one(CollectionBrowser).display  # type: ignore[attr-defined]

    def action_toggle_collections(self) -> None:
        """Show the collections in the left pane instead of the op tree, or the tree again."""
        browser, tree = self.query_one(CollectionBrowser), self.query_one(OpTree)  # type: ignore[attr-defined]
        show = not browser.display
        browser.display, tree.display = show, not show
        (browser if show else tree).focus()
        if show:
            self.load_collections()

    @on(CollectionBrowser.CallChosen)
    async def _call_chosen(self, event: CollectionBrowser.CallChosen) -> None:
        collection = self._collection(event.path)
        if collection is not None and event.position < len(collection.calls):
            call = collection.calls[event.position]
            await self.open_op(call.op, dict(call.args))  # type: ignore[attr-defined]

    def _collection(self, path: Path) -> Any:
        """The loaded collection at ``path``, or None (it could not load, or the listing changed)."""
        listing = self.query_one(CollectionBrowser).listing  # type: ignore[attr-defined]
        return next((c for c in listing.collections if c.path == path), None)

    # -- saving -----------------------------------------------------------------------------

    def action_save_call(self) -> None:
        """Save the call being built (ctrl+s), expecting what it last answered if it ran."""
        op, args = self.call_op, dict(self.call_args)  # type: ignore[attr-defined]
        if not op:
            self.notify("Nothing to save yet: open an op and build a call first.", severity="warning")  # type: ignore[attr-defined]
            return
        last = self.last_call
        envelope = last[2] if last and last[0] == op and last[1] == args else None
        self.ask_to_save(op, args, envelope)

    def ask_to_save(self, op: str, args: dict[str, Any], envelope: dict[str, Any] | None) -> None:
        """The save dialog, then the save (also used by the history screen)."""
        from opgate.core.collection import expectation_text, recorded_expectation

        from .save_call import SaveCallScreen

        expected = recorded_expectation(envelope)
        folder = self.collections_dir
        existing = sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
        default = getattr(self.app, "last_collection", None) or (existing[0] if existing else DEFAULT_COLLECTION)  # type: ignore[attr-defined]
        screen = SaveCallScreen(op, collection=default, name=".".join(op.split(".")[-2:]).replace(".", "_"),
                                expected=expected, expected_text=expectation_text(expected), existing=existing)

        def answered(request: SaveRequest | None) -> None:
            if request is not None:
                self.app.last_collection = request.collection  # type: ignore[attr-defined]
                self.save_to_collection(op, args, request)

        self.app.push_screen(screen, answered)  # type: ignore[attr-defined]

    @work(thread=True, exit_on_error=False, group="collections", name="save call")
    def save_to_collection(self, op: str, args: dict[str, Any], request: SaveRequest) -> None:
        from opgate.core.collection import CollectionError, save_call

        try:
            path = save_call(self.collections_dir / request.collection, op, args, name=request.name, notes=request.notes, expect=request.expect)
        except (CollectionError, OSError) as exc:
            self.post_message(self.CallSaved(None, str(exc)))  # type: ignore[attr-defined]
            return
        self.post_message(self.CallSaved(path))  # type: ignore[attr-defined]

    @on(CallSaved)
    def _saved(self, event: CallSaved) -> None:
        if event.path is None:
            self.notify(f"Not saved: {event.problem}", severity="error", markup=False)  # type: ignore[attr-defined]
            return
        self.notify(f"Saved to {event.path}", title="Saved", markup=False)  # type: ignore[attr-defined]
        if self.collections_shown():
            self.load_collections()

    # -- running ----------------------------------------------------------------------------

    def run_from_collections(self, *, dry_run: bool) -> None:
        """F5/F6 while the collections have focus: the call under the cursor, or its whole collection."""
        selected = self.query_one(CollectionBrowser).selected  # type: ignore[attr-defined]
        if selected is None:
            self.notify("Put the cursor on a collection or one of its calls.", severity="warning")  # type: ignore[attr-defined]
            return
        collection = self._collection(selected.path)
        if collection is None:
            self.notify("This collection cannot load; fix its files first (opgate run lists every problem).", severity="error")  # type: ignore[attr-defined]
            return
        from opgate.core.collection import refers_to_earlier_calls

        only = None if selected.position is None else [selected.position]
        if only and refers_to_earlier_calls(collection.calls[only[0]].args):
            if not dry_run:
                self.notify("This call uses earlier calls' answers, so it cannot run alone: run its collection (F6 on the collection).", severity="warning")  # type: ignore[attr-defined]
                return
            # On the scratch copy the calls before it can run again freely, and give it the answers it needs.
            only = list(range(only[0] + 1))
        calls = collection.calls if only is None else [collection.calls[i] for i in only]
        writes = [c.op for c in calls if (r := self.gateway.registry.resolve(c.op)) is not None and r.kind == "write"]  # type: ignore[attr-defined]
        if dry_run or not writes:
            self.run_saved(collection, only, dry_run=dry_run)
        elif not self.gateway.allow_write:  # type: ignore[attr-defined]
            from .allow_write import AllowWriteScreen

            def answered(allow: bool | None) -> None:
                if allow:
                    self.app.set_allow_write(True, announce=False)  # type: ignore[attr-defined]
                    self.run_saved(collection, only, dry_run=True, preview=True)
            self.app.push_screen(AllowWriteScreen(", ".join(sorted(set(writes)))), answered)  # type: ignore[attr-defined]
        else:
            # As with one call: the person sees every diff (from a dry-run) before anything is written.
            self.run_saved(collection, only, dry_run=True, preview=True)

    @work(thread=True, exclusive=True, exit_on_error=False, group="exec", name="run collection")
    def run_saved(self, collection: Any, only: list[int] | None, *, dry_run: bool, preview: bool = False) -> None:
        from opgate.core.collection import run_collection

        report = run_collection(self.gateway, collection, only=only, dry_run=dry_run)  # type: ignore[attr-defined]
        self.post_message(self.CollectionRan(report, preview))  # type: ignore[attr-defined]

    @on(CollectionRan)
    def _collection_ran(self, event: CollectionRan) -> None:
        report = event.report
        if event.preview:
            self._confirm_collection(report)
            return
        self.app.remember(*(c.envelope for c in report.calls))  # type: ignore[attr-defined]
        from .run_report import RunReportScreen

        def chosen(index: int | None) -> None:
            if index is not None:
                self.show_result(report.calls[index].envelope)  # type: ignore[attr-defined]

        self.app.push_screen(RunReportScreen(report), chosen)  # type: ignore[attr-defined]

    def _confirm_collection(self, report: RunReport) -> None:
        from .confirm_run import ConfirmRunScreen

        passed, failed = report.counts
        only = None if len(report.calls) == len(report.collection.calls) else [c.position for c in report.calls]
        summary = f"{len(report.calls)} call{'' if len(report.calls) == 1 else 's'} of {report.collection.name}; the diffs of a dry-run of all of them together" + (f"; {failed} failed their expectations in the dry-run" if failed else "")
        preview = {"ok": True, "result": None, "meta": {"diff": combined_diff(report)}}

        def answered(run: bool | None) -> None:
            if run:
                self.run_saved(report.collection, only, dry_run=False)
            else:
                self.notify("Collection not run: nothing was written.")  # type: ignore[attr-defined]

        self.app.push_screen(ConfirmRunScreen(f"collection {report.collection.name}", {"calls": [c.call.name for c in report.calls]}, preview, summary=summary), answered)  # type: ignore[attr-defined]
