"""Asking the person to confirm an op, through MCP elicitation.

The Gateway calls its approver from the thread that runs exec and waits for a
yes or no. MCP asks the person asynchronously, on the event loop, in one of
two ways: a server-to-client ``elicitation/create`` request (the handshake
protocol versions, :class:`ElicitingChannel`), or an ``InputRequiredResult``
the client answers by calling again (2026-07-28, see ``_input_required``).
:class:`ApproverBridge` is the approver; each tool call hands it the channel
its client can be asked through. With elicitation the worker thread blocks
on ``anyio.from_thread.run`` until the channel has the answer; the wait
holds no lock and no shared capacity beyond its own bounded place
(``ConfirmationBudget``), so other sessions' calls go on meanwhile. The
2026-07-28 channel never blocks: it keeps the question in the store and the
call returns, to be run again by the answer's call in any server process.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import anyio
import anyio.from_thread
import mcp_types as types

from opgate.core.exec import ConfirmationRequest, PermissionDenied, Question
from opgate.core.executors import NATIVE
from opgate.core.executors._redact import mask_url_secrets, redact

from ._clients import Client, ConfirmationBudget

log = logging.getLogger(__name__)

T = TypeVar("T")

CONFIRM_FIELD = "confirm"
CONFIRM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        CONFIRM_FIELD: {"type": "boolean", "title": "Run it for real", "description": "Yes runs the op and writes the changes above.", "default": False},
    },
    "required": [CONFIRM_FIELD],
}
_DIFF_LINES = 8
# How much of a request body, an MCP call's arguments or a rehearsal's answer the message shows.
_SHOWN_CHARS = 600


class ConfirmationChannel(Protocol):
    """A way to ask this call's person. ``ask`` runs in the worker thread and blocks until answered."""

    def ask(self, request: ConfirmationRequest) -> bool: ...


class ApproverBridge:
    """The Gateway's ``approver``: asks through the channel the running call set, or refuses.

    Threads the call did not start itself (the pool batch runs concurrent
    reads in) have no channel; reads never need confirmation, and anything
    else is refused, which is the safe answer.
    """

    def __init__(self) -> None:
        self._local = threading.local()

    def run_with(self, channel: ConfirmationChannel | None, call: Callable[..., T], *args: Any) -> T:
        """Run ``call(*args)`` in this thread with ``channel`` as the way to ask."""
        self._local.channel = channel
        try:
            return call(*args)
        finally:
            self._local.channel = None

    def __call__(self, request: ConfirmationRequest) -> bool:
        channel = getattr(self._local, "channel", None)
        return channel.ask(request) if channel is not None else False

    def question(self, question: Question) -> dict[str, Any] | None:
        """The Gateway's ``asker``: an upstream's question, put to this call's client; ``None`` (declined) when it cannot be.

        Only a client reached by ``elicitation/create`` can be asked: the
        2026-07-28 retry channel carries opgate's own confirmation only.
        """
        channel = getattr(self._local, "channel", None)
        asking = getattr(channel, "question", None)
        return asking(question) if asking is not None else None


def _label(entry: dict[str, Any]) -> str:
    row = entry.get("row") or {}
    name = row.get("title") or row.get("name")
    return f"{entry.get('kind', '?')} {name!r} ({entry.get('id')})" if name else f"{entry.get('kind', '?')} {entry.get('id')}"


def diff_summary(diff: dict[str, Any]) -> list[str]:
    """A few lines a person can read: what would be created, changed and deleted."""
    lines = [f"create {_label(e)}" for e in diff.get("created", [])]
    for entry in diff.get("updated", []):
        fields = ", ".join(sorted(entry.get("fields") or {}))
        lines.append(f"change {_label(entry)}" + (f": {fields}" if fields else ""))
    lines += [f"delete {_label(e)}" for e in diff.get("deleted", [])]
    for key in ("edges_added", "edges_removed", "links_added", "links_removed"):
        if diff.get(key):
            lines.append(f"{key.replace('_', ' ')}: {len(diff[key])}")
    if len(lines) > _DIFF_LINES:
        lines = lines[: _DIFF_LINES - 1] + [f"... and {len(lines) - _DIFF_LINES + 1} more changes"]
    return lines


def confirmation_message(request: ConfirmationRequest) -> str:
    """What the person reads: the op, what it is for, and what it would do: the store diff, the request an upstream
    that cannot rehearse would be sent, or a tool's own rehearsal of the call."""
    meta = request.preview.get("meta") or {}
    heading = f"Run {request.op}? {request.summary}"
    if isinstance(meta.get("preview"), dict):
        return "\n".join([heading, "It would send:", *(f"  {line}" for line in preview_lines(meta["preview"]))])
    if meta.get("dry_run_kind") == NATIVE:
        return "\n".join([heading, "Its rehearsal of this call answered:", f"  {_bounded(redact(request.preview.get('result')))}"])
    changes = diff_summary(request.diff) or ["no changes to stored data"]
    return "\n".join([heading, "It would:", *(f"  - {line}" for line in changes)])


def preview_lines(preview: dict[str, Any]) -> list[str]:
    """The request a preview describes, in a few lines: an HTTP method and URL with its body, or an MCP ``tools/call``
    with its arguments. The executors mask the secrets they know; secret-named keys and URL user-info are masked again here."""
    preview = redact(preview)
    request = preview.get("request")
    if isinstance(request, dict) and request.get("method") == "tools/call":
        params = request.get("params") or {}
        return [f"tools/call {params.get('name')!r} to the upstream MCP server {preview.get('upstream')!r}", f"arguments: {_bounded(params.get('arguments'))}"]
    if "method" in preview and "url" in preview:
        lines = [f"{preview['method']} {mask_url_secrets(str(preview['url']), whole_query=False)}"]
        if preview.get("body"):
            lines.append(f"body: {_bounded(preview['body'])}")
        return lines
    return [_bounded(preview)]


def _bounded(value: Any) -> str:
    """A value as compact JSON (a string as it is), cut to a length a confirmation dialog can show."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str, separators=(", ", ": "))
    return text if len(text) <= _SHOWN_CHARS else f"{text[:_SHOWN_CHARS]}... ({len(text) - _SHOWN_CHARS:,} more characters)"


def confirmation_form(request: ConfirmationRequest) -> types.ElicitRequestFormParams:
    return types.ElicitRequestFormParams(message=confirmation_message(request), requested_schema=CONFIRM_SCHEMA)


def is_confirmed(response: Any) -> bool:
    """Yes only for an accepted form whose ``confirm`` is true; decline, cancel and anything else are no."""
    if not isinstance(response, types.ElicitResult):
        return False
    return response.action == "accept" and (response.content or {}).get(CONFIRM_FIELD) is True


def can_elicit_form(capabilities: types.ClientCapabilities | None) -> bool:
    """Whether the client said it can show an elicitation form (an empty ``elicitation`` object means form)."""
    elicitation = capabilities.elicitation if capabilities is not None else None
    if elicitation is None:
        return False
    return elicitation.form is not None or elicitation.url is None


class ElicitingChannel:
    """Asks with an ``elicitation/create`` request tied to the tool call (handshake protocol versions)."""

    def __init__(self, session: Any, request_id: types.RequestId | None, timeout: float, budget: ConfirmationBudget, client: Client):
        self._session = session
        self._request_id = request_id
        self._timeout = timeout
        self._budget = budget
        self._client = client

    def ask(self, request: ConfirmationRequest) -> bool:
        return anyio.from_thread.run(self._ask, request)

    def question(self, question: Question) -> dict[str, Any] | None:
        return anyio.from_thread.run(self._question, question)

    async def _question(self, question: Question) -> dict[str, Any] | None:
        message = f"{question.op} (upstream MCP server {question.upstream!r}) asks: {question.message}"
        try:
            self._budget.take(self._client, question.op)  # an upstream's question waits within the same bounds
        except PermissionDenied as refused:
            log.warning("not passing %s's question on: %s", question.op, refused)
            return None
        try:
            with anyio.move_on_after(self._timeout):
                try:
                    result = await self._session.elicit_form(message, question.schema, related_request_id=self._request_id)
                except Exception as exc:  # a client error or a dropped connection declines, never crashes
                    log.warning("passing %s's question to the client failed: %s", question.op, exc)
                    return None
                if isinstance(result, types.ElicitResult) and result.action == "accept":
                    return dict(result.content or {})
                return None
        finally:
            self._budget.give_back(self._client)
        log.warning("no answer to %s's question within %.0f s; declined", question.op, self._timeout)
        return None

    async def _ask(self, request: ConfirmationRequest) -> bool:
        form = confirmation_form(request)
        self._budget.take(self._client, request.op)  # refuses, with the reason, when too many wait
        try:
            with anyio.move_on_after(self._timeout):
                try:
                    result = await self._session.elicit_form(form.message, form.requested_schema, related_request_id=self._request_id)
                except Exception as exc:  # a client error or a dropped connection is a no, never a crash
                    log.warning("asking to confirm %s failed: %s", request.op, exc)
                    return False
                return is_confirmed(result)
        finally:
            self._budget.give_back(self._client)
        log.warning("no answer to confirm %s within %.0f s; not running it", request.op, self._timeout)
        return False
