"""The executor of tool folders: each call runs the folder's ``handler.py`` in a worker process."""

from __future__ import annotations

import threading
from typing import Any

from ...exec._errors import InternalError
from ...exec._prepare import Call
from ...exec._session import Session
from ...settings import GatewaySettings
from .._base import MAX_ANSWER_BYTES, NATIVE, PREVIEW, READ, Invocation, Outcome
from .._progress import abandoned_event
from ._pool import NoWorkerFree, PoolClosed, WorkerPool
from ._protocol import handler_args, handler_request, outcome_from_answer, relay_log
from ._worker_process import (
    WorkerAnsweredTooMuch,
    WorkerCancelled,
    WorkerGone,
    WorkerTimedOut,
)


class PythonHandlerExecutor:
    """Runs tool-folder handlers in a small pool of worker processes.

    Dry-run: a tool whose ``schema.json`` says ``"supportsDryRun": true``
    rehearses the call itself (``native``: ``context.dry_run`` is true); a
    tool that declares no side effects runs for real (``read``); any other
    is not called at all (``preview`` shows the handler, the tool and the
    arguments). Idempotency keys are kept by the dispatcher around the call.
    """

    name = "python"
    keeps_idempotency = False

    def __init__(self, workers: int | None = None):
        self._workers = workers
        self._pool: WorkerPool | None = None
        self._lock = threading.Lock()
        self._closed = False

    def dry_run_kind(self, call: Call) -> str:
        if call.record.metadata.supports_dry_run:
            return NATIVE
        if call.record.kind == "read":
            return READ
        return PREVIEW

    def preview(self, call: Call) -> dict[str, Any]:
        return {"handler": call.record.binding.target, "tool_id": call.record.tool_name, "op": call.op, "args": handler_args(call)}

    def replay(self, call: Call, session: Session) -> Outcome | None:
        return None

    @property
    def worker_pids(self) -> list[int]:
        """The worker processes alive now (for tests and ``opgate upstreams``-style status)."""
        return self._pool.pids if self._pool is not None else []

    def _pool_for(self, settings: GatewaySettings) -> WorkerPool:
        with self._lock:
            if self._closed:
                raise PoolClosed()
            if self._pool is None:
                self._pool = WorkerPool(self._workers or settings.handler_workers)
            return self._pool

    def run(self, invocation: Invocation) -> Outcome:
        call = invocation.call
        request = handler_request(invocation, native_dry_run=bool(call.record.metadata.supports_dry_run))
        try:
            answer = self._pool_for(invocation.settings).run(request, invocation.deadline, relay_log, abandoned_event())
        except WorkerCancelled:
            effects = " (it may have done part of its work)" if call.record.kind == "write" and not call.dry_run else ""
            raise InternalError(f"{call.op} was cancelled by its caller; its handler was stopped{effects}", retryable=False, cancelled=True) from None
        except WorkerTimedOut:
            effects = "; it may have done part of its work" if call.record.kind == "write" and not call.dry_run else ""
            raise InternalError(f"{call.op} did not finish within {invocation.timeout_s:g} s and was stopped{effects}", retryable=True) from None
        except WorkerAnsweredTooMuch:
            raise InternalError(
                f"the handler of {call.op} answered with more than {MAX_ANSWER_BYTES:,} bytes, which is not read; ask for less (a page, a filter)",
                retryable=False, tool=call.record.tool_name,
            ) from None
        except WorkerGone as gone:
            raise InternalError(
                f"the handler of {call.op} stopped its worker process ({gone.how}); the gateway is fine and the next call gets a new worker",
                retryable=False, tool=call.record.tool_name,
            ) from None
        except NoWorkerFree:
            raise InternalError(f"every handler worker stayed busy for {invocation.timeout_s:g} s, so {call.op} did not start; retry shortly", retryable=True) from None
        except PoolClosed:
            raise InternalError(f"the gateway is closing, so {call.op} did not start", retryable=True) from None
        return outcome_from_answer(call, answer)

    def close(self) -> None:
        """Kill and reap every worker."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()
