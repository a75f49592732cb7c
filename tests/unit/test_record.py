"""core/_record.py's @record behaves as @dataclass does for what the project uses of it."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import ClassVar

import pytest

from opgate.core._record import FrozenRecordError, field, record, replace


def _pair(frozen: bool):
    """The same class made by @dataclass and by @record."""

    def body(decorate, make_field):
        class Thing:
            """A thing."""

            LIMIT: ClassVar[int] = 3
            name: str
            size: int = 0
            tags: tuple[str, ...] = ()
            extra: dict = make_field(default_factory=dict)
            secret: str = make_field(default="", repr=False)
            note: str = make_field(default="", compare=False)

            def shown(self) -> str:
                return f"{self.name}:{self.size}"

        return decorate(Thing)

    return body(dataclasses.dataclass(frozen=frozen), dataclasses.field), body(record(frozen=frozen), field)


@pytest.mark.parametrize("frozen", [True, False])
def test_a_record_is_made_and_compared_as_a_dataclass(frozen):
    made_by_dataclass, made_by_record = _pair(frozen)
    for cls in (made_by_dataclass, made_by_record):
        cls.__qualname__ = "Thing"
    for args, kwargs in [(("a",), {}), (("a", 2, ("x",)), {}), (("a",), {"secret": "s", "note": "n", "extra": {"k": 1}})]:
        ours, theirs = made_by_record(*args, **kwargs), made_by_dataclass(*args, **kwargs)
        assert repr(ours) == repr(theirs)
        assert vars(ours) == vars(theirs)
        assert ours == made_by_record(*args, **kwargs)
        assert ours.shown() == theirs.shown()
    assert made_by_record("a") != made_by_record("b")
    assert made_by_record("a", note="one") == made_by_record("a", note="two")  # compare=False
    assert made_by_record("a") != made_by_dataclass("a")  # another class: never equal
    assert made_by_record("a").extra is not made_by_record("a").extra  # a factory per instance
    assert made_by_record.__match_args__ == made_by_dataclass.__match_args__
    assert made_by_record.LIMIT == 3 and "LIMIT" not in vars(made_by_record("a"))
    with pytest.raises(TypeError):
        made_by_record()
    with pytest.raises(TypeError):
        made_by_record("a", nope=1)


def test_frozen_records_refuse_changes_and_hash_by_value():
    _, cls = _pair(True)
    thing = cls("a", 1)
    with pytest.raises(FrozenRecordError):
        thing.size = 2
    with pytest.raises(AttributeError):  # FrozenRecordError is an AttributeError, as FrozenInstanceError is
        del thing.name
    assert hash(_Module("a", 1)) == hash(_Module("a", 1)) == hash(dataclasses.make_dataclass("M", ["name", "size"], frozen=True)("a", 1))
    assert len({_Module("a", 1), _Module("a", 1), _Module("b", 1)}) == 2


def test_mutable_records_change_and_are_not_hashable():
    _, cls = _pair(False)
    thing = cls("a")
    thing.size = 5
    assert thing.size == 5
    with pytest.raises(TypeError):
        hash(thing)


def test_replace_copies_with_changes_and_checks_names():
    dataclass_cls, record_cls = _pair(True)
    thing = record_cls("a", 1, extra={"k": 1})
    changed = replace(thing, size=2)
    assert (changed.name, changed.size, changed.extra) == ("a", 2, {"k": 1}) and thing.size == 1
    with pytest.raises(TypeError):
        replace(thing, nope=1)
    assert replace(dataclass_cls("a"), size=3) == dataclass_cls("a", 3)  # a dataclass goes to dataclasses.replace


def test_records_pickle_and_copy():
    thing = _Module("a", 2)
    assert pickle.loads(pickle.dumps(thing)) == thing
    assert copy.deepcopy(thing) == thing and copy.copy(thing) == thing


def test_post_init_runs_and_field_order_is_checked():
    @record
    class Counted:
        items: list
        count: int = field(default=0)

        def __post_init__(self) -> None:
            self.count = len(self.items)

    assert Counted([1, 2]).count == 2
    with pytest.raises(TypeError):

        @record
        class Wrong:
            first: int = 0
            second: int


@record(frozen=True)
class _Module:
    name: str
    size: int = 0


@pytest.mark.parametrize("make", [dataclasses.dataclass(frozen=True), record(frozen=True)], ids=["dataclass", "record"])
def test_a_frozen_class_takes_no_new_attribute_but_its_plain_subclass_may(make):
    @make
    class Point:
        x: int

    class Labelled(Point):
        pass

    with pytest.raises(AttributeError):
        Point(1).misspelt_x = 2  # a typo for a field is refused, not kept as a new attribute
    labelled = Labelled(1)
    labelled.label = "a"
    assert labelled.label == "a"


@pytest.mark.parametrize("make", [dataclasses.dataclass(frozen=True), record(frozen=True)], ids=["dataclass", "record"])
def test_a_frozen_class_with_its_own_eq_hashes_by_its_fields(make):
    @make
    class Loose:
        x: int

        def __eq__(self, other):
            return isinstance(other, Loose)

    assert hash(Loose(1)) == hash(Loose(1))


@pytest.mark.parametrize("make", [dataclasses.dataclass, record], ids=["dataclass", "record"])
def test_a_mutable_default_is_refused(make):
    for shared in ([], {}, set()):
        with pytest.raises(ValueError, match="default_factory"):

            @make
            class Holder:
                items: object = shared


@pytest.mark.parametrize("make", [dataclasses.dataclass, record], ids=["dataclass", "record"])
def test_a_record_holding_itself_repr_shows_dots(make):
    @make
    class Node:
        child: object = None

    node = Node()
    node.child = node
    assert repr(node) == f"{Node.__qualname__}(child=...)"
