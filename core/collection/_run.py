"""Running a collection through a gateway's front door, and checking each answer.

Calls run one at a time, in the collection's order, each with
``gateway.exec``. A call that fails does not stop the run: later calls that
refer to its answer fail with a message saying so, and the others still run,
so one report shows everything that is wrong.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from .._gateway import Gateway
from ..exec._envelope import failure
from ..exec._errors import VALIDATION_ERROR
from ._expect import Check, check_envelope
from ._model import Collection, SavedCall
from ._rehearsal import rehearsal_gateway, rehearses
from ._values import Resolver, UnresolvedValue

RUN = "run"
DRY_RUN = "dry-run"
REHEARSED = "rehearsed on a scratch copy"


@dataclass
class CallReport:
    """One call's run: what was sent, the envelope, the checks, and how it ran."""

    position: int
    call: SavedCall
    sent_args: Any
    envelope: dict[str, Any]
    checks: list[Check]
    how: str  # RUN, or in a dry-run: "read", REHEARSED (a write on the scratch copy) or DRY_RUN (a write sent with dry_run)
    seconds: float

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)

    @property
    def failures(self) -> list[Check]:
        return [check for check in self.checks if not check.passed]


@dataclass
class RunReport:
    """A whole run: the collection, the mode (``run`` or ``dry-run``) and one report per call."""

    collection: Collection
    mode: str
    calls: list[CallReport] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return all(call.passed for call in self.calls)

    @property
    def counts(self) -> tuple[int, int]:
        """``(calls passed, calls failed)``."""
        passed = sum(1 for call in self.calls if call.passed)
        return passed, len(self.calls) - passed


def _unresolved(call: SavedCall, exc: UnresolvedValue) -> dict[str, Any]:
    return failure(call.op, VALIDATION_ERROR, f"not sent: {exc}", help_path=call.op,
                   field_errors=[{"field": exc.where, "path": "/" + exc.where.replace("args.", "", 1).replace(".", "/"), "code": "unresolved", "message": exc.message}])


def _checks(call: SavedCall, envelope: dict[str, Any], resolver: Resolver, position: int) -> list[Check]:
    """Expected values may use variables and earlier answers too (``"/task/id" = "$create_task.result.task.id"``)."""
    wanted: dict[str, Any] = {}
    unresolved: list[Check] = []
    for place, value in call.expect.result.items():
        try:
            wanted[place] = resolver.resolve_value(value, position, f"expect.result.{place}")
        except UnresolvedValue as exc:
            unresolved.append(Check(f"result {place}", False, str(exc)))
    return check_envelope(replace(call.expect, result=wanted), envelope) + unresolved


def _how(gateway: Gateway, op: str, mode: str) -> str:
    """How a call runs: for real, or in a dry-run as a plain read, a write on the scratch copy, or a write sent with dry_run."""
    record = gateway.registry.resolve(op)
    if mode == RUN or record is None:
        return mode  # an unknown op is sent as it is: exec answers NOT_FOUND with the closest names
    if record.kind != "write":
        return "read"
    return REHEARSED if rehearses(gateway, record.op) else DRY_RUN


def _run_calls(gateway: Gateway, collection: Collection, variables: dict[str, Any], mode: str,
               calls: list[int], on_call: Callable[[CallReport], None] | None) -> RunReport:
    resolver = Resolver([c.name for c in collection.calls], variables)
    report = RunReport(collection, mode)
    started = time.perf_counter()
    for position in calls:
        call = collection.calls[position]
        began = time.perf_counter()
        how = _how(gateway, call.op, mode)
        try:
            sent = resolver.resolve(call.args, position)
        except UnresolvedValue as exc:
            sent, envelope = None, _unresolved(call, exc)
        else:
            envelope = gateway.exec(call.op, sent, dry_run=how == DRY_RUN)
        resolver.envelopes[position] = envelope
        outcome = CallReport(position, call, sent, envelope, _checks(call, envelope, resolver, position), how, time.perf_counter() - began)
        report.calls.append(outcome)
        if on_call is not None:
            on_call(outcome)
    report.seconds = time.perf_counter() - started
    return report


def run_collection(
    gateway: Gateway,
    collection: Collection,
    *,
    variables: dict[str, Any] | None = None,
    dry_run: bool = False,
    only: list[int] | None = None,
    on_call: Callable[[CallReport], None] | None = None,
) -> RunReport:
    """Run ``collection`` (or the calls at positions ``only``) and check every expectation.

    ``variables`` (from an environment file) override the collection's
    ``[vars]``. With ``dry_run`` the calls run on a scratch copy of the
    workspace (see :mod:`._rehearsal`) and the workspace is not written;
    otherwise they run on ``gateway`` as they are, so writes need its
    ``allow_write`` and confirmations go to its approver. ``on_call`` is
    told about each call as soon as it has run. Bad references never raise:
    the call is not sent and its report says why.
    """
    merged = {**collection.variables, **(variables or {})}
    positions = list(range(len(collection.calls))) if only is None else list(only)
    if not dry_run:
        return _run_calls(gateway, collection, merged, RUN, positions, on_call)
    with rehearsal_gateway(gateway) as rehearsal:
        return _run_calls(rehearsal, collection, merged, DRY_RUN, positions, on_call)
