"""Before anything runs: resolve the op, normalise and validate the arguments.

Everything here either returns a ready :class:`Call` or raises an
:class:`OpError` whose message and details let the caller fix the call in one
retry (the closest op names, every field error, and for hopeless arguments
the usage line and a valid example).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from .. import safe_json
from .._record import field, record
from .._scopes import everything
from ..echo_text import ECHO_CHARS, quoted
from ..registry._record import OpRecord
from ..registry._registry import Registry
from ._errors import InternalError, InvalidArguments, NotFoundError
from ._session import Session
from ._validation import ArgumentValidator, problem_count


@record
class Call:
    """A call that passed resolution and validation."""

    requested: str
    record: OpRecord
    args: dict[str, Any]
    dry_run: bool
    idempotency_key: str | None = None
    expected_digest: str | None = None
    warnings: list[str] = field(default_factory=list)
    # Where the ids a write creates come from: a dry-run and its real run share it (see meta.id_seed).
    id_seed: str | None = None
    # Whether id_seed came from the caller (a dry-run's, maybe run for real already) rather than drawn here.
    id_seed_given: bool = False
    # Whether the arguments as sent were flat, ASCII and free of huge ints (see _plain_args): the call log need not check them again.
    plain_args: bool = False

    @property
    def op(self) -> str:
        return self.record.op


class CallRejected(InvalidArguments):
    """Validation failed; carries the record so the envelope can point at its help."""


def resolve_op(op: Any, registry: Registry, visible: Callable[[OpRecord], bool], context: str | None = None, unavailable: Callable[[str], str | None] | None = None) -> OpRecord:
    """The op's record, or the reason there is none: unknown (NOT_FOUND), or under an upstream that is down (``unavailable``
    says so and why, for its namespace; a retry may work)."""
    if not isinstance(op, str) or not op.strip():
        raise InvalidArguments("op must be a non-empty string such as 'onto.task.list'; help() lists the groups", field_errors=[{"field": "op", "path": "/op", "code": "missing_required", "message": "op is required"}])
    record = registry.resolve(op.strip())
    if record is not None and (visible is everything or visible(record)):  # no context (the usual case) sees every op
        return record
    namespace, dot, _ = op.strip().partition(".")
    why = unavailable(namespace) if unavailable is not None and dot else None
    if why:
        raise InternalError(f"{quoted(op)} cannot run now. {why}", retryable=True, upstream=namespace)
    candidates = [r.op for r in registry if visible(r)]
    suggestions = registry.closest(op.strip(), candidates)
    several = registry.ops_named_by_tool(op.strip(), candidates)
    message = f"There is no op {quoted(op)}" + (f" in context {context!r}." if context else ".")
    if several:
        # Two upstreams (or catalogues) offer a tool of this name: the bare name cannot choose between them.
        message = f"{quoted(op)} is the tool name of {len(several)} ops ({', '.join(several)}); call the one you mean by its op."
    elif suggestions:
        message += f" Did you mean {suggestions[0]!r}?"
    else:
        message += " help() lists the groups; search finds ops by what they do."
    raise NotFoundError(message, suggestions=suggestions, unknown_op=True)


def _normalise_args(args: Any, warnings: list[str]) -> dict[str, Any]:
    if args is None:
        return {}
    if isinstance(args, str):
        # Models sometimes send the arguments as a JSON string; accept it, and say so.
        try:
            parsed = safe_json.loads(args, what="args", check_text=False) if args.strip() else {}
        except safe_json.JsonInputError as exc:
            raise InvalidArguments(f"args is a string that cannot be used ({exc.message}); send an object") from None
        if isinstance(parsed, dict):
            warnings.append("args arrived as a JSON string and was parsed; send an object next time")
            return parsed
    if not isinstance(args, dict):
        raise InvalidArguments(f"args must be an object, not {type(args).__name__}")
    odd = [key for key in args if not isinstance(key, str)]
    if odd:
        raise InvalidArguments(f"argument names must be strings, not {quoted(odd[0])}")
    return dict(args)


_FLAT = (str, int, float, bool, type(None))
_INT_BOUND = 10**safe_json.INT_DIGITS


def _plain_args(args: Any) -> dict[str, Any] | None:
    """A copy of ``args`` when it is an object of flat values whose names and text are ASCII (the usual call); else None.

    Such arguments need neither of the checks below: ASCII text holds no lone
    surrogate, and one level is far from too deep. Anything else takes them.
    """
    if type(args) is not dict:
        return None
    for name, value in args.items():
        if type(name) is not str or not name.isascii():
            return None
        kind = type(value)
        if kind is str:
            if not value.isascii():
                return None
        elif kind not in _FLAT or (kind is int and not -_INT_BOUND < value < _INT_BOUND):  # a huge int: refused below
            return None
        elif kind is float and value - value != 0.0:  # NaN or an infinity (x - x is NaN for both): refused below
            return None
    return dict(args)


def _check_input(args: dict[str, Any]) -> None:
    """Refuse values no store or transport can carry: nested too deeply, text that is not Unicode, NaN or an infinity."""
    try:
        safe_json.check_value(args, root="args")
    except safe_json.JsonInputError as exc:
        field = {"field": safe_json.dotted(exc.path, "args"), "path": "/" + "/".join(str(p) for p in exc.path), "code": exc.code, "message": exc.message}
        raise CallRejected(exc.message, field_errors=[field]) from None


def _mostly_wrong(args: dict[str, Any], field_errors: list[dict[str, Any]]) -> bool:
    bad = {e["path"].split("/")[1] for e in field_errors if e["path"].count("/") >= 1}
    return not args or len(bad) * 2 >= len(args)


def help_inline(record: OpRecord) -> dict[str, Any]:
    """Usage and a valid example, so that one retry can succeed without a help call."""
    from ..help._args import usage_line  # here: a call that passes never loads the help service

    inline: dict[str, Any] = {"usage": usage_line(record)}
    if record.examples:
        inline["example"] = {"op": record.op, "args": record.examples[0].get("args", {})}
    return inline


def dry_run_default(record: OpRecord) -> bool:
    """An op whose schema has ``dry_run`` defaulting to true previews unless told otherwise."""
    prop = (record.parameters.get("properties") or {}).get("dry_run")
    return isinstance(prop, dict) and prop.get("default") is True


_FACTS_KEPT = 4096
_facts: dict[int, tuple[OpRecord, tuple[str, ...], bool]] = {}


def _op_facts(record: OpRecord) -> tuple[tuple[str, ...], bool]:
    """``(required arguments, dry_run default)`` of ``record``, read from its schema once rather than on every call.

    Keyed by the record's identity (a registry reload makes new records, and
    the entry holds its record, so an id is never reused while kept); when
    full, the table starts again.
    """
    found = _facts.get(id(record))
    if found is not None and found[0] is record:
        return found[1], found[2]
    required, default = record.required_args, dry_run_default(record)
    if len(_facts) >= _FACTS_KEPT:
        _facts.clear()
    _facts[id(record)] = (record, required, default)
    return required, default


def _checked_args(record: OpRecord, raw_args: Any, session: Session, validator: ArgumentValidator, warnings: list[str]) -> tuple[dict[str, Any], bool]:
    """The call's arguments, normalised, filled from the session where required ones are missing, and validated;
    and whether the arguments as sent were plain (see :func:`_plain_args`)."""
    plain = _plain_args(raw_args)
    if plain is not None:
        args = plain
    else:
        try:
            args = _normalise_args(raw_args, warnings)
        except InvalidArguments as exc:
            raise CallRejected(exc.message, field_errors=[{"field": "args", "path": "", "code": "invalid_type", "message": exc.message}], **help_inline(record)) from None
        _check_input(args)
    filled = False
    for name in _op_facts(record)[0]:
        if name not in args:  # only then can the session fill anything in
            args, fills = session.fill_missing(record.required_args, args)
            warnings += fills
            filled = True
            break
    # Remembered as plain only as sent: a later call sending exactly these then skips both checks (known_plain).
    field_errors, headline = validator.check(record, args, plain is not None and not filled)
    if field_errors:
        extra = help_inline(record) if _mostly_wrong(args, field_errors) else {}
        count = problem_count(field_errors)
        message = f"{count:,} problem{'s' if count > 1 else ''} with the arguments of {record.op}: {_first_problem(field_errors) if field_errors else headline}"
        raise CallRejected(message, field_errors=field_errors, **extra)
    return args, plain is not None


def _first_problem(field_errors: list[dict[str, Any]]) -> str:
    """The first problem for the headline, naming its argument when its sentence does not.

    A field error's own message leaves the argument to its ``field``; alone in the
    headline, "is too short; expected at least 71 characters" named nothing.
    """
    first = field_errors[0]
    message, field = str(first.get("message", "")), str(first.get("field", ""))
    name = field[len("args."):] if field.startswith("args.") else ""
    if not name or message.startswith((f"{name} ", f"{name}:")) or len(name) > ECHO_CHARS or f"'{name}'" in message:
        return message  # named already, or a name too long to repeat (its message quotes it cut short)
    return f"{name}: {message}"


def prepare_call(
    record: OpRecord,
    raw_args: Any,
    requested: str,
    dry_run: bool,
    idempotency_key: str | None,
    expected_digest: str | None,
    session: Session,
    validator: ArgumentValidator,
    id_seed: str | None = None,
) -> Call:
    warnings: list[str] = []
    if type(raw_args) is dict and validator.known_plain(record, raw_args):
        # The very arguments of an earlier call that were plain and passed: a copy needs neither check again.
        args, plain = dict(raw_args), True
    else:
        args, plain = _checked_args(record, raw_args, session, validator, warnings)
    if idempotency_key is not None and (not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 255):
        raise CallRejected("idempotency_key must be a string of 1 to 255 characters", field_errors=[{"field": "idempotency_key", "path": "/idempotency_key", "code": "invalid_type", "message": "1 to 255 characters"}])
    if idempotency_key is not None and not safe_json.is_clean_text(idempotency_key):
        # Stored with the first answer: text UTF-8 cannot carry raised there, after the call had run.
        message = "idempotency_key holds text that is not valid Unicode (a lone surrogate, or bytes that were not UTF-8); send UTF-8 text"
        raise CallRejected(message, field_errors=[{"field": "idempotency_key", "path": "/idempotency_key", "code": "invalid_text", "message": message}])
    if expected_digest is not None and not isinstance(expected_digest, str):
        raise CallRejected("state_digest must be the string a dry-run returned in meta.state_digest", field_errors=[{"field": "state_digest", "path": "/state_digest", "code": "invalid_type", "message": "a string"}])
    if id_seed is not None and (not isinstance(id_seed, str) or not 8 <= len(id_seed) <= 128):
        raise CallRejected("id_seed must be the string a dry-run returned in meta.id_seed", field_errors=[{"field": "id_seed", "path": "/id_seed", "code": "invalid_type", "message": "8 to 128 characters"}])
    wants_dry_run = bool(dry_run) or bool(args.get("dry_run", _op_facts(record)[1]))
    seed_given = id_seed is not None
    if record.kind == "write":
        id_seed = id_seed or os.urandom(16).hex()
    return Call(requested, record, args, wants_dry_run, idempotency_key, expected_digest, warnings, id_seed, seed_given, plain)
