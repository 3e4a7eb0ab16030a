"""One cause, one problem (issue 10 item 5): a wrong first dealer of a 4-player log is
reported once at its ``dealer:`` line, not once per deal; a skipped or doubled deal number
is one problem, the numbers after it resynchronised."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import score_text

from pulyacalc.core.errors import PulyaError
from pulyacalc.reports.check import Checking

#: a 4-player evening that fits with Zhenya dealing first: each line's dealer sits out
DEALS = (
    "Gleb 6♠ 6, Dasha whist 3, Egor whist 1\n"  # Zhenya deals
    "Dasha 7♥, Egor pass, Zhenya pass\n"  # Gleb deals
    "Egor pass 4, Zhenya pass 2, Gleb pass 3, Dasha talon 1\n"  # Dasha deals
    "Zhenya pass 3, Gleb pass 2, Dasha pass 3, Egor talon 2\n"  # Egor deals
    "Egor 7♣ 7, Gleb whist, Dasha pass\n"  # Zhenya deals
    "Zhenya 8♦ 7, Dasha whist 2, Egor pass 1\n"  # Gleb deals
)
HEAD = "players: Gleb Dasha Egor Zhenya\nconvention: leningrad\n"


def messages(text: str) -> list[str]:
    with pytest.raises(PulyaError) as e:
        score_text(text, "t.txt")
    return [f"{p.loc}: {p.message}; {p.hint}" for p in e.value.problems]


def test_the_log_as_written_fits() -> None:
    assert score_text(HEAD + "dealer: Zhenya\n\n" + DEALS, "t.txt").deals == 6
    assert score_text(HEAD + "\n" + DEALS, "t.txt").deals == 6  # the last player listed deals first


@pytest.mark.parametrize("wrong", ["Gleb", "Dasha", "Egor"])
def test_a_wrong_first_dealer_is_one_problem_at_the_dealer_line(wrong: str) -> None:
    got = messages(HEAD + f"dealer: {wrong}\n\n" + DEALS)
    assert len(got) == 1
    assert got[0].startswith("t.txt:3:1: every deal fits if the first dealer is Zhenya: check `dealer:`")
    assert "(lines 5, 6, 7, …)" in got[0]


def test_without_a_dealer_line_it_is_at_the_players_line() -> None:
    # the same table, listed from Dasha: the last player listed, Gleb, deals first by default
    head = "players: Dasha Egor Zhenya Gleb\nconvention: leningrad\n\n"
    got = messages(head + DEALS)
    assert len(got) == 1
    assert got[0].startswith("t.txt:1:1: every deal fits if the first dealer is Zhenya: add `dealer: Zhenya`")


def test_a_deal_wrong_for_another_reason_is_still_reported() -> None:
    # 12 tricks, whoever deals (Egor as written, Dasha with Zhenya first)
    deals = DEALS + "Gleb 6♠ 6, Egor whist 5, Zhenya whist 1\n"
    got = messages(HEAD + "dealer: Dasha\n\n" + deals)
    assert len(got) == 2
    assert got[0].startswith("t.txt:3:1: every deal fits if the first dealer is Zhenya")
    assert "as written, 6 deals (lines 5, 6, 7, …)" in got[0]
    assert got[1].startswith("t.txt:11:1: tricks add up to 12")


def test_no_single_first_dealer_fits_keeps_each_problem() -> None:
    # the last deal's dealer takes part under every first dealer: no one cause to name
    deals = DEALS + "dealer Gleb, Gleb 6♠ 6, Dasha whist 3, Egor whist 1\n"
    got = messages(HEAD + "dealer: Gleb\n\n" + deals)
    assert len(got) > 2 and not any("every deal fits" in m for m in got)


def test_one_refused_deal_keeps_its_own_message() -> None:
    got = messages(HEAD + "dealer: Zhenya\n\n" + DEALS + "Dasha 6♠ 6, Egor whist 3, Gleb whist 1\n")
    assert len(got) == 1 and "Dasha deals this deal and sits out" in got[0]


def test_two_refused_deals_keep_their_own_messages() -> None:
    # Zhenya dealing first would fit both, but two problems are no screenful (ONE_CAUSE_MIN)
    two = "".join(DEALS.splitlines(keepends=True)[:2])
    got = messages(HEAD + "dealer: Gleb\n\n" + two)
    assert len(got) == 2 and all("deals this deal and sits out" in m for m in got)
    assert len(messages(HEAD + "dealer: Gleb\n\n" + DEALS)) == 1


def test_check_reports_it_once(tmp_path: Path) -> None:
    path = tmp_path / "e.txt"
    path.write_text(HEAD + "dealer: Egor\n\n" + DEALS, encoding="utf-8")
    findings = list(Checking(str(path)))
    assert [(f.loc.line, f.code) for f in findings] == [(3, "dealer-in-play")]
    assert "first dealer is Zhenya" in findings[0].message


NUMBERED = "players: Anna Boris Vera\n\n" + "".join(
    f"{n}. Anna 6♠ 6, Boris pass, Vera whist 2\n" for n in (1, 2, 4, 5, 6, 8, 9, 9, 10)
)


def test_a_skipped_number_is_one_problem_and_the_numbers_after_follow_it() -> None:
    got = messages(NUMBERED)
    assert got == [
        "t.txt:5:1: deal number 4, but this is deal 3; fix the number, or look for a missing or extra deal above",
        "t.txt:8:1: deal number 8, but the numbers above make this 7; "
        "fix the number, or look for a missing or extra deal above",
        "t.txt:10:1: deal number 9, but the numbers above make this 10; "
        "fix the number, or look for a missing or extra deal above",
    ]


def test_unnumbered_lines_count_on_from_the_resynchronised_number() -> None:
    text = "players: Anna Boris Vera\n\n1. Anna 6♠ 6, Boris pass, Vera whist 2\n"
    text += "3. Anna 6♠ 6, Boris pass, Vera whist 2\nAnna 6♠ 6, Boris pass, Vera whist 2\n"
    text += "5. Anna 6♠ 6, Boris pass, Vera whist 2\n"
    got = messages(text)
    assert len(got) == 1 and got[0].startswith("t.txt:4:1: deal number 3, but this is deal 2")


def _explained_problems(path: Path) -> tuple[int, str]:
    from typer.testing import CliRunner

    from pulyacalc.cli.app import app

    r = CliRunner().invoke(app, ["explain", str(path)], prog_name="pulyacalc")
    return r.exit_code, r.stderr


def test_explain_tells_a_wrong_first_dealer_as_score_does(tmp_path: Path) -> None:
    path = tmp_path / "e.txt"
    path.write_text(HEAD + "dealer: Egor\n\n" + DEALS, encoding="utf-8")
    code, err = _explained_problems(path)
    assert code == 1
    assert "every deal fits if the first dealer is Zhenya" in err
    assert err.count(f"{path}:") == 1  # one problem, not one a deal


def test_explain_reads_a_long_wrong_log_once_and_tells_scores_problems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # past ONE_CAUSE_DEALS score looks for no one cause: its problems are those explain
    # met on its way, and the log is not read a second time
    from typer.testing import CliRunner

    from pulyacalc.cli.app import app
    from pulyacalc.logs import read
    from pulyacalc.play import ONE_CAUSE_DEALS

    path = tmp_path / "long.txt"
    path.write_text(
        "players: Anna Boris Vera\n\n" + "Anna 6x 7, Bob whist\n" * (ONE_CAUSE_DEALS + 10), "utf-8"
    )
    want = CliRunner().invoke(app, ["score", str(path)], prog_name="pulyacalc")
    reads: list[str] = []
    real = read.read_log

    def counted(*args: object, **kw: object) -> object:
        reads.append(str(args[0]))
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(read, "read_log", counted)
    code, err = _explained_problems(path)
    assert (code, err) == (want.exit_code, want.stderr) and code == 1
    assert reads == [str(path)]


def test_explain_scores_a_yaml_log_again_under_its_own_size_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # explain reads the log again to tell score's problems: with --max-yaml-bytes too
    from typer.testing import CliRunner

    from pulyacalc import yamlsource
    from pulyacalc.cli.app import app

    lines = tmp_path / "e.txt"
    lines.write_text(HEAD + "dealer: Egor\n\n" + DEALS, encoding="utf-8")
    path = tmp_path / "e.yaml"
    done = CliRunner().invoke(app, ["convert", str(lines), "--to", "yaml", "-o", str(path)])
    assert done.exit_code == 0, done.output
    monkeypatch.setattr(yamlsource, "MAX_YAML_BYTES", 100)  # the log is over the default
    args = ["explain", str(path), "--max-yaml-bytes", "100000"]
    r = CliRunner().invoke(app, args, prog_name="pulyacalc")
    assert r.exit_code == 1
    assert "every deal fits if the first dealer is Zhenya" in r.stderr and "--max-yaml-bytes" not in r.stderr
