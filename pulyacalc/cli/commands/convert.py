"""`pulyacalc convert LOG --to lines|yaml`: rewrite a log in the canonical form of either format."""

from __future__ import annotations

import enum
from typing import Annotated

import typer

from pulyacalc.cli.options import InputFormatOpt, LogArg
from pulyacalc.cli.output import replaced
from pulyacalc.cli.runtime import emit, reports_problems


class LogLanguage(str, enum.Enum):
    en = "en"
    ru = "ru"


class Target(str, enum.Enum):
    lines = "lines"
    yaml = "yaml"


@reports_problems
def convert(
    log: LogArg,
    to: Annotated[Target, typer.Option("--to", help="The format to write: lines or yaml.")],
    output: Annotated[
        str | None,
        typer.Option(
            "-o",
            "--output",
            metavar="FILE",
            help="Write to this file (all or nothing: only when the whole log reads) "
            "instead of standard output.",
        ),
    ] = None,
    input_format: InputFormatOpt = None,
    lang: Annotated[
        LogLanguage,
        typer.Option(
            "--lang",
            help="The language of the log's words: en (the canonical form) or ru "
            "(игроки:, пас, вист, сдаёт …, read back as the same deals).",
        ),
    ] = LogLanguage.en,
) -> None:
    """Rewrite a log in the canonical line or YAML form (the deals stay the same).

    The log is read (spelling, players, numbers: every problem is reported), not scored:
    rule checks such as tricks adding up to 10 are left to `score`.
    """
    from pulyacalc.core.errors import Problems
    from pulyacalc.logs.read import read_log
    from pulyacalc.logs.words import LOG_LANGUAGES
    from pulyacalc.logs.write import write_lines, write_yaml

    problems = Problems()
    parsed = read_log(log, input_format.value if input_format else None, problems)
    words = LOG_LANGUAGES[lang.value]
    chunks = write_lines(parsed, words) if to is Target.lines else write_yaml(parsed, words)
    if output is None:
        for chunk in chunks:
            emit(chunk)
        problems.raise_if_any()
        return
    with replaced(output) as f:
        for chunk in chunks:
            f.write(chunk)
        problems.raise_if_any()  # a log with problems leaves the old file as it was
