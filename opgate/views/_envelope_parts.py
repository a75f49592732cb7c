"""What an envelope shows people, as lines of styled pieces and JSON blocks, without rich.

``render_envelope`` (``_envelope.py``) turns these parts into rich text; a
command line writing into a pipe can print them as they are
(:func:`plain_text`), since rich would write the same characters there and
loading it costs a command more than the rest of its output
(bench/bench_cli.py). One list of parts serves both, so the two cannot
drift apart.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from opgate.core._record import record
from opgate.core.echo_text import shortened, shortened_words


@record(frozen=True)
class Line:
    """One ``rich.text.Text``: a base style and the pieces appended to it, each with its own style (a piece may be a Line)."""

    style: str
    pieces: tuple[tuple[Any, str], ...]

    def plain(self) -> str | None:
        """The characters, or None if a piece is not text."""
        out = []
        for piece, _ in self.pieces:
            text = piece.plain() if isinstance(piece, Line) else piece if isinstance(piece, str) else None
            if text is None:
                return None
            out.append(text)
        return "".join(out)


@record(frozen=True)
class JsonBlock:
    """A JSON value shown as indented text (highlighted where colours show)."""

    text: str


Part = Line | JsonBlock
ROLE_STYLES = {"add": "bold green", "change": "bold yellow", "remove": "bold red", "key": "bold", "before": "red", "after": "green", "name": "italic"}


def _line(text: Any, style: str = "") -> Line:
    return Line(style, ((text, ""),))


# Characters a terminal acts on rather than shows: C0 controls but the newline and the tab, DEL, and the C1 controls
# (U+009B is a CSI of its own to some terminals); and the bidirectional controls, which make a terminal show text
# in another order than it is ("Trojan Source": U+202E turns what follows around). In catalogue or stored text they
# are data: shown escaped, never sent.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_CONTROLS = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}]")
_NOT_ESCAPED_BY_JSON = re.compile(f"[\x7f-\x9f{BIDI_CONTROLS}]")


def shown_controls(text: str) -> str:
    """``text`` with every control character a terminal would act on written as its escape (``\\x1b``)."""
    if text.isprintable() or not _CONTROLS.search(text):
        return text
    return _CONTROLS.sub(lambda match: repr(match.group())[1:-1], text)


def json_text(value: Any, *, indent: int | None = 2, separators: tuple[str, str] | None = None) -> str:
    """``value`` as JSON with every control character written as its ``\\u`` escape: the same value, shown."""
    text = json.dumps(value, indent=indent, separators=separators, ensure_ascii=False, default=str)
    if not text.isascii():  # json escapes C0 controls itself, not DEL, C1 or bidi controls: escaped here the JSON way
        text = _NOT_ESCAPED_BY_JSON.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
    return text


def json_block(value: Any) -> JsonBlock:
    return JsonBlock(json_text(value))


NO_CHANGES = Line("dim", (("no changes", ""),))


def diff_parts(diff: dict[str, Any], names: dict[str, Any] | None = None) -> list[Part]:
    """The lines of :func:`opgate.core.diff_text.diff_lines`: names next to ids, created rows field by field."""
    from opgate.core.diff_text import diff_lines

    return [
        Line("", (("    " * line.depth, ""), *((text, ROLE_STYLES.get(role, "")) for text, role in line.segments)))
        for line in diff_lines(diff, names)
    ]


def _status(envelope: dict[str, Any], meta: dict[str, Any]) -> Line:
    pieces: list[tuple[Any, str]] = [(f"ok  {envelope.get('op', '')}", "")]
    if meta.get("dry_run_kind") == "preview":
        pieces.append(("  (preview: nothing was sent)", "bold yellow"))
    elif meta.get("dry_run"):
        pieces.append(("  (dry-run: nothing was written)", "bold yellow"))
    if meta.get("idempotent_replay"):
        pieces.append(("  (replayed)", "cyan"))
    if isinstance(meta.get("http"), dict) and meta["http"].get("status") is not None:
        pieces.append((f"  HTTP {meta['http']['status']}", "cyan"))
    if "latency_ms" in meta:
        pieces.append((f"  {meta['latency_ms']} ms  {meta.get('trace_id', '')}", "dim"))
    return Line("bold green", tuple(pieces))


def writes_are_off(envelope: dict[str, Any]) -> bool:
    """Refused only because this front end was started with writes off: the person can turn them on."""
    error = envelope.get("error") or {}
    return error.get("code") == "PERMISSION_DENIED" and bool((error.get("details") or {}).get("dry_run_available"))


def waits_for_confirmation(envelope: dict[str, Any]) -> bool:
    """Refused because nobody could confirm it here (not because a person said no)."""
    error = envelope.get("error") or {}
    details = error.get("details") or {}
    return error.get("code") == "PERMISSION_DENIED" and bool(details.get("requires_confirmation")) and not details.get("cancelled")


def _error_parts(envelope: dict[str, Any], help_command: str, enable_writes: str, confirm_with: str | None = None) -> list[Part]:
    error = envelope.get("error") or {}
    # The op and a field's path may be what the caller typed (an unknown op or argument): shown cut short.
    parts: list[Part] = [_line(f"{error.get('code')}  {shortened(str(envelope.get('op', '')))}", "bold red"), _line(error.get("message", ""))]
    details = error.get("details") or {}
    for field_error in details.get("field_errors", []):
        parts.append(_line(f"  {shortened_words(str(field_error.get('field')))}: {field_error.get('message')}", "red"))
    for key in ("usage", "example", "suggestions"):
        if details.get(key) not in (None, "", [], {}):  # an empty "suggestions []" is a heading over nothing
            parts += [_line(key, "bold"), json_block(details[key]) if not isinstance(details[key], str) else _line(details[key])]
    if writes_are_off(envelope):
        # The gateway's message speaks to an agent ("ask the person"); here the person is reading.
        parts.append(_line(f"{enable_writes} lets it write; a dry-run shows the diff first", "yellow"))
    if confirm_with and waits_for_confirmation(envelope):
        # The gateway's message names the front ends that can ask; this one has a flag that answers.
        parts.append(_line(f"{confirm_with} confirms it without asking; a dry-run shows what it would change first", "yellow"))
    parts.append(_line(f"help: {help_command} {error.get('help_path', '')}", "dim"))
    return parts


def _result_part(result: Any, meta: dict[str, Any]) -> Part:
    # An HTTP answer without a body (204, or a 202 with nothing to say) is a result of None: "null" read as a value.
    if result is None and isinstance(meta.get("http"), dict) and not meta.get("dry_run"):
        return _line("(the answer has no body)", "dim")
    if isinstance(result, str) and "\n" in result:
        # Text of many lines (a file, a page, a server's report) read as lines, not as one JSON string of "\n"s;
        # controls are still shown escaped, and ``--json`` gives the string exactly.
        return _line(shown_controls(result))
    return json_block(result)


def envelope_parts(envelope: dict[str, Any], *, help_command: str = "opgate help", enable_writes: str = "--allow-write", confirm_with: str | None = None) -> list[Part]:
    """An envelope for people. ``help_command`` is how this front end asks for help (the REPL says ``help``),
    ``enable_writes`` how it turns writes on (the REPL says ``set writes on``), ``confirm_with`` how it
    confirms without asking, if it can (the command line's ``--yes``)."""
    meta = envelope.get("meta") or {}
    parts: list[Part] = []
    if envelope.get("ok"):
        parts += [_status(envelope, meta), _result_part(envelope.get("result"), meta)]
        if meta.get("diff") is not None:
            parts += [_line("diff", "bold"), *(diff_parts(meta["diff"], meta.get("names")) or [NO_CHANGES])]
        if meta.get("preview") is not None:
            parts += [_line("would send", "bold"), json_block(meta["preview"])]
        if meta.get("state_digest") and meta.get("dry_run"):
            parts.append(_line(f"state digest: {meta['state_digest']}", "dim"))
    elif ((envelope.get("error") or {}).get("details") or {}).get("cancelled"):
        # The person said no: not an error, and there is nothing to fix.
        parts.append(_line(f"cancelled, nothing written  {envelope.get('op', '')}", "bold yellow"))
    else:
        parts += _error_parts(envelope, help_command, enable_writes, confirm_with)
    for warning in meta.get("warnings", []):
        parts.append(_line(f"warning: {warning}", "yellow"))
    return parts


def _shown_as_is(text: Any, width: int) -> bool:
    # Printable ASCII in lines that fit: rich neither wraps, folds nor strips them, and each character is one cell.
    return isinstance(text, str) and text.isascii() and all(line.isprintable() and len(line) <= width for line in text.split("\n"))


# Characters beyond ASCII that help lines hold and that rich counts as one cell and prints as they are.
_ONE_CELL = frozenset("\u2022")


def _wrapped(text: Any, width: int) -> list[str] | None:
    """A Line's text as ``Text(text)`` prints it ``width`` columns wide (wrapped at spaces, long words folded), or None when only rich can say."""
    from ._plain_table import _breaks, _strip_excess

    if not isinstance(text, str) or width < 1 or not (text.isascii() or all(c.isascii() or c in _ONE_CELL for c in text)):
        return None
    lines = []
    for line in text.split("\n"):
        if not line.isprintable():
            return None  # a tab or a control character: rich expands or drops it
        breaks = _breaks(line, width, fold=True) or []
        lines += [_strip_excess(line[start:end], width) for start, end in zip([0, *breaks], [*breaks, len(line)], strict=True)]
    return lines


def plain_text(parts: Iterable[Any], width: int) -> str | None:
    """The parts as rich prints them on a console without colours ``width`` columns wide, or None when only rich can say.

    A part other than a Line or a JsonBlock (a help table) says itself with ``plain_lines(width)``.
    """
    out = []
    for part in parts:
        if isinstance(part, JsonBlock):
            if not _shown_as_is(part.text, width):
                return None
            out.append(f"{part.text}\n")
        elif isinstance(part, Line):
            lines = _wrapped(part.plain(), width)
            if lines is None:
                return None
            out += [f"{line}\n" for line in lines]
        else:
            lines = part.plain_lines(width)
            if lines is None:
                return None
            out += [f"{line}\n" for line in lines]
    return "".join(out)
