"""`explain`'s fast path (pulyacalc/explain_fast.py, render/explain_fast.py) writes the
plain path's bytes: on generated logs under every built-in convention (lines repeated as
archives repeat them, pools closing and the pulya finished, the faults a hand-kept log
has: tests/test_fast_path.py's), in every format and both languages, the whole log or one
deal of it, with tables as wide as they come or fitted to a width (``COLUMNS``, a terminal)."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fast_path import faults

from pulyacalc import explain_fast
from pulyacalc.convention.load import builtin_names
from pulyacalc.core import i18n
from pulyacalc.core.errors import PulyaError
from pulyacalc.explain import explain_stream
from pulyacalc.render.explain import ExplainStream
from pulyacalc.render.explain_fast import write
from pulyacalc.render.formats import FORMATS, write_to
from pulyacalc.render.view import use_width

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import genlog  # noqa: E402

CONVENTIONS = tuple(builtin_names())


def as_yaml(text: str, layout: str, seed: int) -> str:
    """A generated line log as a YAML log: its deal lines as scalars (``lines``: plain or
    quoted, some further right), or each deal a mapping as ``convert`` writes it."""
    import json
    import re

    if layout == "converted":
        from pulyacalc.logs.read import read_text
        from pulyacalc.logs.write import write_yaml

        return "".join(write_yaml(read_text(text, "log.pulya", "lines")))
    rng = random.Random(seed)
    out, deals = [], False
    for line in text.splitlines():
        if not deals and line.startswith("players:"):
            out.append("players: [" + ", ".join(line.split()[1:]) + "]")
        elif not deals and line and not line.startswith("#"):
            out.append(line)
        elif not deals and not line:
            out.append("deals:")
            deals = True
        elif not line.strip() or line.startswith("#"):
            out.append("  " + line)
        elif (
            re.fullmatch(r"[^-?:,\[\]{}#&*!|>'\"%@`\s][^#]*", line)
            and ": " not in line
            and rng.random() < 0.8
        ):
            out.append("  -" + " " * rng.choice((1, 1, 1, 3)) + line)
        else:
            out.append("  - " + json.dumps(line, ensure_ascii=False))
    return "\n".join(out) + "\n"


def explained(path: Path, fmt: str, *, fast: bool, upto: int | None = None) -> Any:
    """What `explain` writes in ``fmt`` (the plain or the fast way), or its problems."""
    out = io.StringIO()
    try:
        stream = explain_stream(str(path), upto=upto, fast=fast)
        assert (stream.fast is not None) == fast
        view = ExplainStream(stream)
        if fast:
            parts = io.BytesIO(), io.BytesIO()
            write(view, fmt, parts)
            out.write(b"".join(part.getvalue() for part in parts).decode())
        else:
            write_to(view, fmt, out)
    except PulyaError as e:
        return [(str(p.loc), p.message) for p in e.problems]
    return out.getvalue(), view.shown


@st.composite
def logs(draw: Any) -> str:
    convention = draw(st.sampled_from(CONVENTIONS))
    n = draw(st.sampled_from((3, 4)))
    pool = draw(st.sampled_from((5, 10, 20, 40, 1000)))
    deals = draw(st.integers(1, 120))
    seed = draw(st.integers(0, 10_000))
    text = list(genlog.line_log(deals, seed=seed, players=n, convention=convention, pool=pool))
    head, body = text[:5], text[5:]
    if draw(st.booleans()):
        few = body[: max(1, len(body) // 8)]  # the same few lines over and over: many hits
        rng = random.Random(seed)
        body = [rng.choice(few) for _ in body]
    if draw(st.booleans()) or convention == "classic":
        body = faults(random.Random(seed + 1), body, genlog.NAMES[:n])
    return "".join(head + body)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    logs(),
    st.sampled_from(sorted(FORMATS)),
    st.sampled_from(("en", "ru")),
    st.one_of(st.none(), st.integers(1, 40)),
    st.sampled_from((None, None, 12, 30, 40, 60, 100, 200)),
    st.sampled_from(("line", "line", "lines", "converted")),
)
def test_the_fast_path_writes_the_plain_paths_bytes(
    text: str, fmt: str, lang: str, upto: int | None, width: int | None, layout: str
) -> None:
    """A line log, or the same as a YAML log (scalar lines, or mappings)."""
    path = Path(__file__).parent / ("_explain_fast.pulya" if layout == "line" else "_explain_fast.yaml")
    try:
        path.write_text(text if layout == "line" else as_yaml(text, layout, len(text)), encoding="utf-8")
        i18n.use(lang)
        use_width(width)
        assert explained(path, fmt, fast=True, upto=upto) == explained(path, fmt, fast=False, upto=upto)
    finally:
        i18n.use("en")
        use_width(None)
        path.unlink()


@pytest.mark.parametrize("layout", ["line", "lines"])
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_full_caches_are_forgotten_and_filled_again(
    fmt: str, layout: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(explain_fast, "SEEN_SIZE", 20)
    monkeypatch.setattr(explain_fast, "BLOCKS_SIZE", 10)
    text = "".join(genlog.line_log(1500, seed=5, players=3, pool=60))
    path = tmp_path / ("long.pulya" if layout == "line" else "long.yaml")
    path.write_text(text if layout == "line" else as_yaml(text, layout, 5), encoding="utf-8")
    got = explained(path, fmt, fast=True)
    assert not isinstance(got, list)  # a good log: every deal shown
    assert got == explained(path, fmt, fast=False)


@pytest.mark.parametrize("batch", [1, 2, 7, 32])
def test_json_handed_on_in_batches_of_any_size_is_the_same_document(
    batch: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """JSON's deals go out a batch at a time (``JSON_BATCH``: the entries and the deals
    each joined once a batch): where the batches end changes no byte, corrections and
    deals drawn the plain way among them."""
    from pulyacalc.render import explain_fast as drawn

    monkeypatch.setattr(drawn, "JSON_BATCH", batch)
    text = "".join(genlog.line_log(300, seed=9, players=3, pool=30))
    body = text.splitlines(keepends=True)
    body[40:40] = ['correction Anna mountain 7 "slip"\n', 'correction Boris whists on Vera 1/3 "a third"\n']
    path = tmp_path / "batches.pulya"
    path.write_text("".join(body), encoding="utf-8")
    got = explained(path, "json", fast=True)
    assert not isinstance(got, list) and got[1] > 300  # every deal and correction shown
    assert got == explained(path, "json", fast=False)


def test_a_deal_that_writes_like_a_stand_in_is_drawn_the_plain_way(tmp_path: Path) -> None:
    """A pool as large as a stand-in number: its drawings do not hold the stand-ins as
    often as put in, so the deals are drawn whole, and still alike."""
    from pulyacalc.render.explain_fast import NUMBER

    path = tmp_path / "odd.pulya"
    text = "".join(genlog.line_log(40, seed=2, pool=NUMBER))
    path.write_text(text, encoding="utf-8")
    for fmt in sorted(FORMATS):
        assert explained(path, fmt, fast=True) == explained(path, fmt, fast=False)


@pytest.mark.parametrize("layout", ["line", "lines"])
def test_most_deals_of_a_long_log_are_hits(layout: str, tmp_path: Path) -> None:
    """The fast path is taken: on a long log (a line log, or a YAML log of deal lines)
    most deals come as hits, not explained anew."""
    text = "".join(genlog.line_log(3000, seed=1, pool=100000))
    path = tmp_path / ("long.pulya" if layout == "line" else "long.yaml")
    path.write_text(text if layout == "line" else as_yaml(text, layout, 1), encoding="utf-8")
    stream = explain_stream(str(path), fast=True)
    items = list(stream.items)
    hits = sum(isinstance(d, tuple) for d in items)
    assert len(items) == 3000 and hits == 3000
    assert stream.fast is not None and stream.fast.seen < len(items)  # learnt: read the full way
    assert len(stream.fast.blocks) < stream.fast.seen  # a block of writes is shared by lines


def test_deal_n_leaves_out_the_problems_of_lines_after_it(tmp_path: Path) -> None:
    """A line after deal N that reads as nothing but a problem (a correction with text after
    its reason) belongs to what follows deal N: ``--deal N`` does not report it, either way."""
    head = "players: Anna Boris Vera\nconvention: sochi\npool: 5\n"
    body = "Anna 7NT, Boris pass, Vera pass\n" * 3
    bad = 'correction Vera whists on Anna -7 "by agreement", dealer Anna\n'
    path = tmp_path / "log.pulya"
    path.write_text(head + body + bad + "Anna 7NT, Boris pass, Vera pass\n", encoding="utf-8")
    for fmt in ("csv", "json"):
        got = explained(path, fmt, fast=True, upto=3)
        assert got == explained(path, fmt, fast=False, upto=3)
        assert not isinstance(got, list)  # no problem: the bad line is past deal 3


def test_a_paper_wider_than_its_headers_and_fractions_are_drawn_alike(tmp_path: Path) -> None:
    """Cells wider than their column's header (a correction of many digits, then back) and
    a cell that is not whole: the paper is drawn the plain way while they last, then from
    its layout again."""
    head = "players: Anna Boris Vera\nconvention: sochi\npool: 30\n\n"
    body = ["Anna 6♠ 6, Boris whist 2, Vera pass 2\n", "Boris 7♥ 7, Vera pass 1, Anna whist 2\n"] * 10
    body[5:5] = ['correction Anna mountain 12345678901 "slip"\n']
    body[9:9] = ['correction Anna mountain -12345678901 "slip undone"\n']
    body[12:12] = ['correction Boris whists on Vera 1/3 "a third"\n']
    body[15:15] = ['correction Boris whists on Vera -1/3 "back"\n']
    path = tmp_path / "wide.pulya"
    path.write_text(head + "".join(body), encoding="utf-8")
    for lang in ("en", "ru"):
        i18n.use(lang)
        try:
            for fmt in sorted(FORMATS):
                got = explained(path, fmt, fast=True)
                assert not isinstance(got, list)
                assert got == explained(path, fmt, fast=False)
        finally:
            i18n.use("en")


@pytest.mark.parametrize("width", [12, 40, 100])
def test_a_table_fitted_to_a_width_is_drawn_alike_and_from_layouts(
    width: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table fitted to a width (``COLUMNS``, a terminal), 3 and 4 players, full caches
    forgotten: the plain path's bytes, and the paper is drawn from a few layouts (made
    once per length of the number and the cells), not the plain way after each deal."""
    from pulyacalc.render import explain_fast as drawing

    monkeypatch.setattr(explain_fast, "SEEN_SIZE", 50)
    monkeypatch.setattr(explain_fast, "BLOCKS_SIZE", 30)
    made: list[int] = []
    lay = drawing.FitPaper._layout

    def counted(self: Any, number: int, n: bytes) -> Any:
        made.append(number)
        return lay(self, number, n)

    monkeypatch.setattr(drawing.FitPaper, "_layout", counted)
    use_width(width)
    try:
        for players in (3, 4):
            made.clear()
            path = tmp_path / f"{players}.pulya"
            path.write_text("".join(genlog.line_log(600, seed=players, players=players, pool=80)), "utf-8")
            got = explained(path, "table", fast=True)
            assert got == explained(path, "table", fast=False)
            assert 0 < len(made) < 100
    finally:
        use_width(None)


def test_a_terminal_gets_the_fast_paths_table_fitted_to_it(tmp_path: Path) -> None:
    """On a pseudo-terminal ``explain`` fits its table to the terminal's width, in the
    bytes it writes to a pipe under ``COLUMNS`` of that width."""
    import fcntl
    import os
    import struct
    import subprocess
    import termios

    path = tmp_path / "log.pulya"
    path.write_text("".join(genlog.line_log(300, seed=3, players=4, pool=50)), encoding="utf-8")
    cmd = [sys.executable, "-m", "pulyacalc", "explain", path.name]  # short: every line can fit
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"} | {"PYTHONIOENCODING": "utf-8"}
    piped = subprocess.run(cmd, capture_output=True, env=env | {"COLUMNS": "52"}, cwd=tmp_path, timeout=120)
    assert piped.returncode == 0
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 52, 0, 0))
    p = subprocess.Popen(cmd, stdout=slave, stderr=subprocess.PIPE, env=env, cwd=tmp_path)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 1 << 16)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    p.wait(timeout=120)
    os.close(master)
    assert p.returncode == 0
    shown = b"".join(chunks).replace(b"\r\n", b"\n")
    assert shown == piped.stdout
    assert max(map(len, shown.decode().splitlines())) <= 52


@pytest.mark.parametrize("layout", ["line", "lines"])
@pytest.mark.parametrize("seed", [3, 4])
def test_deals_that_cannot_be_read_leave_the_paper_as_the_plain_scorer_has_it(
    layout: str, seed: int, tmp_path: Path
) -> None:
    """Wrong deals among learnt ones (before and after the finish, one or many in a row):
    the fast path passes over them without copying the paper to and from the scorer
    (nothing on it changes), and ends with the plain scorer's paper, dealer, count and
    first deal after the finish."""
    from pulyacalc.evening import load_convention
    from pulyacalc.logs.read import read_log
    from pulyacalc.scoring.fold import Scorer

    rng = random.Random(seed)
    lines = "".join(genlog.line_log(1500, seed=seed, pool=150)).splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if not line.strip()) + 1
    out = lines[:start]
    for line in lines[start:]:
        if rng.random() < 0.05:
            out += ["Anna 6x 7, Bob whist\n"] * rng.choice((1, 1, 3))
        out.append(line)
    text = "".join(out)
    path = tmp_path / ("log.pulya" if layout == "line" else "log.yaml")
    path.write_text(text if layout == "line" else as_yaml(text, layout, seed), encoding="utf-8")

    stream = explain_stream(str(path), fast=True)
    assert stream.fast is not None
    with pytest.raises(PulyaError):
        for _ in stream.items:
            pass
    fast = stream.fast.scorer
    log = read_log(str(path), None, problems := fast.problems.__class__())
    conv = load_convention(log, problems, None, None)
    assert conv is not None
    plain = Scorer(log.header, conv, problems)
    for _ in plain.feed_all(log.deals):
        pass
    assert plain.after_finish_from is not None and 100 < plain.after_finish_from < 1400
    assert fast.sheet.view() == plain.sheet.view()
    assert (fast.count, fast.dealer, fast.after_finish_from) == (
        plain.count,
        plain.dealer,
        plain.after_finish_from,
    )


@pytest.mark.parametrize("players", [3, 4])
def test_a_contract_learnt_under_one_dealer_is_derived_under_another(
    players: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A contract that writes the same whoever dealt (three players) is read the full way
    under one dealer and derived under the others (its head names the dealer of the deal,
    the next deal's dealer follows him): the plain path's bytes, with fewer lines read
    the full way than without it.  A line that names its own dealer, a raspasy, and any
    line with four players (the dealer sits out: a line may be wrong under one dealer)
    are read the full way under each."""
    from pulyacalc.scoring.fold import Scorer

    a, b, c = genlog.NAMES[:3]
    lines = [
        f"{a} 6♠ 6, {b} whist 2, {c} pass 2",
        f"{b} 7♥ 7, {c} pass 1, {a} whist 2",
        f"{c} 6NT, {a} pass, {b} pass",
        f"{a} pass 2, {b} pass 4, {c} pass 4",
        f"{b} 8♦ 8, {c} whist 1, {a} pass 1, dealer {c}",
    ]
    rng = random.Random(players)
    head = f"players: {' '.join(genlog.NAMES[:players])}\nconvention: sochi\npool: 30\n\n"
    path = tmp_path / "dealers.pulya"
    path.write_text(head + "".join(rng.choice(lines) + "\n" for _ in range(400)), encoding="utf-8")
    fed: list[int] = []
    feed = Scorer.feed

    def counted(self: Scorer, deal: Any) -> Any:
        fed.append(1)
        return feed(self, deal)

    for fmt in ("table", "json"):
        want = explained(path, fmt, fast=False)
        counts = []
        for free in (True, False):
            with monkeypatch.context() as m:
                m.setattr(Scorer, "feed", counted)
                if not free:
                    m.setattr(explain_fast, "free", lambda self, deal: False)
                fed.clear()
                assert explained(path, fmt, fast=True) == want
                counts.append(len(fed))
        if players == 3:
            assert not isinstance(want, list)  # a good log: every deal shown
            assert counts[0] < counts[1]
        else:
            assert counts[0] == counts[1]


@given(st.lists(st.one_of(st.integers(-(10**12), 10**12), st.fractions(max_denominator=30)), max_size=8))
def test_a_blocks_ledger_sum_is_the_exact_sum(xs: list[Any]) -> None:
    """``exact_sum`` (a block's moves, summed in whole numbers over a common denominator)
    is the exact sum, a whole number as an int."""
    from fractions import Fraction

    from pulyacalc.core.amounts import exact
    from pulyacalc.render.explain_fast import exact_sum

    got, want = exact(exact_sum(xs)), exact(sum(xs, Fraction(0)))
    assert got == want and type(got) is type(want)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.text(alphabet=st.sampled_from("ab7♠Вя(),:;-%\ue0f1\ue0f2\xa0\t"), min_size=0, max_size=14),
        min_size=1,
        max_size=14,
    ),
    st.sampled_from((" ", " ", " ", "  ")),
    st.integers(1, 50),
)
def test_a_head_simply_fitted_is_fitted_as_wrap_line_fits_it(
    words: list[str], space: str, width: int
) -> None:
    """``simply_fitted`` (a fitted head's lines found by the last space that fits) gives
    ``fit_lines``'s text for every line it takes: long words, a word as wide as the room,
    the stand-ins; the lines it leaves (two spaces, other whitespace) are None."""
    from pulyacalc.render.explain_fast import simply_fitted
    from pulyacalc.render.formats import fit_lines

    line = space.join(words)
    use_width(width)
    try:
        fitted = simply_fitted(line, width)
        if fitted is not None:
            assert "\n" + fitted == fit_lines("\n" + line)
    finally:
        use_width(None)


def test_a_head_simply_fitted_takes_the_lines_of_a_log() -> None:
    from pulyacalc.render.explain_fast import LINE_MARK, NUMBER_MARK, simply_fitted
    from pulyacalc.render.formats import fit_lines

    line = f"Deal {NUMBER_MARK * 6} (/tmp/long.pulya:{LINE_MARK * 6}:1), dealer Vera: Vera 6♦ 4, Anna whist 1"
    for width in (10, 30, 40, 60, 80, len(line), 200):
        use_width(width)
        try:
            assert simply_fitted(line, width) is not None
            assert "\n" + str(simply_fitted(line, width)) == fit_lines("\n" + line)
        finally:
            use_width(None)


def test_a_line_that_cannot_be_read_is_not_derived_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line that could not be read is never learnt: once it is known so, it is not looked
    for under other dealers again (``derive``), and each time it comes it is still read the
    full way and said wrong at its own line, as the plain path says it."""
    lines = "".join(genlog.line_log(300, seed=3, pool=40)).splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if not line.strip()) + 1
    bad = "Anna 6x 7, Bob whist\n"
    body = [x for line in lines[start:] for x in (line, bad)]
    path = tmp_path / "log.pulya"
    path.write_text("".join(lines[:start] + body), encoding="utf-8")
    asked: list[str] = []
    derive = explain_fast.derive

    def counted(self: Any, table: Any, raw: str) -> Any:
        asked.append(raw)
        return derive(self, table, raw)

    monkeypatch.setattr(explain_fast, "derive", counted)
    got = explained(path, "table", fast=True)
    assert asked.count(bad.rstrip("\n")) + asked.count(bad) == 1
    assert got == explained(path, "table", fast=False)  # each said wrong at its own line
