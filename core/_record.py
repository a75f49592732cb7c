"""Value classes for the start-up path: ``@record`` is ``@dataclass`` without its import and class-making cost.

Python 3.11's ``dataclasses`` imports ``inspect`` (and with it ``ast``,
``dis`` and ``tokenize``) and compiles five or six methods for each class it
decorates: about 42 million instructions for the import and 2-4 million for
each class, over a third of what ``opgate help`` costs beyond the
interpreter (docs/performance.md). A command line loads some forty value
classes before it answers, so those that every command loads are
``@record``s: the same generated ``__init__`` (one compile, not six), and
``__repr__``, ``__eq__``, ``__hash__`` and the frozen guard shared by every
record rather than compiled for each.

What it covers is what this project uses of dataclasses: ``frozen``,
defaults, ``field(default_factory=..., repr=..., compare=...)``, inheriting
fields from a record base, ``__post_init__`` and :func:`replace`. Fields are
the class's own annotations in order, ``ClassVar`` ones excepted. Anything
else (slots, ordering, keyword-only fields) stays with ``dataclasses``.
"""

from __future__ import annotations

from _thread import get_ident
from operator import attrgetter
from typing import Any, TypeVar

__all__ = ["FrozenRecordError", "field", "record", "replace"]

T = TypeVar("T")
_MISSING: Any = object()
_FIELDS = "__record_fields__"
_FROZEN_OWN = "__record_frozen__"


class FrozenRecordError(AttributeError):
    """Setting or deleting an attribute of a frozen record (dataclasses' FrozenInstanceError, by another name)."""


class Field:
    """A field's default (a value or a factory) and whether it shows in ``repr`` and counts in ``==``."""

    __slots__ = ("compare", "default", "default_factory", "name", "repr")

    def __init__(self, default: Any = _MISSING, default_factory: Any = _MISSING, repr: bool = True, compare: bool = True) -> None:  # noqa: A002
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.repr = repr
        self.compare = compare


def field(*, default: Any = _MISSING, default_factory: Any = _MISSING, repr: bool = True, compare: bool = True) -> Any:  # noqa: A002
    """Like ``dataclasses.field``: a default made per instance, or a field left out of ``repr`` or ``==``."""
    if default is not _MISSING and default_factory is not _MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, repr, compare)


def _own_fields(cls: type) -> list[Field]:
    made = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
        if text.startswith(("ClassVar", "typing.ClassVar")):
            continue
        value = cls.__dict__.get(name, _MISSING)
        spec = value if isinstance(value, Field) else Field(default=value)
        spec.name = name
        if type(spec.default).__hash__ is None:  # as dataclasses: one list or dict shared by every instance is a bug
            raise ValueError(f"mutable default {type(spec.default)} for field {name} is not allowed: use default_factory")
        if isinstance(value, Field):
            if spec.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
        made.append(spec)
    return made


def _all_fields(cls: type) -> dict[str, Field]:
    fields: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        fields.update(base.__dict__.get(_FIELDS, {}))
    for spec in _own_fields(cls):
        fields[spec.name] = spec
    return fields


def _make_init(cls: type, fields: list[Field], frozen: bool) -> Any:
    """``__init__`` compiled once for the class: as fast to call as a dataclass's (registries make many records)."""
    names = {"_MISSING": _MISSING, "_setattr": object.__setattr__}
    parameters, body, seen_default = [], [], False
    for spec in fields:
        if spec.default is not _MISSING:
            names[f"_default_{spec.name}"] = spec.default
            parameters.append(f"{spec.name}=_default_{spec.name}")
            seen_default = True
        elif spec.default_factory is not _MISSING:
            names[f"_factory_{spec.name}"] = spec.default_factory
            parameters.append(f"{spec.name}=_MISSING")
            body.append(f"  if {spec.name} is _MISSING: {spec.name} = _factory_{spec.name}()")
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {spec.name!r} follows default argument")
        else:
            parameters.append(spec.name)
        body.append(f"  _setattr(self, {spec.name!r}, {spec.name})" if frozen else f"  self.{spec.name} = {spec.name}")
    if hasattr(cls, "__post_init__"):
        body.append("  self.__post_init__()")
    source = f"def __init__(self, {', '.join(parameters)}):\n" + ("\n".join(body) or "  pass") + "\n"
    exec(source, names)  # noqa: S102 - the text is made here from field names, which are identifiers
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


_REPR_RUNNING: set = set()


def _repr(self: Any) -> str:
    key = (id(self), get_ident())
    if key in _REPR_RUNNING:  # a record that holds itself shows as ``...`` (reprlib.recursive_repr, as dataclasses)
        return "..."
    _REPR_RUNNING.add(key)
    try:
        return _repr_fields(self)
    finally:
        _REPR_RUNNING.discard(key)


def _repr_fields(self: Any) -> str:
    shown = ", ".join(f"{spec.name}={getattr(self, spec.name)!r}" for spec in getattr(self, _FIELDS).values() if spec.repr)
    return f"{type(self).__qualname__}({shown})"


def _comparison(fields: list[Field]) -> tuple[Any, Any]:
    """``__eq__`` and ``__hash__`` over the compared fields, read in C by one ``attrgetter``."""
    names = [spec.name for spec in fields if spec.compare]
    if len(names) > 1:
        key = attrgetter(*names)
    elif names:
        one = attrgetter(names[0])

        def key(obj: Any) -> tuple:
            return (one(obj),)
    else:
        def key(obj: Any) -> tuple:
            return ()

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return key(self) == key(other)

    def __hash__(self: Any) -> int:
        return hash(key(self))

    return __eq__, __hash__


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    # As dataclasses: no attribute at all on the frozen class itself (a misspelt field is no silent new one);
    # an undecorated subclass may add its own.
    if name in getattr(self, _FIELDS) or _FROZEN_OWN in type(self).__dict__:
        raise FrozenRecordError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _frozen_delattr(self: Any, name: str) -> None:
    if name in getattr(self, _FIELDS) or _FROZEN_OWN in type(self).__dict__:
        raise FrozenRecordError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


def record(cls: type[T] | None = None, /, *, frozen: bool = False) -> Any:
    """Make ``cls`` a value class from its annotations, as ``@dataclass`` / ``@dataclass(frozen=True)`` would."""

    def wrap(cls: type[T]) -> type[T]:
        fields = _all_fields(cls)
        setattr(cls, _FIELDS, fields)
        if "__init__" not in cls.__dict__:  # as dataclasses do, a class's own __init__ stays
            cls.__init__ = _make_init(cls, list(fields.values()), frozen)
        if "__repr__" not in cls.__dict__:
            cls.__repr__ = _repr
        eq, hash_ = _comparison(list(fields.values()))
        # A class body with its own __eq__ and no __hash__ gets __hash__ = None from Python: not an explicit one.
        own_hash = cls.__dict__.get("__hash__") is not None
        if "__eq__" not in cls.__dict__:
            cls.__eq__ = eq
        # As dataclasses do: frozen and compared by value is hashable by value (also with its own __eq__);
        # mutable is unhashable; a class's own __hash__ stays.
        if not own_hash:
            cls.__hash__ = hash_ if frozen else None
        if frozen:
            setattr(cls, _FROZEN_OWN, True)
            cls.__setattr__ = _frozen_setattr
            cls.__delattr__ = _frozen_delattr
        cls.__match_args__ = tuple(fields)
        return cls

    return wrap if cls is None else wrap(cls)


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the record ``obj`` with ``changes`` (``dataclasses.replace`` for a record; for a dataclass, that)."""
    fields = getattr(type(obj), _FIELDS, None)
    if fields is None:
        import dataclasses

        return dataclasses.replace(obj, **changes)
    for name in changes:
        if name not in fields:
            raise TypeError(f"{type(obj).__qualname__} has no field {name!r}")
    return type(obj)(**{name: changes[name] if name in changes else getattr(obj, name) for name in fields})
