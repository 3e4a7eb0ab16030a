"""``record``: a dataclass that costs nothing to define, for the start-up of every command.

``@dataclass(frozen=True)`` writes the source of ``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__`` and ``__delattr__`` for each class and compiles it when the
module is imported: 0.3–0.8 ms a class, and the ``score`` path defines a few dozen — more
than pulyacalc's own work on an evening.  ``record`` makes the same class with
``dataclasses.dataclass`` minus the generated code (so ``fields``, ``replace``,
``__match_args__`` and slots are the standard ones) and gives it methods shared by every
record, which read the class's fields: the same equality (same class, then the compared
fields in order), hash, repr, frozen-ness (``FrozenInstanceError``) and ``__post_init__``.
A class that is built in a hot loop writes its own ``__init__`` (assigning every field
with ``object.__setattr__``); the others get a general one, slower per call.

``record`` takes dataclass's ``frozen``, ``slots`` and ``eq`` (the others are not used
here) and type checkers see ``dataclasses.dataclass`` itself.

Even without the generated code ``dataclasses.dataclass`` costs ~0.1 ms a class: it
matches every field's annotation against ``ClassVar``, ``InitVar`` and ``KW_ONLY`` with a
regular expression and a look-up in the module.  ``_fields`` does the same work for the
plain fields records have (a class with any of those three, or a base that is a
dataclass, is handed to ``dataclasses.dataclass``), with the same ``Field`` objects.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from functools import cache
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar, cast

__all__ = ["record"]

T = TypeVar("T")
_MISSING: Any = dataclasses.MISSING
_set = object.__setattr__


def _record(
    cls: type[T] | None = None, /, *, frozen: bool = False, slots: bool = False, eq: bool = True
) -> type[T] | Callable[[type[T]], type[T]]:
    """``dataclass(frozen=frozen, slots=slots, eq=eq)`` without compiling code (see above).
    A class without a docstring gets its name as one (dataclass would work one out of the
    signature, with ``inspect``)."""

    def wrap(c: type[T]) -> type[T]:
        if c.__doc__ is None:
            c.__doc__ = c.__name__
        return _make(c, frozen=frozen, slots=slots, eq=eq)

    return wrap if cls is None else wrap(cls)


if TYPE_CHECKING:  # type checkers see the dataclass it stands for: same fields, frozen-ness, replace
    from dataclasses import dataclass as record
else:
    record = _record


def _make(cls: type[T], *, frozen: bool, slots: bool, eq: bool) -> type[T]:
    own = cls.__dict__
    own_init, own_repr, own_eq, own_hash = (n in own for n in ("__init__", "__repr__", "__eq__", "__hash__"))
    made: Any = _dataclass(cls, frozen=frozen, slots=slots, eq=eq)
    fields = dataclasses.fields(made)
    name = made.__qualname__
    # what the class is, for dataclasses made from it (a frozen one needs a frozen base)
    params = made.__dataclass_params__
    if (params.init, params.repr, params.eq, params.frozen) != (True, True, eq, frozen):
        params.init, params.repr, params.eq, params.frozen = True, True, eq, frozen
    if not own_init:
        made.__init__ = _init(name, fields, frozen, hasattr(made, "__post_init__"))
    if not own_repr:
        made.__repr__ = _repr(name, tuple(f.name for f in fields if f.repr))
    if eq and not own_eq:
        key = _key(tuple(f.name for f in fields if f.compare))
        made.__eq__ = _eq(key)
        # dataclass: frozen and compared -> hashed by the compared fields; mutable -> unhashable
        if not own_hash:
            made.__hash__ = (lambda self: hash(key(self))) if frozen else None
    if frozen:
        made.__setattr__ = _frozen_setattr
        made.__delattr__ = _frozen_delattr
        if slots:  # as dataclass does: pickling and copying set the slots past __setattr__
            made.__getstate__ = _getstate
            made.__setstate__ = _setstate
    return made  # type: ignore[no-any-return]


#: annotations that are not plain fields (dataclasses tells them by their first word)
_SPECIAL = frozenset({"ClassVar", "InitVar", "KW_ONLY"})


def _dataclass(cls: type[T], *, frozen: bool, slots: bool, eq: bool) -> type[T]:
    """``dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=slots)``, with
    the ``__dataclass_params__`` of ``dataclass(frozen=frozen, eq=eq, slots=slots)``."""
    notes: dict[str, Any] = cls.__dict__.get("__annotations__", {})
    if not _plain(cls, notes):
        return dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=slots)
    missing: Any = _MISSING
    found: dict[str, dataclasses.Field[Any]] = {}
    for name, note in notes.items():
        default = getattr(cls, name, missing)
        if isinstance(default, dataclasses.Field):
            f = default
        else:
            slot = isinstance(default, types.MemberDescriptorType)  # a slot of a base: no default
            f = dataclasses.field(default=missing if slot else default)
        f.name, f.type = name, note
        f._field_type = dataclasses._FIELD  # type: ignore[attr-defined]
        if f.kw_only is missing:
            f.kw_only = False
        if f.default is not missing and f.default.__class__.__hash__ is None:
            raise ValueError(
                f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory"
            )
        found[name] = f
        if isinstance(cls.__dict__.get(name), dataclasses.Field):
            if f.default is missing:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
    for name, value in cls.__dict__.items():
        if isinstance(value, dataclasses.Field) and name not in notes:
            raise TypeError(f"{name!r} is a field but has no type annotation")
    made = cast(Any, cls)
    made.__dataclass_fields__ = found
    made.__dataclass_params__ = _params(frozen, eq, slots)
    if "__match_args__" not in cls.__dict__:
        made.__match_args__ = tuple(name for name, f in found.items() if f.init)  # type: ignore[misc]
    replacer = getattr(dataclasses, "_replace", None)  # Python 3.13 on: copy.replace() too
    if replacer is not None and "__replace__" not in cls.__dict__:
        made.__replace__ = replacer
    if slots:
        body = dict(cls.__dict__)
        body["__slots__"] = tuple(found)
        for name in (*found, "__dict__", "__weakref__"):
            body.pop(name, None)
        made = type(cls.__name__, cls.__bases__, body)  # _plain: the metaclass is type
        made.__qualname__ = cls.__qualname__
    return cast("type[T]", made)


def _plain(cls: type, notes: dict[str, Any]) -> bool:
    """Can ``_dataclass`` make ``cls``: string annotations (``from __future__ import
    annotations``, kept in the class's own dict) none of which is ClassVar, InitVar or
    KW_ONLY, no base with fields (or slots) of its own, no abstract methods to count."""
    if "__annotations__" not in cls.__dict__:
        return False
    if cls.__bases__ != (object,) and any(
        hasattr(b, "__dataclass_fields__") or "__slots__" in b.__dict__ for b in cls.__mro__[1:-1]
    ):
        return False
    if type(cls) is not type:  # a metaclass (ABCMeta …): dataclasses knows what it needs
        return False
    return all(
        isinstance(note, str) and note.split("[", 1)[0].strip().rsplit(".", 1)[-1] not in _SPECIAL
        for note in notes.values()
    )


@cache
def _params(frozen: bool, eq: bool, slots: bool) -> Any:
    """What ``dataclass(frozen=frozen, eq=eq, slots=slots)`` records of its arguments (the
    same object for every record made so: nothing changes it).  Taken from a class that
    makes no code (no ``__init__``, ``__repr__``, ``__eq__``), then set as they would be."""
    sample: Any = dataclasses.dataclass(init=False, repr=False, eq=False)(type("_", (), {"__doc__": "_"}))
    params = sample.__dataclass_params__
    params.init, params.repr, params.eq, params.frozen = True, True, eq, frozen
    if hasattr(params, "slots"):  # Python 3.12 on records the rest of the arguments too
        params.slots = slots
    return params


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The compared fields of an object as a tuple (attrgetter gives a bare value for one)."""
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda self: (one(self),)
    if not names:
        return lambda self: ()
    return attrgetter(*names)


def _eq(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, object], Any]:
    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _repr(name: str, shown: tuple[str, ...]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        return f"{name}({', '.join(f'{n}={getattr(self, n)!r}' for n in shown)})"

    return __repr__


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(dataclasses.fields(self), state, strict=True):
        _set(self, f.name, value)


def _init(
    name: str, fields: tuple[dataclasses.Field[Any], ...], frozen: bool, post: bool
) -> Callable[..., None]:
    """The general ``__init__``: positional or keyword arguments in field order, each
    default or default factory, then ``__post_init__``; the same TypeErrors as dataclass's."""
    args = tuple(f for f in fields if f.init)
    every = tuple(f.name for f in args)
    names = set(every)
    later = tuple(f for f in fields if not f.init and _has_default(f))
    put = _set if frozen else setattr

    def __init__(self: Any, *given: Any, **named: Any) -> None:
        if not named and len(given) == len(every):  # the common call: every field, in order
            for k, v in zip(every, given, strict=True):
                put(self, k, v)
        else:
            _bind(self, given, named)
        for f in later:
            put(self, f.name, f.default if f.default is not _MISSING else _factory(f)())
        if post:
            self.__post_init__()

    def _bind(self: Any, given: tuple[Any, ...], named: dict[str, Any]) -> None:
        if len(given) > len(args):
            raise TypeError(
                f"{name}.__init__() takes {len(args) + 1} positional arguments "
                f"but {len(given) + 1} were given"
            )
        for k in named:
            if k not in names:
                raise TypeError(f"{name}.__init__() got an unexpected keyword argument {k!r}")
        for i, f in enumerate(args):
            if i < len(given):
                if f.name in named:
                    raise TypeError(f"{name}.__init__() got multiple values for argument {f.name!r}")
                value = given[i]
            elif f.name in named:
                value = named[f.name]
            elif f.default is not _MISSING:
                value = f.default
            elif f.default_factory is not _MISSING:
                value = _factory(f)()
            else:
                raise TypeError(f"{name}.__init__() missing 1 required positional argument: {f.name!r}")
            put(self, f.name, value)

    return __init__


def _has_default(f: dataclasses.Field[Any]) -> bool:
    return f.default is not _MISSING or f.default_factory is not _MISSING


def _factory(f: dataclasses.Field[Any]) -> Callable[[], Any]:
    factory: Callable[[], Any] = f.default_factory  # type: ignore[assignment]
    return factory
