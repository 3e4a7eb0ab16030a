"""A log played more than once (``dispute``, ``compare``) without keeping its deals: a line
log's raw lines are kept as the first play reads them (each distinct text once)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NoReturn

from pulyacalc.core.errors import Problems
from pulyacalc.core.kinds import Rounding
from pulyacalc.core.model import Header, Log
from pulyacalc.play import _line_source, score_log


class Replay:
    """``log`` played again and again via ``fresh`` (first as read); each play reads it to its end first."""

    def __init__(self, log: Log) -> None:
        self.header, self.header_ok = log.header, log.header_ok
        self.source = _line_source(log)
        self.first = True  # the first play reads the log as it is
        self.lines: list[str] = []
        if self.source is None:
            self.deals = tuple(log.deals)
        else:
            self.pending, self.number = self.source.pending, self.source.number
            self.source.lines = self._recording(self.source.lines)

    def _recording(self, lines: Iterator[str]) -> Iterator[str]:
        keep, same = self.lines.append, dict[str, str]()
        for raw in lines:
            raw = same.setdefault(raw, raw)
            keep(raw)
            yield raw

    def fresh(self, problems: Problems, header: Header | None = None) -> Log:
        """The log to play once more, read problems to ``problems``, ``header`` (same players) for its own."""
        header = header or self.header
        source = self.source
        if source is None:
            return Log(header, self.deals, self.header_ok)
        if self.first:
            self.first = False
            source.problems = problems
            return Log(header, source, self.header_ok)
        from pulyacalc.logs.lines import LineDeals

        # each text's parse shared, unless a newcomer joined (parsed with him since)
        cache = source.cache if source.header.players == self.header.players else {}
        again = LineDeals(iter(self.lines), self.pending, self.number, self.header, problems, cache)
        return Log(header, again, self.header_ok)

    def as_score(self, problems: Problems, convention: str | None, rounding: Rounding | None) -> NoReturn:
        """The log cannot be scored: report it as ``score`` does (a wrong first dealer: one cause); stop."""
        score_log(self.fresh(problems), problems, convention=convention, rounding=rounding)
        raise AssertionError("score_log found no problem where the reader did")
