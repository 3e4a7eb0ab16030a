"""`pulyacalc convert LOG [--to lines|yaml] [-o FILE]`: rewrite a log in the canonical form of
either format (the one ``--to`` or FILE's name says)."""

from __future__ import annotations

import enum
from typing import Annotated

import typer

from pulyacalc.cli import options as opts
from pulyacalc.cli import output as shared
from pulyacalc.cli.output import descriptor, replaced
from pulyacalc.core.errors import Problems, shown
from pulyacalc.core.i18n import M_, N_

Target = enum.Enum("Target", [("lines", "lines"), ("yaml", "yaml")], type=str)

#: the options' help, as ``--help`` shows it
_HELP = {
    "to": N_(
        "The format to write: lines or yaml (with -o FILE, by default the one FILE's name says: "
        ".yaml/.yml or .pulya/.lines/.txt/.log)."
    ),
    "output": N_(
        "Write to this file (all or nothing: only when the whole log reads) instead of standard output; "
        "- is standard output."
    ),
    "lang": N_(
        "The language of the log's words: en (the canonical form) or ru (игроки:, пас, вист, сдаёт …, "
        "read back as the same deals)."
    ),
}


def _check_output(value: str | None) -> str | None:
    """convert writes its ``-o`` itself (standard output all or nothing too): ``emit`` must
    not send anything to another command's ``-o`` of an earlier run in this process."""
    shared.target = None
    return None if value is None else shared.check_writable(value)


@opts.command("input_format", "max_yaml_bytes", "encoding", "force")
def convert(
    log: opts.LogArg,
    to: Annotated[Target | None, typer.Option("--to", help=_HELP["to"])] = None,
    output: Annotated[
        str | None,
        typer.Option("-o", "--output", metavar="FILE", callback=_check_output, help=_HELP["output"]),
    ] = None,
    *,
    run: opts.Run,
    lang: Annotated[opts.Language, typer.Option("--lang", help=_HELP["lang"])] = opts.Language.en,
) -> None:
    """Rewrite a log in the canonical line or YAML form (the deals stay the same).

    The log is read (spelling, players, numbers: every problem is reported), not scored:
    rule checks such as tricks adding up to 10 are left to `score`.
    """
    from pulyacalc.logs.read import read_log
    from pulyacalc.logs.words import LOG_LANGUAGES
    from pulyacalc.logs.write import write_lines, write_yaml

    to = _target(to, output)
    problems = Problems()
    parsed = read_log(log, run.input_format, problems, max_yaml_bytes=run.max_yaml_bytes)
    words = LOG_LANGUAGES[lang.value]
    chunks = write_lines(parsed, words) if to is Target.lines else write_yaml(parsed, words)
    # standard output too all or nothing (spooled): a log with a problem on its last line
    # wrote every deal before it, then exit 1, data and problems both
    with replaced(output or "-") as f:
        for chunk in chunks:
            f.write(chunk)
        problems.raise_if_any()  # a log with problems leaves the old file as it was


def _target(to: Target | None, output: str | None) -> Target:
    """The format to write: ``--to``, or the one ``-o``'s name says; a name that says the
    other format than ``--to`` is refused (the file would be read back as that format)."""
    from pulyacalc.logs.read import format_by_name

    named = format_by_name(output) if output is not None and descriptor(output) is None else None
    other = ".yaml or .yml" if to is Target.yaml else ".pulya, .lines, .txt or .log"
    fields = {"output": shown(output or "", 0), "named": named, "value": to and to.value, "other": other}
    refusal = M_(
        "{output} is named as a {named} log (it would be read back as {named}), "
        "but --to says {value}: name the file {other}, or leave out --to to write {named}",
        **fields,
    )
    chosen = opts.agreed(to and to.value, named, refusal)
    if chosen is None:
        raise opts.usage(M_("say the format to write: --to lines or --to yaml"), "--to")
    return Target(chosen)


EXAMPLES = N_(
    "pulyacalc convert examples/rostov-3p.yaml --to lines\n"
    "pulyacalc convert evening.txt --to yaml -o evening.yaml"
)
