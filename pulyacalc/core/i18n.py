"""What a person reads, in the person's language: gettext catalogs shipped in the package.

Source strings are English; ``pulyacalc/locale/<lang>/LC_MESSAGES/pulyacalc.mo`` holds a
translation.  The language is chosen once per process, in this order: :func:`use` (the
``--lang`` option), ``PULYACALC_LANG``, then the standard LANGUAGE / LC_ALL / LC_MESSAGES /
LANG lookup that :func:`gettext.translation` does.  Machine formats (json, csv …) never pass
through here: their field names are stable English.

Mark a template with ``_()`` and fill it with ``str.format`` afterwards, so that a translator
sees the whole sentence with its named fields: ``_("{payer} pays {payee} {amount}").format(…)``.
``N_()`` only marks a string for extraction (a table of messages built at import time, before a
language is chosen); translate it with ``_()`` where it is shown.
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path

DOMAIN = "pulyacalc"
#: where the compiled catalogs live (inside the package, so an install carries them)
LOCALEDIR = Path(__file__).resolve().parent.parent / "locale"
#: the languages pulyacalc speaks; English is the source and needs no catalog
LANGUAGES = ("en", "ru")

_active: gettext.NullTranslations | None = None


def use(lang: str | None = None) -> None:
    """Choose the language: ``lang`` when given, else ``PULYACALC_LANG``, else the locale."""
    global _active
    lang = lang or os.environ.get("PULYACALC_LANG") or None
    languages = [lang] if lang else None
    # fallback=True: an unknown or English locale is the source text, never an error
    _active = gettext.translation(DOMAIN, str(LOCALEDIR), languages=languages, fallback=True)


def _(message: str) -> str:
    """``message`` in the chosen language (chosen from the environment on first use)."""
    if _active is None:
        use()
    assert _active is not None
    return _active.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the chosen language (Russian has three)."""
    if _active is None:
        use()
    assert _active is not None
    return _active.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it now."""
    return message
