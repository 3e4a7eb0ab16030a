"""The YAML reader builds its located tree in one pass over the parser's events (issue 11:
a YAML document near 20 MB took over 10 s and 600 MB to read in three passes, two trees in
memory).  It must read every document exactly as the reader before it did
(tests/yaml_reference.py): the same nodes at the same places, or the same problems —
on every example, convention and test file, on the hostile inputs, and on seeded random
mutations of them (the fuzz suite's mutator, with YAML's own tokens added).
"""

from __future__ import annotations

import gc
import random
import re
from pathlib import Path

import pytest
import yaml
from fuzz_mutate import TOKENS, mutate
from helpers import examples
from hostile_cases import inputs
from yaml_reference import old_parse_yaml

from pulyacalc.core.errors import Problems, ReadError
from pulyacalc.yamlsource import parse_yaml

ROOT = Path(__file__).resolve().parents[1]

#: what YAML can hold that a log rarely does, each the reader's own path
EDGES = [
    "a: 1\n<<: {b: 2}\nc: 3\n",
    "a: {<<: [x, {y: 1}], b: 2}\n",
    "!!merge [a]: x\nb: 1\n",
    "<<: 1\n<<: 2\n",
    "? [a, b]\n: c\n",
    "a: !!binary aGk=\n",
    "a: !!binary [x]\n",
    "a: =\n",
    "a: ! 5\nb: !x 1\nc: !!str 7\n",
    "---\n",
    "",
    "# only a comment\n",
    "---\n...\n---\na: 1\n",
    "a: 1\n---\nb: &x 2\n",
    "a: 1\n---\nb: [\n",
    "a: 1\n--- !x\nb: 1\n",
    "a: &x 1\nb: [\n",
    "[" * 65 + "]" * 65,
    "[" * 66 + "]" * 66,
    "[" * 2000 + "]" * 2000,
    "a: 1\nb: {<<: {c: [" + "[" * 70 + "]" * 70 + "]}}\n",
    "a:\n  - " + "[" * 64 + "1" + "]" * 64 + "\n",
    "a: \x01\n",
    "a: &x 1\nb: \x01\n",
    "\ufeffa: 1\n",
    "a: 1\na: 2\na: 3\n",
    " a : 1\na: 2\n",
    "a: *x\n",
    "- &a [1]\n- *a\n",
    "<<: &a {b: 1}\nc: *a\n",
    "deals:\n" + "  - &a x\n" * 150,
    "a: !!null x\nb: ~\nc: null\nd:\ne: ''\nf: 'null'\n",
    "a: 'q'\nb: \"d\"\nc: |\n  x\nd: >-\n  y\n",
    "%TAG !e! tag:example.com,2000:\n---\na: !e!foo 1\n",
    "a: [1, 2\n",
    "key: value\n  bad: indent\n",
    "a: 1\n\0\n",
]
YAML_TOKENS = [
    "<<: ",
    "!!merge ",
    "!!binary ",
    "? ",
    "---\n",
    "...\n",
    "=",
    "!x ",
    "! ",
    "!!str ",
    "&b ",
    "*b",
]
YAML_TOKENS += ["{", "[", "\\", "%YAML 1.1\n", "|\n  x\n", ">-\n  y\n", "\x01", "\x85", "\ufffe"]


def _files() -> dict[str, str]:
    out = {}
    for pattern in ("examples/**/*.yaml", "conventions/*.yaml", "tests/**/*.yaml"):
        for path in sorted(ROOT.glob(pattern)):
            out[str(path.relative_to(ROOT))] = path.read_text("utf-8-sig")
    for name, (suffix, data, _) in inputs().items():
        if suffix == ".yaml":
            out[name] = data.decode("utf-8", "replace")
    return out


FILES = _files()


def _read(reader: object, text: str, unique: bool) -> tuple[str, object]:
    try:
        return "read", reader(text, "log.yaml", unique_keys=unique)  # type: ignore[operator]
    except ReadError as e:
        return "refused", [(str(p.loc), p.message, p.hint, p.width) for p in e.problems]


def _same(text: str, unique: bool = True) -> None:
    old, new = _read(old_parse_yaml, text, unique), _read(parse_yaml, text, unique)
    assert new == old, f"{text[:300]!r}:\nbefore {str(old)[:600]}\nnow    {str(new)[:600]}"


@pytest.mark.parametrize("unique", [True, False])
@pytest.mark.parametrize("name", FILES)
def test_every_file_reads_as_before(name: str, unique: bool) -> None:
    _same(FILES[name], unique)


@pytest.mark.parametrize("unique", [True, False])
@pytest.mark.parametrize("text", EDGES)
def test_yaml_edges_read_as_before(text: str, unique: bool) -> None:
    _same(text, unique)


def test_mutated_documents_read_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("fuzz_mutate.TOKENS", TOKENS + YAML_TOKENS)
    rng = random.Random(20261201)
    seeds = list(FILES.values()) + EDGES
    for k in range(examples(1500)):  # fuzzing: all of them in CI (helpers.examples)
        text = mutate(rng, rng.choice(seeds), rng.choice((1, 2, 3, 6, 20)))
        _same(text, unique=k % 4 != 0)


def test_the_document_is_read_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither composed by PyYAML nor parsed twice: the events are read once."""

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the document was read again")

    monkeypatch.setattr(yaml, "compose", refused)
    monkeypatch.setattr(yaml, "parse", refused)
    node = parse_yaml("players: [A, B, C]\npool: 20\n", "log.yaml")
    assert [k.text for k, _ in node.pairs] == ["players", "pool"]
    with pytest.raises(ReadError, match="anchors"):
        parse_yaml("players: [A, B, C]\ntitle: &t x\nplace: *t\n", "log.yaml")


def test_the_collector_is_left_as_it_was() -> None:
    """Reading turns the cyclic garbage collector off (the tree holds no cycles) and back on."""
    assert gc.isenabled()
    parse_yaml("a: [1, 2]\n", "f.yaml")
    assert gc.isenabled()
    with pytest.raises(ReadError):
        parse_yaml("a: [1, 2\n", "f.yaml")
    assert gc.isenabled()
    gc.disable()
    try:
        parse_yaml("a: [1, 2]\n", "f.yaml")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_without_libyaml_the_same_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pure-Python parser gives the same events: the same tree (a node nested too
    deeply is told at its place, where its recursive composer said only "too deeply")."""
    import pulyacalc.yamlsource as ys

    text = FILES["examples/sheet.yaml"]
    fast = parse_yaml(text, "log.yaml")
    monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    ys._loader.cache_clear()
    try:
        assert ys._loader().__mro__[1] is yaml.SafeLoader
        assert parse_yaml(text, "log.yaml") == fast
        # 200 levels (the C parser reads 2,000 among EDGES): the pure one takes time
        # growing with the square of the depth, and past 64 levels the answer is the same
        with pytest.raises(ReadError) as e:
            parse_yaml("[" * 200 + "]" * 200, "f.yaml")
        assert [str(p.loc) for p in e.value.problems] == ["f.yaml:1:66"]
        assert "deeper than 64 levels" in e.value.problems[0].message
    finally:
        monkeypatch.undo()
        ys._loader.cache_clear()


def test_hints_are_not_looked_for_past_the_problems_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file of 200,000 unknown keys took minutes: each looked up a close match for a
    message that is only counted."""
    import difflib

    from pulyacalc.logs import yaml_log

    calls = []
    real = difflib.get_close_matches

    def counted(*args: object, **kwargs: object) -> list[str]:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(difflib, "get_close_matches", counted)
    text = "players: [Anna, Boris, Vera]\n" + "".join(f"k{i}: 1\n" for i in range(1000))
    text += "deals:\n" + "".join(
        f"  - {{declarer: Anna, contract: 6♠, tricks: 6, x{i}: 1}}\n" for i in range(500)
    )
    problems = Problems(limit=100)
    with pytest.raises(ReadError) as e:
        log = yaml_log.parse(text, "log.yaml", problems)
        list(log.deals)
        problems.raise_if_any()
    assert re.search(r"1,[0-9]{3} in all", str(e.value.problems[-1].message))
    assert len(calls) <= 100


def _told(text: str) -> list[tuple[str, str, str, int]]:
    from pulyacalc.logs import yaml_log

    problems = Problems()
    log = yaml_log.parse(text, "log.yaml", problems)
    assert all(type(d).__name__ == "Unreadable" for d in log.deals)
    return [(str(p.loc), p.message, p.hint, p.width) for p in problems.items] + [
        ("more", "", "", problems.more)
    ]


def test_a_wrong_deal_again_is_told_as_if_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A YAML deal line that could not be read is not read again when written again (a log
    of 500,000 wrong deals took minutes), and is told the same at its own place."""
    from pulyacalc.logs import yaml_log

    wrong = ["Ann 6x 7, Boris whist", "Annna 6♠ 7, Boris pass, Vera pass", "x"]
    text = "players: [Anna, Boris, Vera]\ndeals:\n" + "".join(f"  - {w}\n" for w in wrong * 40)
    text += "  - [" + ", ".join(wrong * 3) + "]\n"  # a list where a deal goes
    text += "  - ~\n  - 'null'\n  - ~\n"
    quoted = [f'"{w}"' for w in wrong]  # in a flow list a plain scalar's commas part it
    flow = (
        "players: [Anna, Boris, Vera]\ndeals: ["
        + ", ".join(quoted * 50)
        + ",\n  "
        + ", ".join(quoted)
        + "]\n"
    )
    calls = []
    real = yaml_log.parse_deal_line
    monkeypatch.setattr(yaml_log, "parse_deal_line", lambda *a, **k: calls.append(1) or real(*a, **k))
    fast = [_told(text), _told(flow)]
    assert len(calls) == 2 * len(wrong) + 1  # and the 'null' once
    monkeypatch.setattr(yaml_log, "BAD_TEXTS", 0)
    assert fast == [_told(text), _told(flow)]
    assert len(calls) > 250
