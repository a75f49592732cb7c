"""Copying the call being built: as JSON, a CLI line, Python, or for an HTTP op a curl preview.

Mixed into :class:`~opgate.tui.screens.explorer.ExplorerScreen`, which
provides ``gateway``, ``call_op`` and ``call_args``.
"""

from __future__ import annotations

from textual import work

from .._keys import COPY_FORMATS

# The call's texts, the clipboard and the menu are imported on the first copy, not before the explorer's first frame.

NO_REQUEST = "# no request to show: "  # what the curl text says when there is no request (the menu shows it as the preview)


class CopyActions:
    """The copy key, its menu of formats, and the clipboard write off the UI thread."""

    def action_copy(self) -> None:
        if not self.call_op:
            self.notify("Nothing to copy yet: open an op first.", severity="warning")
            return
        previews = {fmt: self.call_text(fmt) for fmt in self.copy_formats()}
        from .copy_menu import CopyScreen

        self.app.push_screen(CopyScreen(previews), lambda fmt: fmt and self.copy_as(fmt))

    def copy_formats(self) -> list[str]:
        """The formats the call being built copies as: curl only for an HTTP op (the menu and the palette offer these)."""
        record = self.gateway.registry.get(self.call_op or "")
        return [fmt for fmt, _ in COPY_FORMATS if fmt != "curl" or (record is not None and record.binding.kind == "http")]

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
        return f"{NO_REQUEST}{(envelope.get('error') or {}).get('message', 'not an HTTP op')}"

    def copy_as(self, fmt: str) -> None:
        """Copy the call in ``fmt`` (``json``, ``cli``, ``python``) to the clipboard, and say what really happened."""
        if not self.call_op:
            return
        if fmt not in self.copy_formats():
            self.notify(f"{self.call_op} is not an HTTP op: there is no request to copy as curl.", title="Nothing copied", severity="warning", markup=False)
            return
        text = self.call_text(fmt)
        if text.startswith(NO_REQUEST):
            # The preview failed (a missing argument...): copying the comment would say "Copied" and give nothing to run.
            self.notify(text.removeprefix("# "), title="Nothing copied", severity="warning", markup=False)
            return
        self.copy_call(text, dict(COPY_FORMATS).get(fmt, fmt))

    @work(thread=True, exclusive=True, exit_on_error=False, group="copy", name="copy")
    def copy_call(self, text: str, title: str) -> None:
        from .._clipboard import copy_text

        copied, how = copy_text(self.app, text)
        shown = text if len(text) < 300 else text[:297] + "…"
        self.app.call_from_thread(
            self.notify, f"{how}\n{shown}", title=f"{'Copied' if copied else 'Copy'}: {title}",
            severity="information" if copied else "warning", markup=False, timeout=8,
        )
