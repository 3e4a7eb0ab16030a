"""What a person reads, in the person's language (gettext catalogs made by ``tools/i18n.py``;
the source is English): :func:`use` (``--lang``), ``PULYACALC_LANG``, then gettext's lookup.

Mark a template with ``_()`` and fill it afterwards, so that a translator sees the whole
sentence; ``N_()`` only marks a string.  A message that may also end in a machine format is an
``M_()`` :class:`Text`: English as a ``str``, shown translated by :func:`tr`."""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

DOMAIN = "pulyacalc"
LOCALEDIR = Path(__file__).resolve().parent.parent / "locale"
LANGUAGES = ("en", "ru")
ENV = "PULYACALC_LANG"
#: the standard variables, in gettext's order
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_active: gettext.NullTranslations | None = None
_lang = "en"


def language_of(value: str) -> str | None:
    """The language pulyacalc speaks for a locale name (``ru_RU.UTF-8``, ``en-GB``, ``C``), or None."""
    name = value.strip().lower()
    for sep in "_.@-":
        name = name.partition(sep)[0]
    if name in ("c", "posix"):
        return "en"
    return name if name in LANGUAGES else None


def from_environment() -> str:
    """The language the environment asks for: ``PULYACALC_LANG``, then the locale as gettext reads it."""
    chosen = os.environ.get(ENV)
    if chosen:
        return language_of(chosen) or "en"
    for var in [v for v in LOCALE_VARS if os.environ.get(v)]:
        for lang in map(language_of, os.environ[var].split(":")):
            if lang is not None:
                return lang
        if var != "LANGUAGE":  # an unknown locale is English; an unknown LANGUAGE list defers
            return "en"
    return "en"


def use(lang: str | None = None) -> None:
    """Choose the language: ``lang`` when given, else ``PULYACALC_LANG``, else the locale."""
    global _active, _lang
    _lang = chosen = (language_of(lang) if lang else None) or from_environment()
    if chosen == "en":
        _active = gettext.NullTranslations()
        return
    # fallback=True: a catalog missing from a broken install is the source text, never an error
    _active = gettext.translation(DOMAIN, str(LOCALEDIR), languages=[chosen], fallback=True)


def current() -> str:
    """The language chosen (``en`` or ``ru``); chooses from the environment on first use."""
    _translations()
    return _lang


def _translations() -> gettext.NullTranslations:
    if _active is None:
        use()
    assert _active is not None
    return _active


def _(message: str) -> str:
    """``message`` in the chosen language."""
    return _translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the chosen language (Russian has three)."""
    return _translations().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the chosen language, told apart by ``context`` (``pool`` the area or the target)."""
    return _translations().pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it now."""
    return message


def NP_(context: str, message: str) -> str:
    """``N_`` with a context (``pgettext``'s): marks ``message`` for the catalog under ``context``."""
    return message


#: a count's forms: (plural template, n); the template is then the singular
Plural = tuple[str, int] | None


class Text(str):
    """English text that remembers how it was made, so that :meth:`translated` can say it again."""

    template: str
    fields: dict[str, object]
    plural: Plural

    def __new__(
        cls,
        template: str,
        fields: dict[str, object] | None = None,
        plural: Plural = None,
        english: str | None = None,
    ) -> Text:
        fields = fields or {}
        if english is None:
            form = template if plural is None or plural[1] == 1 else plural[0]
            english = form.format(**fields) if fields else form
        return made(cls, english, template, fields, plural)

    def spelled(self, english: str) -> Text:
        """The same message, whose English is ``english`` (built by hand; the translation says its own)."""
        return Text(self.template, self.fields, self.plural, english)

    def translated(self) -> str:
        if current() == "en":
            return str(self)
        text = _(self.template) if self.plural is None else ngettext(self.template, *self.plural)
        if not self.fields:
            return text
        # a number stays one: the template may format it (``{size:,}``), as the English does
        said = {k: v if type(v) is int else SAID.get(type(v), tr)(v) for k, v in self.fields.items()}
        return text.format(**said)

    def __reduce__(self) -> tuple[object, ...]:
        # pickled (season caches) as what it is, not as a plain str
        return (Text, (self.template, self.fields, self.plural, str(self)))


#: ``str.__new__``: a Text made directly (scoring makes one per entry it writes)
_new_str = str.__new__
T = TypeVar("T", bound="Text")


def made(cls: type[T], english: str, template: str, fields: dict[str, object], plural: Plural = None) -> T:
    """A ``cls`` (a Text) of ``english`` made directly: ``Text(…)`` without its generality, 2/3 the time."""
    text: T = _new_str(cls, english)
    text.template, text.fields, text.plural = template, fields, plural
    return text


def M_(template: str, /, **fields: object) -> Text:
    """A message made now, shown later: English ``template`` filled with ``fields`` (a :class:`Text`)."""
    return made(Text, template.format_map(fields) if fields else template, template, fields)


def MN_(singular: str, plural: str, n: int, /, **fields: object) -> Text:
    """``M_`` for a count: ``MN_("{n} deal", "{n} deals", n, n=n)``."""
    return Text(singular, fields, (plural, n))


#: how a field of a type of its own is said in a language other than English (a contract: ``7БК``)
SAID: dict[type, Callable[[Any], str]] = {}


def tr(value: object) -> str:
    """``value`` as a person reads it: a :class:`Text` translated, anything else as it is."""
    return value.translated() if isinstance(value, Text) else str(value)
