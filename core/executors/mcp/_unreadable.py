"""An upstream answer the SDK's reader refused (nested past its limit, not a JSON-RPC message): one error, whatever the transport.

Over stdio opgate reads the lines itself and fails the request at once
(``_stdio``). Over streamable HTTP the SDK fails it, with a parse error
whose message is a pydantic dump quoting the answer, and the call was
reported retryable: the same call gets the same answer. Both now end the
same way: :class:`AnswerUnreadable`, saying why in one line, not retryable.
"""

from __future__ import annotations

UNREADABLE = "opgate could not read the server's answer"
_SDK_HTTP_PREFIXES = ("Failed to parse SSE message:", "Failed to parse JSON response:")
_REASON_CHARS = 200


class AnswerUnreadable(Exception):
    """The upstream's answer reached opgate and could not be read; the message says why (never the answer itself)."""


def first_reason(exc: BaseException) -> str:
    """A pydantic (or any) error's first problem in a line: where in the answer, what was wrong, how many more."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            found = errors(include_url=False)
            first = found[0]
            # The names of the union's models pydantic tried ("TextContent") are not places in the answer.
            where = ".".join(str(part) for part in first.get("loc", ()) if not (isinstance(part, str) and part[:1].isupper()))
            text = f"{where}: {first.get('msg', exc)}" if where else str(first.get("msg", exc))
            if len(found) > 1:
                text += f" (and {len(found) - 1} more problem{'s' if len(found) > 2 else ''})"
            return text[:_REASON_CHARS]
        except Exception:  # noqa: BLE001 - any shape of error still has its text
            pass
    return (str(exc).splitlines() or [type(exc).__name__])[0][:_REASON_CHARS]


def unreadable_reason(code: int, message: str) -> str | None:
    """Why the answer could not be read, when a JSON-RPC error is opgate's or the SDK's own refusal of it; else None.

    A server's own -32700 (it could not parse our request) is its answer
    and is left alone: only the texts our readers write are recognised.
    """
    from mcp_types import PARSE_ERROR

    if code != PARSE_ERROR:
        return None
    if message.startswith(UNREADABLE + " (") and message.endswith(")"):
        return message[len(UNREADABLE) + 2:-1] or "no reason given"
    if message.startswith(UNREADABLE):
        return "no reason given"
    for prefix in _SDK_HTTP_PREFIXES:
        if message.startswith(prefix):
            return _pydantic_reason(message[len(prefix):])
    return None


def _pydantic_reason(text: str) -> str:
    # "1 validation error for union[...]\n  Invalid JSON: recursion limit exceeded [type=json_invalid, input_value='...'"
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if len(lines) >= 2 and "validation error" in lines[0]:
        return lines[1].split(" [type=", 1)[0][:_REASON_CHARS]
    return (lines[0] if lines else "no reason given")[:_REASON_CHARS]


def unreadable_error(name: str, doing: str, reason: str) -> AnswerUnreadable:
    return AnswerUnreadable(f"{UNREADABLE} (upstream {name!r}, {doing}): {reason}; the same request would get the same answer")
