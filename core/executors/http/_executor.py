"""The HTTP executor: one upstream API, one pooled httpx client, opened once and closed with the gateway."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ...catalog.openapi import HttpApi, HttpOperation
from ...config._model import HttpUpstreamConfig
from ...exec._errors import InternalError, OpError, PermissionDenied
from ...exec._prepare import Call
from ...exec._session import Session
from .._base import MAX_ANSWER_BYTES, PREVIEW, Invocation, Outcome
from .._progress import abandoned_event
from .._redact import redact
from ._auth import Credentials
from ._request import RequestBuilder, describe_request
from ._response import failure, success_outcome
from ._retry import RETRY_STATUSES, backoff_s

if TYPE_CHECKING:
    import httpx

# httpx is imported where it is used: its package __init__ imports its command
# line client, which loads rich whenever rich is installed, and the core never
# loads a UI library (tests/unit/test_import_hygiene.py).

USER_AGENT = "opgate"


class HttpExecutor:
    """Runs the ops of one OpenAPI document against its server.

    Dry-run is always a ``preview``: the exact request httpx would send,
    with secrets masked, and nothing sent. Idempotency is kept by the
    dispatcher (``keeps_idempotency`` is false); the key is also sent as a
    header when the configuration names one.
    """

    name = "http"
    keeps_idempotency = False

    def __init__(self, api: HttpApi, config: HttpUpstreamConfig | None = None, *, transport: httpx.BaseTransport | None = None):
        import httpx

        self.api = api
        self.config = config
        self.credentials = Credentials(api.security_schemes, config.auth if config else None)
        self.timeout_s = config.timeout_s if config else 30.0
        self.retries = config.retries if config else 2
        self.client = httpx.Client(
            transport=transport,
            headers={"User-Agent": USER_AGENT},
            limits=httpx.Limits(max_connections=20, max_keepalive_connections=10),
            follow_redirects=False,
        )
        self.requests = RequestBuilder(
            api, self.client,
            base_url=config.base_url if config else None,
            headers=dict(config.headers) if config else {},
            credentials=self.credentials,
            idempotency_header=config.idempotency_header if config else None,
        )

    @property
    def secrets(self) -> list[str]:
        return self.credentials.secrets

    def _operation(self, call: Call) -> HttpOperation:
        operation = self.api.operation(call.record.binding.target or "")
        if operation is None:
            raise InternalError(f"{call.op} points at {call.record.binding.target!r}, which the upstream {self.api.name!r} does not have")
        return operation

    def dry_run_kind(self, call: Call) -> str:
        return PREVIEW

    def preview(self, call: Call) -> dict[str, Any]:
        request, auth = self.requests.build(self._operation(call), call.args, call.idempotency_key)
        return redact(describe_request(request, auth), self.secrets)

    def replay(self, call: Call, session: Session) -> Outcome | None:
        return None

    def close(self) -> None:
        self.client.close()

    def _check_credentials(self) -> None:
        if self.credentials.missing:
            names = ", ".join(self.credentials.missing)
            raise PermissionDenied(
                f"the upstream {self.api.name!r} needs credentials from the environment, and {names} {'is' if len(self.credentials.missing) == 1 else 'are'} not set; set {'it' if len(self.credentials.missing) == 1 else 'them'} and start again",
                upstream=self.api.name, missing_env=self.credentials.missing,
            )

    def run(self, invocation: Invocation) -> Outcome:
        import httpx

        call = invocation.call
        operation = self._operation(call)
        self._check_credentials()
        request, _auth = self.requests.build(operation, call.args, call.idempotency_key)
        retries = self.retries if operation.is_idempotent else 0
        attempt = 0
        while True:
            attempt += 1
            budget = min(self.timeout_s, invocation.remaining_s)
            if budget <= 0:
                raise self._timed_out(operation, invocation, attempt - 1)
            try:
                request.extensions["timeout"] = httpx.Timeout(budget).as_dict()
                response = self.client.send(request, stream=True)
                self._read_body(response, operation, time.monotonic() + budget)
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                # The request never reached the server: safe to try an idempotent method again.
                if attempt <= retries and self._wait(backoff_s(attempt - 1), invocation, operation):
                    continue
                if isinstance(exc, httpx.ConnectTimeout):
                    raise self._timed_out(operation, invocation, attempt, sent=False) from None
                raise self._unreachable(operation, exc, attempt, sent=False) from None
            except httpx.TimeoutException:
                raise self._timed_out(operation, invocation, attempt) from None
            except httpx.DecodingError as exc:  # not a TransportError: the request went through, its answer is unreadable
                raise self._undecodable(operation, response, exc) from None
            except httpx.TransportError as exc:
                raise self._unreachable(operation, exc, attempt) from None
            if response.status_code in RETRY_STATUSES and attempt <= retries:
                wait = backoff_s(attempt - 1, response.headers.get("retry-after"))
                response.close()
                if self._wait(wait, invocation, operation):
                    continue
            if response.is_success or response.is_redirect or response.status_code == 304:
                outcome = success_outcome(response, operation, call.args, call.record.parameters.get("properties") or {})
            else:
                error = failure(response, operation, attempt)
                error.message = redact(error.message, self.secrets)
                error.details = redact(error.details, self.secrets)
                raise error
            if attempt > 1:
                outcome.meta["http"]["attempts"] = attempt
            return outcome

    def _read_body(self, response: httpx.Response, operation: HttpOperation, deadline: float) -> None:
        """Read the body into ``response`` by ``deadline`` and within :data:`MAX_ANSWER_BYTES`, or close it and raise.

        httpx's read timeout bounds each read, not the answer: a server sending
        a byte now and then held the call for as long as it went on, and one
        sending gigabytes had them all read into memory.
        """
        import httpx

        try:
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > MAX_ANSWER_BYTES:
                raise self._too_large(operation)
            chunks, size = [], 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > MAX_ANSWER_BYTES:
                    raise self._too_large(operation)
                if time.monotonic() > deadline:
                    raise httpx.ReadTimeout("the answer did not arrive in time", request=response.request)
                chunks.append(chunk)
            response._content = b"".join(chunks)  # what Response.read() sets: the rest of httpx reads the body from it
        finally:
            response.close()

    def _undecodable(self, operation: HttpOperation, response: httpx.Response, exc: Exception) -> OpError:
        encoding = response.headers.get("content-encoding") or "its"
        maybe = "" if operation.is_read else " It acted, or may have: check before you send it again."
        return InternalError(
            f"{self.api.name!r} answered {operation.target} with a body that could not be decoded ({encoding} encoding: {redact(str(exc), self.secrets)}).{maybe}",
            retryable=False, upstream=self.api.name, status=response.status_code,
        )

    def _too_large(self, operation: HttpOperation) -> OpError:
        return InternalError(
            f"{self.api.name!r} answered {operation.target} with more than {MAX_ANSWER_BYTES:,} bytes, which is not read; ask for less (a page, a filter)",
            retryable=False, upstream=self.api.name,
        )

    def _wait(self, seconds: float, invocation: Invocation, operation: HttpOperation) -> bool:
        """Sleep before a retry, unless the wait would pass the deadline; a caller who gives up meanwhile ends it, sending nothing more."""
        if seconds >= invocation.remaining_s:
            return False
        given_up = abandoned_event()
        if given_up is None:
            time.sleep(seconds)
        elif given_up.wait(seconds):
            raise InternalError(
                f"{self.api.name!r} {operation.target} was cancelled by its caller while it waited to be tried again; it was not sent again",
                retryable=False, cancelled=True,
            )
        return True

    def _unreachable(self, operation: HttpOperation, exc: Exception, attempts: int, *, sent: bool = True) -> OpError:
        maybe = _effect_note(operation, sent, " If the request got through, it may have acted: check before you send it again.")
        return InternalError(
            f"could not complete {operation.target} on {self.api.name!r}: {type(exc).__name__}: {redact(str(exc), self.secrets)}.{maybe}",
            retryable=True, upstream=self.api.name, attempts=attempts,
        )

    def _timed_out(self, operation: HttpOperation, invocation: Invocation, attempts: int, *, sent: bool = True) -> OpError:
        maybe = _effect_note(operation, sent, " It may have acted anyway: check before you send it again.")
        return InternalError(
            f"{self.api.name!r} did not answer {operation.target} in time (at most {min(self.timeout_s, invocation.timeout_s):g} s per call).{maybe}",
            retryable=True, upstream=self.api.name, attempts=attempts,
        )


def _effect_note(operation: HttpOperation, sent: bool, maybe_acted: str) -> str:
    """What a failed call may have done upstream, said so that nobody sends a write twice, or fears one that never left."""
    if operation.is_read:
        return ""
    if not sent:
        return " The request was never sent, so it did nothing upstream."
    return maybe_acted
