"""``--lang`` and the command line's own words in the chosen language (:func:`choose` before
anything is shown; :func:`patch_click` makes Typer's vendored click speak it)."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Sequence
from typing import IO, Any

from pulyacalc.core.i18n import ENV, LANGUAGES, N_, _, current, language_of, use

LANG_HELP = N_(
    "Language of what people read: ru or en (default: PULYACALC_LANG, then the locale: "
    "LANGUAGE, LC_ALL, LC_MESSAGES, LANG); json, jsonl, csv and tsv are the same in both."
)

#: what every Typer of the program is made with (the app, a sub-app): no rich, -h for help
TYPER: dict[str, Any] = {
    "pretty_exceptions_enable": False,
    "rich_markup_mode": None,
    "context_settings": {"help_option_names": ["-h", "--help"]},
}


def scan(args: Sequence[str]) -> str | None:
    """The value of ``--lang`` among the arguments (the last one given), or None."""
    found = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith("--lang="):
            found = arg[len("--lang=") :]
    return found


def choose(args: Sequence[str]) -> None:
    """``--lang`` when it names a language, else the environment (a wrong ``--lang`` is
    reported by the option itself)."""
    value = scan(args)
    use(value.lower() if value and value.lower() in LANGUAGES else None)
    if current() != "en":  # a contract in a message is said in the log's words of the language
        import pulyacalc.logs.words  # noqa: F401
    patch_click()


def check_lang(ctx: Any, param: Any, value: str | None) -> str | None:
    """``--lang``'s check: ru or en, any case; anything else is a usage error (exit 2)."""
    import typer

    choices = ", ".join(LANGUAGES)
    if value is not None and value.lower() not in LANGUAGES:
        unknown = _("unknown language {value!r}; choose one of: {choices}")
        raise typer.BadParameter(unknown.format(value=value, choices=choices), ctx=ctx, param=param)
    env = os.environ.get(ENV)
    if value is None and env and language_of(env) is None:
        from typer._click.exceptions import UsageError

        none = _("{var}={value!r} names no language pulyacalc speaks; choose one of: {choices}")
        raise UsageError(none.format(var=ENV, value=env, choices=choices), ctx=ctx)
    return value


def prepare(cmd: Any) -> Any:
    """``cmd`` with its help in the chosen language and ``--lang`` among its options."""
    if cmd is None or getattr(cmd, "_pulyacalc_prepared", False):
        return cmd
    cmd._pulyacalc_prepared = True
    if cmd.help:
        text, cut, rest = cmd.help.partition("\f")
        cmd.help = _(text) + cut + rest
    if cmd.short_help:
        cmd.short_help = _(cmd.short_help)
    for param in cmd.params:
        if getattr(param, "help", None):
            param.help = _(param.help)
        if param.name in ("install_completion", "show_completion"):  # Typer's own: set once
            param.rich_help_panel = ADVANCED
    if cmd.epilog:
        cmd.epilog = _(cmd.epilog)
    # Typer draws help panels only with rich, which start-up does not import: drawn here
    cmd.format_options = functools.partial(format_options, cmd)
    cmd.format_epilog = functools.partial(format_examples, cmd)
    given = {name for param in cmd.params for name in param.opts}
    if "--lang" not in given:
        cmd.params.append(_checked("--lang", LANG_HELP, metavar="ru|en", is_eager=True, callback=check_lang))
    if "--format" in given and "--width" not in given:
        cmd.params.insert(-1, _checked("--width", WIDTH_HELP, type=int, metavar="N", callback=_fit_width))
    return cmd


def _checked(decl: str, help: str, **kw: Any) -> Any:
    """An option its callback checks and keeps: not passed to the command's function."""
    from typer.core import TyperOption

    option = TyperOption(param_decls=[decl], expose_value=False, **kw)
    option.help = _(help)
    return option


#: the help panel of the options a newcomer may skip (Typer's ``rich_help_panel``)
ADVANCED = N_("Advanced options")


def format_options(cmd: Any, ctx: Any, formatter: Any) -> None:
    """Typer's sections (arguments, options), then one per help panel; a group's commands after."""
    help_option = cmd.get_help_option(ctx)  # click's own, made when first asked for
    if help_option is not None:
        help_option.help = _("Show this message and exit.")
    sections: dict[str, list[tuple[str, str]]] = {N_("Arguments"): [], N_("Options"): []}
    for param in cmd.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is not None:
            argument = param.param_type_name == "argument"
            panel = N_("Arguments") if argument else getattr(param, "rich_help_panel", None) or N_("Options")
            sections.setdefault(panel, []).append(record)
    if hasattr(cmd, "list_commands"):
        rows = sections[N_("Commands")] = []
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is not None and not sub.hidden:  # each its short help whole, never cut with "..."
                rows.append((name, sub.get_short_help_str(limit=1_000)))
    for panel, records in sections.items():
        if records:
            with formatter.section(_(panel)):
                formatter.write_dl(records)


def format_examples(cmd: Any, ctx: Any, formatter: Any) -> None:
    """The epilog: a command's examples, one a line, as written (comments and all)."""
    if cmd.epilog:
        with formatter.section(_("Examples")):
            for line in cmd.epilog.splitlines():
                formatter.write(f"{'':>{formatter.current_indent}}{line}\n")


WIDTH_HELP = N_(
    "Fit tables to this many columns (default: the terminal's width, or COLUMNS; output into "
    "a pipe or a file is not fitted unless one of them is given; 0: never fit)."
)


def _fit_width(ctx: Any, param: Any, value: int | None) -> None:
    """``--width N`` of a command that prints tables: the width they are fitted to."""
    if value is not None:
        import typer

        from pulyacalc.render.view import use_width

        if value < 0:
            raise typer.BadParameter(_("give a number of columns, 0 or more"), ctx=ctx, param=param)
        use_width(value or None)


#: the messages click writes itself, as patterns over its English, and their msgids; the
#: named groups fill the msgid's fields (a ``message`` field is translated in turn)
CLICK_MESSAGES: tuple[tuple[str, str], ...] = (
    (r"(?P<message>.*?)\.? Did you mean (?P<options>.*)\?", N_("{message}. Did you mean {options}?")),
    (r"Try (?P<what>'.*') for help\.", N_("Try {what} for help.")),
    (r"Error: (?P<message>.*)", N_("Error: {message}")),
    (r"Invalid value for (?P<hint>'[^:]*'): (?P<message>.*)", N_("Invalid value for {hint}: {message}")),
    (r"Invalid value: (?P<message>.*)", N_("Invalid value: {message}")),
    (r"(?P<value>'.*') is not one of (?P<choices>.*)\.", N_("{value} is not one of {choices}.")),
    (r"(?P<value>.*) is not a valid integer\.", N_("{value} is not a whole number.")),
    (r"(?P<value>.*) is not a valid float\.", N_("{value} is not a number.")),
    (r"(?P<value>.*) is not in the range (?P<range>.*)\.", N_("{value} is not in the range {range}.")),
    (r"Missing argument (?P<hint>.*)\.", N_("Missing argument {hint}.")),
    (r"Missing option (?P<hint>.*)\.", N_("Missing option {hint}.")),
    (r"Missing parameter:? (?P<hint>.*)\.?", N_("Missing parameter {hint}.")),
    (r"Missing command\.", N_("Missing command.")),
    (
        r"No such option: (?P<name>\S+) \(Possible options: (?P<options>.*)\)",
        N_("No such option: {name} (possible options: {options})"),
    ),
    (r"No such option: (?P<name>\S+)", N_("No such option: {name}")),
    (r"No such command (?P<name>'.*')\.", N_("No such command {name}.")),
    (r"Option (?P<name>'.*') requires an argument\.", N_("Option {name} requires a value.")),
    (r"Option (?P<name>'.*') requires (?P<n>\d+) arguments\.", N_("Option {name} requires {n} values.")),
    (r"Option (?P<name>'.*') does not take a value\.", N_("Option {name} does not take a value.")),
    (r"Got unexpected extra arguments? \((?P<args>.*)\)", N_("Unexpected extra arguments ({args})")),
)

#: the words Typer's own code passes through gettext (typer.core), and its completion options
TYPER_MESSAGES: tuple[str, ...] = (N_("Usage:"), N_("Arguments"), N_("Options"), N_("Commands"))
TYPER_MESSAGES += (N_("default: {default}"), N_("required"), N_("env var: {var}"), N_("(dynamic)"))
TYPER_MESSAGES += (N_("Aborted!"), N_("Missing command."), N_("No such command {name!r}."))
TYPER_MESSAGES += (N_("Show this message and exit."), N_("Install completion for the current shell."))
TYPER_MESSAGES += (N_("Show completion for the current shell, to copy it or customize the installation."),)

_compiled: list[tuple[re.Pattern[str], str]] = []


def translate_click(line: str) -> str:
    """One line click wrote, in the chosen language (unknown lines as they are)."""
    if not _compiled:
        _compiled.extend((re.compile(p, re.DOTALL), m) for p, m in CLICK_MESSAGES)
    for pattern, msgid in _compiled:
        m = pattern.fullmatch(line)
        if m:
            fields = m.groupdict()
            if "message" in fields:
                fields["message"] = translate_click(fields["message"])
            return _(msgid).format(**fields)
    return line


@functools.cache
def patch_click() -> None:
    """Make Typer's vendored click speak the chosen language and echo safe (once per
    process, cached; English passes through unchanged)."""
    import io

    import typer.core
    from typer._click import exceptions, formatting

    typer.core._ = _  # type: ignore[attr-defined]  # section titles, "default:", "required", "No such command"

    def translated(show: Any) -> Any:
        def show_translated(self: Any, file: IO[Any] | None = None) -> None:
            from typer._click._compat import get_text_stderr

            from pulyacalc.core.errors import shown

            buf = io.StringIO()
            show(self, buf)
            text = buf.getvalue()
            if current() != "en":
                text = "\n".join(translate_click(line) for line in text.split("\n"))
            # what the command line echoes (an unknown option's name) shown safe, as every echo
            (file or get_text_stderr()).write(shown(text, 0, keep="\n"))

        return show_translated

    exceptions.ClickException.show = translated(exceptions.ClickException.show)  # type: ignore[method-assign]
    exceptions.UsageError.show = translated(exceptions.UsageError.show)  # type: ignore[method-assign]

    original_usage = formatting.HelpFormatter.write_usage

    def write_usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        original_usage(self, prog, args, _("Usage:") + " " if prefix is None else prefix)

    formatting.HelpFormatter.write_usage = write_usage  # type: ignore[method-assign]
