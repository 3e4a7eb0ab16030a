"""A log wrong on every line (issue 11): the same wrong line is read once, and each copy
is reported at its own line with the same problems."""

from __future__ import annotations

from pathlib import Path

import pytest

from pulyacalc.core.errors import PulyaError
from pulyacalc.evening import score_file
from pulyacalc.logs import lines

WRONG = "Anna 6x 7, Bob whist"


def test_a_wrong_line_repeated_is_read_once_and_reported_at_each_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "wrong.pulya"
    log.write_text(
        "players: Anna Boris Vera\n\n" + f"{WRONG}\n" * 3 + f"# a note\n{WRONG}\n", encoding="utf-8"
    )
    calls: list[str] = []
    parse = lines._parse

    def counting(text: str, *args: object, **kw: object) -> object:
        calls.append(text)
        return parse(text, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(lines, "_parse", counting)
    with pytest.raises(PulyaError) as e:
        score_file(str(log))
    assert calls == [WRONG]  # read once
    found = e.value.problems
    per_line: dict[int, list[tuple[int, str, str]]] = {}
    for p in found:
        per_line.setdefault(p.loc.line, []).append((p.loc.column, str(p.message), str(p.hint)))
    assert sorted(per_line) == [3, 4, 5, 7]
    assert per_line[3] and all(per_line[n] == per_line[3] for n in (4, 5, 7))
    # the same as a log with the line once
    log.write_text("players: Anna Boris Vera\n\n" + f"{WRONG}\n", encoding="utf-8")
    monkeypatch.setattr(lines, "_parse", parse)
    with pytest.raises(PulyaError) as once:
        score_file(str(log))
    assert [(p.loc.column, str(p.message), str(p.hint), p.source) for p in once.value.problems] == [
        (p.loc.column, str(p.message), str(p.hint), p.source) for p in found if p.loc.line == 3
    ]
