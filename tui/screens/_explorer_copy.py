"""Copying the call being built: as JSON, a CLI line, Python, or for an HTTP op a curl preview.

Mixed into :class:`~opgate.tui.screens.explorer.ExplorerScreen`, which
provides ``gateway``, ``call_op`` and ``call_args``.
"""

from __future__ import annotations

from textual import work

from .._keys import COPY_FORMATS

# The call's texts, the clipboard and the menu are imported on the first copy, not before the explorer's first frame.


class CopyActions:
    """The copy key, its menu of formats, and the clipboard write off the UI thread."""

    def action_copy(self) -> None:
        if not self.call_op:
            self.notify("Nothing to copy yet: open an op first.", severity="warning")
            return
        record = self.gateway.registry.get(self.call_op)
        formats = [fmt for fmt, _ in COPY_FORMATS if fmt != "curl" or (record is not None and record.binding.kind == "http")]
        previews = {fmt: self.call_text(fmt) for fmt in formats}
        from .copy_menu import CopyScreen

        self.app.push_screen(CopyScreen(previews), lambda fmt: fmt and self.copy_as(fmt))

    def call_text(self, fmt: str) -> str:
        from .._calltext import render as render_call

        record = self.gateway.registry.get(self.call_op or "")
        if fmt == "curl":
            return self._curl_text()
        return render_call(
            fmt, self.call_op or "", self.call_args, dry_run=bool(record and record.kind == "write"),
            global_options=getattr(self.app, "global_options", []),
        )

    def _curl_text(self) -> str:
        """The request an HTTP op would send, as curl: a preview, so nothing is sent."""
        from opgate.core.executors.http import curl_command

        envelope = self.gateway.exec(self.call_op or "", self.call_args, dry_run=True)
        preview = (envelope.get("meta") or {}).get("preview") if envelope.get("ok") else None
        if isinstance(preview, dict) and "url" in preview:
            return curl_command(preview)
        return f"# no request to show: {(envelope.get('error') or {}).get('message', 'not an HTTP op')}"

    def copy_as(self, fmt: str) -> None:
        """Copy the call in ``fmt`` (``json``, ``cli``, ``python``) to the clipboard, and say what really happened."""
        if self.call_op:
            self.copy_call(self.call_text(fmt), dict(COPY_FORMATS).get(fmt, fmt))

    @work(thread=True, exclusive=True, exit_on_error=False, group="copy", name="copy")
    def copy_call(self, text: str, title: str) -> None:
        from .._clipboard import copy_text

        copied, how = copy_text(self.app, text)
        shown = text if len(text) < 300 else text[:297] + "…"
        self.app.call_from_thread(
            self.notify, f"{how}\n{shown}", title=f"{'Copied' if copied else 'Copy'}: {title}",
            severity="information" if copied else "warning", markup=False, timeout=8,
        )
