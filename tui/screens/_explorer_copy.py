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
    """The copy key, its menu of formats, and the texts and the clipboard write off the UI thread (a curl
    text asks the gateway for a preview, which reads the op's document and builds the request)."""

    def action_copy(self) -> None:
        if not self.call_op:
            self.notify("Nothing to copy yet: open an op first.", severity="warning")
            return
        self._copy_menu(self.call_op, dict(self.call_args))

    @work(thread=True, exclusive=True, exit_on_error=False, group="copy", name="copy menu")
    def _copy_menu(self, op: str, args: dict) -> None:
        texts = {fmt: self.call_text(fmt, op, args) for fmt in self.copy_formats(op)}
        self.app.call_from_thread(self._show_copy_menu, texts)

    def _show_copy_menu(self, texts: dict[str, str]) -> None:
        from .copy_menu import CopyScreen

        self.app.push_screen(CopyScreen(texts), lambda fmt: fmt and self._copy_chosen(fmt, texts[fmt]))

    def copy_formats(self, op: str | None = None) -> list[str]:
        """The formats a call to ``op`` (the one being built) copies as: curl only for an HTTP op (the menu and the palette offer these)."""
        record = self.gateway.registry.get(op or self.call_op or "")
        return [fmt for fmt, _ in COPY_FORMATS if fmt != "curl" or (record is not None and record.binding.kind == "http")]

    def call_text(self, fmt: str, op: str, args: dict) -> str:
        from .._calltext import render as render_call

        record = self.gateway.registry.get(op)
        if fmt == "curl":
            return self._curl_text(op, args)
        return render_call(fmt, op, args, dry_run=bool(record and record.kind == "write"), global_options=getattr(self.app, "global_options", []))

    def _curl_text(self, op: str, args: dict) -> str:
        """The request an HTTP op would send, as curl: a preview, so nothing is sent."""
        from opgate.core.executors.http import curl_command

        envelope = self.gateway.exec(op, args, dry_run=True)
        preview = (envelope.get("meta") or {}).get("preview") if envelope.get("ok") else None
        if isinstance(preview, dict) and "url" in preview:
            return curl_command(preview)
        return f"{NO_REQUEST}{(envelope.get('error') or {}).get('message', 'not an HTTP op')}"

    def copy_as(self, fmt: str) -> None:
        """Copy the call in ``fmt`` (``json``, ``cli``, ``python``, ``curl``) to the clipboard, and say what really happened."""
        if not self.call_op:
            return
        if fmt not in self.copy_formats():
            self.notify(f"{self.call_op} is not an HTTP op: there is no request to copy as curl.", title="Nothing copied", severity="warning", markup=False)
            return
        self._copy_format(fmt, self.call_op, dict(self.call_args))

    @work(thread=True, exclusive=True, exit_on_error=False, group="copy", name="copy")
    def _copy_format(self, fmt: str, op: str, args: dict) -> None:
        self._to_clipboard(self.call_text(fmt, op, args), dict(COPY_FORMATS).get(fmt, fmt))

    def _copy_chosen(self, fmt: str, text: str) -> None:
        self.copy_call(text, dict(COPY_FORMATS).get(fmt, fmt))

    @work(thread=True, exclusive=True, exit_on_error=False, group="copy", name="copy")
    def copy_call(self, text: str, title: str) -> None:
        self._to_clipboard(text, title)

    def _to_clipboard(self, text: str, title: str) -> None:
        """On a worker's thread: copy ``text`` and say what really happened."""
        from .._clipboard import copy_text

        if text.startswith(NO_REQUEST):
            # The preview failed (a missing argument...): copying the comment would say "Copied" and give nothing to run.
            self.app.call_from_thread(self.notify, text.removeprefix("# "), title="Nothing copied", severity="warning", markup=False)
            return
        copied, how = copy_text(self.app, text)
        shown = text if len(text) < 300 else text[:297] + "…"
        self.app.call_from_thread(
            self.notify, f"{how}\n{shown}", title=f"{'Copied' if copied else 'Copy'}: {title}",
            severity="information" if copied else "warning", markup=False, timeout=8,
        )
