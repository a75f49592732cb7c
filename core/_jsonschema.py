"""jsonschema, imported without its format libraries: each is imported by the first value that needs it.

Importing jsonschema registers its format checkers, and with the ``format``
extras installed that imports arrow, dateutil, isoduration, rfc3987, idna and
more at once: about a third of an ``opgate exec`` (bench/bench_cli.py), for
formats most calls never meet. Here jsonschema is imported with those
libraries held back (on this thread only), and each format they check gets a
stand-in in jsonschema's own checkers (every draft's, and FormatChecker's
defaults). A stand-in imports its library on the first value it is given,
checks it as jsonschema does and puts jsonschema's check in its place, so
every format the extras check is still checked, with the same verdict and
the same error. tests/unit/test_lazy_formats.py compares both with a plain
import of jsonschema.

Core modules import jsonschema's names from here, never jsonschema itself
(tests/unit/test_lazy_formats.py checks it), so that the first import in
a process is this one.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# The libraries jsonschema's format module imports when it can (jsonschema 4.2x).
HELD_BACK = frozenset({
    "fqdn", "idna", "rfc3987", "rfc3986_validator", "rfc3987_syntax", "rfc3339_validator", "webcolors", "jsonpointer", "uri_template", "isoduration",
})


class _HoldBack:
    """A finder that refuses the held-back libraries to the thread importing jsonschema (others import them as usual)."""

    def __init__(self) -> None:
        self._thread = threading.get_ident()

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if threading.get_ident() == self._thread and name.partition(".")[0] in HELD_BACK:
            raise ModuleNotFoundError(f"{name} is imported when a format needs it", name=name)
        return None


def _import_jsonschema() -> None:
    if "jsonschema" in sys.modules:
        return  # imported before (by another library, or in full): its checkers are complete already
    hold = _HoldBack()
    sys.meta_path.insert(0, hold)
    try:
        import jsonschema  # noqa: F401
    finally:
        sys.meta_path.remove(hold)


_import_jsonschema()

from jsonschema import (  # noqa: E402
    Draft3Validator, Draft4Validator, Draft6Validator, Draft7Validator, Draft201909Validator, Draft202012Validator, FormatChecker, validators,
)
from jsonschema.exceptions import FormatError, SchemaError, ValidationError, best_match  # noqa: E402

Check = tuple[Callable[[object], Any], Any]
DRAFT_CHECKERS = {
    "draft3": Draft3Validator.FORMAT_CHECKER, "draft4": Draft4Validator.FORMAT_CHECKER, "draft6": Draft6Validator.FORMAT_CHECKER,
    "draft7": Draft7Validator.FORMAT_CHECKER, "draft201909": Draft201909Validator.FORMAT_CHECKER, "draft202012": Draft202012Validator.FORMAT_CHECKER,
}
_DRAFTS = tuple(DRAFT_CHECKERS)


# Each loader imports one library and returns jsonschema's check for a format: (function, exceptions meaning "not this format").
def _date_time() -> Check:
    from rfc3339_validator import validate_rfc3339

    def is_datetime(instance: object) -> bool:
        if not isinstance(instance, str):
            return True
        return validate_rfc3339(instance.upper())

    return is_datetime, ()


def _time() -> Check:
    is_datetime, _ = _date_time()

    def is_time(instance: object) -> bool:
        if not isinstance(instance, str):
            return True
        return is_datetime("1970-01-01T" + instance)

    return is_time, ()


def _hostname() -> Check:
    from fqdn import FQDN

    def is_host_name(instance: object) -> bool:
        if not isinstance(instance, str):
            return True
        return FQDN(instance, min_labels=1).is_valid

    return is_host_name, ValueError  # FQDN("") raises ValueError


def _idn_hostname() -> Check:
    import idna  # the codec built into Python only knows RFC 3490

    def is_idn_host_name(instance: object) -> bool:
        if not isinstance(instance, str):
            return True
        idna.encode(instance)
        return True

    return is_idn_host_name, (idna.IDNAError, UnicodeError)


def _rfc3987(rule: str) -> Callable[[], Check]:
    def load() -> Check:
        import rfc3987

        def parses(instance: object) -> bool:
            if not isinstance(instance, str):
                return True
            return rfc3987.parse(instance, rule=rule)

        return parses, ValueError

    return load


def _json_pointer() -> Check:
    import jsonpointer

    def is_json_pointer(instance: object) -> bool:
        if not isinstance(instance, str):
            return True
        return bool(jsonpointer.JsonPointer(instance))

    return is_json_pointer, jsonpointer.JsonPointerException


def _relative_json_pointer() -> Check:
    import jsonpointer

    def is_relative_json_pointer(instance: object) -> bool:
        # A non-negative integer without a leading zero, then "#" or a JSON pointer (draft-handrews-relative-json-pointer-01).
        if not isinstance(instance, str):
            return True
        if not instance:
            return False
        digits, rest = [], ""
        for i, character in enumerate(instance):
            if character.isdigit():
                if i > 0 and int(instance[i - 1]) == 0:
                    return False
                digits.append(character)
                continue
            if not digits:
                return False
            rest = instance[i:]
            break
        return (rest == "#") or bool(jsonpointer.JsonPointer(rest))

    return is_relative_json_pointer, jsonpointer.JsonPointerException


def _uri_template() -> Check:
    import uri_template

    def is_uri_template(instance: object) -> bool:
        if not isinstance(instance, str):
            return True
        return uri_template.validate(instance)

    return is_uri_template, ()


def _duration() -> Check:
    import isoduration

    def is_duration(instance: object) -> bool:
        if not isinstance(instance, str):
            return True
        isoduration.parse_duration(instance)
        return instance.endswith(tuple("DMYWHMS"))  # isoduration accepts "P" and "PT" alone

    return is_duration, isoduration.DurationParsingException


def _color() -> Check:
    import webcolors

    def is_css21_color(instance: object) -> bool:
        if isinstance(instance, str):
            try:
                webcolors.name_to_hex(instance)
            except ValueError:
                webcolors.normalize_hex(instance.lower())
        return True

    return is_css21_color, (ValueError, TypeError)


def _names(name: str | None = None, *, since: str = "draft3", **by_draft: str) -> dict[str, str]:
    """The name a format has in each draft that checks it: ``name`` from draft ``since`` on, unless a draft names it otherwise."""
    names = {draft: name for draft in _DRAFTS[_DRAFTS.index(since):]} if name else {}
    return {**names, **by_draft}


@dataclass
class LazyFormat:
    """A format jsonschema checks with an optional library, and the name it has in each draft."""

    names: dict[str, str]
    load: Callable[[], Check]
    loaded: Check | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def check(self) -> Check:
        if self.loaded is None:
            with self.lock:
                if self.loaded is None:
                    self.loaded = self.load()
        return self.loaded


# The formats, names and drafts of jsonschema's _format module for the libraries above.
LAZY_FORMATS = (
    LazyFormat(_names(since="draft3", draft3="host-name", draft4="hostname", draft6="hostname", draft7="hostname", draft201909="hostname", draft202012="hostname"), _hostname),
    LazyFormat(_names("idn-hostname", since="draft7"), _idn_hostname),
    LazyFormat(_names("iri", since="draft7"), _rfc3987("IRI")),
    LazyFormat(_names("iri-reference", since="draft7"), _rfc3987("IRI_reference")),
    LazyFormat(_names("uri"), _rfc3987("URI")),
    LazyFormat(_names("uri-reference", since="draft6"), _rfc3987("URI_reference")),
    LazyFormat(_names("date-time"), _date_time),
    LazyFormat(_names("time", since="draft7"), _time),
    LazyFormat(_names(draft3="color"), _color),
    LazyFormat(_names("json-pointer", since="draft6"), _json_pointer),
    LazyFormat(_names("relative-json-pointer", since="draft7"), _relative_json_pointer),
    LazyFormat(_names("uri-template", since="draft6"), _uri_template),
    LazyFormat(_names("duration", since="draft201909"), _duration),
)


class _StandIn:
    """Registered in a checker in place of a format's check: loads it on the first value, then gives way to it."""

    def __init__(self, lazy: LazyFormat, name: str):
        self.lazy = lazy
        self.name = name

    def __call__(self, instance: object) -> Any:
        func, raises = self.lazy.check()
        _give_way(self.lazy, (func, raises))
        try:
            return func(instance)
        except raises as exc:
            # What FormatChecker.check raises for these exceptions: the stand-in was registered without them.
            raise FormatError(f"{instance!r} is not a {self.name!r}", cause=exc) from None


def _tables() -> list[dict[str, Check]]:
    return [checker.checkers for checker in DRAFT_CHECKERS.values()] + [FormatChecker.checkers]


def _give_way(lazy: LazyFormat, check: Check) -> None:
    for table in _tables():
        for name, (func, _) in list(table.items()):
            if isinstance(func, _StandIn) and func.lazy is lazy:
                table[name] = check


def _install_stand_ins() -> None:
    """A stand-in for each format jsonschema did not register (its library was held back); none where it did."""
    for lazy in LAZY_FORMATS:
        for draft, name in lazy.names.items():
            DRAFT_CHECKERS[draft].checkers.setdefault(name, (_StandIn(lazy, name), ()))
        # FormatChecker's defaults name a format as its newest draft does (jsonschema's _checks_drafts).
        newest = next(lazy.names[draft] for draft in reversed(_DRAFTS) if draft in lazy.names)
        FormatChecker.checkers.setdefault(newest, (_StandIn(lazy, newest), ()))


_install_stand_ins()

__all__ = [
    "Draft3Validator", "Draft4Validator", "Draft6Validator", "Draft7Validator", "Draft201909Validator", "Draft202012Validator",
    "FormatChecker", "FormatError", "HELD_BACK", "LAZY_FORMATS", "SchemaError", "ValidationError", "best_match", "validators",
]
