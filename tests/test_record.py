"""``record`` (core/record.py) behaves as the dataclass it replaces: each test makes the same
class both ways and compares what a program can see."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import typing
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, ClassVar

import pytest

from pulyacalc.core.record import record


def twins(slots: bool) -> tuple[Any, Any]:
    """The same class as a dataclass and as a record."""

    def body() -> dict[str, Any]:
        def __post_init__(self: Any) -> None:
            if self.b == "post":
                object.__setattr__(self, "c", 99)

        return {
            "__annotations__": {"a": "int", "b": "str", "c": "int", "d": "dict[str, int]", "e": "object"},
            "__doc__": "A sample.",
            "b": "x",
            "c": 0,
            "d": field(default_factory=dict),
            "e": field(default=None, compare=False, repr=False),
            "__post_init__": __post_init__,
            "__module__": __name__,
        }

    dc = dataclass(frozen=True, slots=slots)(type("Sample", (), body()))
    rec = record(frozen=True, slots=slots)(type("Sample", (), body()))
    return dc, rec


@pytest.mark.parametrize("slots", [True, False])
def test_a_record_is_the_dataclass_it_replaces(slots: bool) -> None:
    dc, rec = twins(slots)
    cases: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        ((1,), {}),
        ((1, "y", 2), {"d": {"k": 1}}),
        ((), {"a": 3, "e": "ignored"}),
        ((4, "post"), {}),
        ((5, "post", 7, {"k": 2}, "every field, in order"), {}),
    ]
    for args, kw in cases:
        x, y = dc(*args, **kw), rec(*args, **kw)
        assert repr(x) == repr(y)
        assert [getattr(x, f.name) for f in dataclasses.fields(x)] == [
            getattr(y, f.name) for f in dataclasses.fields(y)
        ]
        assert y == rec(*args, **kw)
        assert y == dataclasses.replace(y, e="other")  # e is not compared
        assert y != dataclasses.replace(y, a=-1)
        assert y.__eq__(x) is NotImplemented  # another class, even with the same fields
        assert copy.deepcopy(y) == y and copy.copy(y) == y
        with pytest.raises(FrozenInstanceError, match="cannot assign to field 'a'"):
            y.a = 5
        with pytest.raises(FrozenInstanceError):
            del y.a
    assert [f.name for f in dataclasses.fields(rec)] == [f.name for f in dataclasses.fields(dc)]
    assert rec.__match_args__ == dc.__match_args__
    assert hasattr(rec(1), "__dict__") is (not slots)
    hashed = rec(1, "z")
    hashed_dc = dc(1, "z")
    object.__setattr__(hashed, "d", ())  # a hashable value in the dict's place, both sides
    object.__setattr__(hashed_dc, "d", ())
    assert hash(hashed) == hash(dataclasses.replace(hashed, e=1)) and hash(hashed) == hash(hashed)
    with pytest.raises(TypeError):
        hash(rec(1))  # a dict field: unhashable, as the dataclass


@record(frozen=True, slots=True)
class Slotted:
    """Pickled (a class pickle can find by name)."""

    a: int
    b: tuple[str, ...] = ()


@record(frozen=True)
class Plain:
    """Pickled, without slots."""

    a: int
    b: tuple[str, ...] = ()


@pytest.mark.parametrize("cls", [Slotted, Plain])
def test_records_pickle_and_copy(cls: Any) -> None:
    x = cls(1, ("a",))
    assert pickle.loads(pickle.dumps(x)) == x == copy.deepcopy(x) == copy.copy(x)
    assert hash(pickle.loads(pickle.dumps(x))) == hash(x)


@pytest.mark.parametrize(
    ("args", "kw", "says"),
    [
        ((), {}, "missing 1 required positional argument: 'a'"),
        ((1, "x", 2, {}, None, 6), {}, "6 positional arguments but 7 were given"),
        ((1,), {"a": 2}, "multiple values for argument 'a'"),
        ((1,), {"z": 2}, "unexpected keyword argument 'z'"),
    ],
)
def test_wrong_arguments_are_the_dataclass_type_errors(args: Any, kw: Any, says: str) -> None:
    dc, rec = twins(True)
    with pytest.raises(TypeError, match=says):
        dc(*args, **kw)
    with pytest.raises(TypeError, match=says):
        rec(*args, **kw)


def test_a_mutable_record_is_unhashable_and_settable() -> None:
    @record
    class Box:
        """A mutable sample."""

        items: list[int] = field(default_factory=list)
        skip: int = field(default=7, init=False)

    b = Box()
    b.items = [1]
    assert b == Box([1]) and b.skip == 7 and Box().items is not Box().items
    with pytest.raises(TypeError):
        hash(b)


def test_a_dataclass_can_extend_a_record() -> None:
    base = record(frozen=True)(type("Base", (), {"__annotations__": {"a": "int"}, "__module__": __name__}))
    sub = dataclass(frozen=True)(
        type("Sub", (base,), {"__annotations__": {"b": "int"}, "__module__": __name__})
    )
    x = sub(1, 2)
    assert (x.a, x.b) == (1, 2) and x == sub(1, 2) != sub(1, 3)
    with pytest.raises(FrozenInstanceError):
        x.a = 3
    with pytest.raises(TypeError, match="cannot inherit non-frozen dataclass from a frozen one"):
        dataclass(type("Loose", (base,), {"__annotations__": {"c": "int"}, "__module__": __name__}))


def test_an_own_init_and_methods_are_kept() -> None:
    @record(frozen=True, slots=True)
    class Pair:
        """With its own __init__ and __repr__."""

        x: int
        y: int = 0

        def __init__(self, x: int, y: int = 0) -> None:
            object.__setattr__(self, "x", x * 10)
            object.__setattr__(self, "y", y)

        def __repr__(self) -> str:
            return "pair"

    assert Pair(1).x == 10 and repr(Pair(1)) == "pair" and Pair(1, 2) == Pair(1, 2) != Pair(1)


def _seen(f: Any) -> tuple[Any, ...]:
    return (f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.hash, f.compare)


def _seen_more(f: Any) -> tuple[Any, ...]:
    return (*_seen(f), dict(f.metadata), f.kw_only, f._field_type)


@pytest.mark.parametrize("slots", [True, False])
@pytest.mark.parametrize("extra", [{}, {"k": "ClassVar[int]"}, {"k": "typing.ClassVar[int]"}])
def test_a_record_has_the_fields_and_class_of_the_dataclass(slots: bool, extra: dict[str, str]) -> None:
    """Made without dataclasses' work (record._dataclass), or by it (a ClassVar): the same
    Field objects, parameters, match arguments, slots and class attributes."""

    def body() -> dict[str, Any]:
        return {
            "__annotations__": {"a": "int", "b": "str", "d": "dict[str, int]", "e": "object", **extra},
            "__doc__": "A sample.",
            "__module__": __name__,
            "b": "x",
            "d": field(default_factory=dict, metadata={"m": 1}),
            "e": field(default=None, compare=False, repr=False),
            **({"k": 3} if extra else {}),
        }

    for frozen, eq in [(True, True), (False, True), (True, False)]:
        dc = dataclass(frozen=frozen, eq=eq, slots=slots)(type("Sample", (), body()))
        rec = record(frozen=frozen, eq=eq, slots=slots)(type("Sample", (), body()))
        assert [_seen_more(f) for f in dc.__dataclass_fields__.values()] == [
            _seen_more(f) for f in rec.__dataclass_fields__.values()
        ]
        assert repr(dc.__dataclass_params__) == repr(rec.__dataclass_params__)
        assert rec.__match_args__ == dc.__match_args__ and rec.__qualname__ == dc.__qualname__
        assert getattr(rec, "__slots__", None) == getattr(dc, "__slots__", None)
        shown = {"a", "b", "d", "e", "k"}  # a slot is a descriptor of its own class: names only
        if slots:
            assert shown & set(vars(rec)) == shown & set(vars(dc))
        else:
            assert {k: vars(rec)[k] for k in shown & set(vars(rec))} == {
                k: vars(dc)[k] for k in shown & set(vars(dc))
            }
        for name in ("__dict__", "__weakref__"):
            assert (name in vars(rec)) is (name in vars(dc))
        assert dataclasses.astuple(dataclasses.replace(rec(1), b="y")) == dataclasses.astuple(rec(1, "y"))
        assert [f.name for f in dataclasses.fields(rec)] == [f.name for f in dataclasses.fields(dc)]
        assert "k" not in [f.name for f in dataclasses.fields(rec)]  # a ClassVar is no field
        assert hasattr(rec, "__replace__") is hasattr(dc, "__replace__")  # Python 3.13 on


#: what the annotations of the sample above name (a ClassVar is told by its module's names)
_NAMED = (ClassVar, typing)


def test_a_record_refuses_what_the_dataclass_refuses() -> None:
    with pytest.raises(ValueError, match="mutable default <class 'list'> for field a is not allowed"):
        record(type("Bad", (), {"__annotations__": {"a": "list[int]"}, "a": [], "__module__": __name__}))
    with pytest.raises(TypeError, match="'b' is a field but has no type annotation"):
        record(type("Bad", (), {"__annotations__": {}, "b": field(default=1), "__module__": __name__}))
