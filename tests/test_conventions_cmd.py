"""`pulyacalc conventions list | show | diff`: the built-ins listed, a convention shown as a
file that scores the same when saved and used, two compared key by key; all from the schema
rows, so a key added there is listed, shown and compared with no edit to the command."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest
from helpers import reference_markdown
from typer.testing import CliRunner

from pulyacalc.cli.app import app
from pulyacalc.convention.dump import dump, flow, scalar
from pulyacalc.convention.load import builtin_names, load
from pulyacalc.convention.schema import SCHEMA, Convention
from pulyacalc.play import score_file

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
#: the logs of examples/ (the two sheets are settled, not scored)
LOGS = ["sochi-3p.txt", "leningrad-4p.yaml", "rostov-3p.yaml", "house-rules/evening.txt"]

#: a house convention of five lines: extends: and four keys
HOUSE = (
    "extends: leningrad\n"
    "whist.on_failure: greedy\n"
    "raspasy.trick_value: 1/2\n"
    "raspasy.progression: [1, 2, 4]\n"
    "settlement.rounding: nearest\n"
)

runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, list(args), prog_name="pulyacalc")


def same(a: Convention, b: Convention) -> bool:
    """Equal in every key and the title (the name and source come from the file)."""
    return replace(a, name=b.name, source=b.source) == b


@pytest.fixture
def house(tmp_path: Path) -> Path:
    path = tmp_path / "house5.yaml"
    path.write_text(HOUSE, encoding="utf-8")
    return path


def refs(house: Path) -> list[str]:
    return [*builtin_names(), str(house)]


# -- list ---------------------------------------------------------------------------------


def test_list_gives_every_builtin_with_its_title_and_file() -> None:
    r = run("conventions", "list")
    assert r.exit_code == 0, r.output
    for name in builtin_names():
        assert name in r.stdout and load(name).title in r.stdout
    doc = json.loads(run("conventions", "list", "-f", "json").stdout)
    assert doc["schema_version"] == 1
    got = doc["conventions"]
    assert [c["name"] for c in got][:4] == ["sochi", "leningrad", "rostov", "classic"]  # RULES.md §4's order
    for c in got:
        assert c["title"] == load(c["name"]).title
        assert Path(c["file"]).is_file() and Path(c["file"]).stem == c["name"]
        assert c["description"] and "\n" not in c["description"]
    csv = run("conventions", "list", "-f", "csv").stdout.splitlines()
    assert csv[0] == "name,title,file,description" and len(csv) == 1 + len(got)
    assert [json.loads(x)["name"] for x in run("conventions", "list", "-f", "jsonl").stdout.splitlines()] == [
        c["name"] for c in got
    ]


# -- show ---------------------------------------------------------------------------------


def test_show_saved_and_loaded_is_the_same_convention(tmp_path: Path, house: Path) -> None:
    for i, ref in enumerate(refs(house)):
        r = run("conventions", "show", ref)
        assert r.exit_code == 0, r.output
        saved = tmp_path / f"saved{i}.yaml"
        saved.write_text(r.stdout, encoding="utf-8")
        assert same(load(str(saved)), load(ref)), ref


def test_show_writes_every_key_nested_with_its_russian_name() -> None:
    text = run("conventions", "show", "sochi").stdout
    lines = text.splitlines()
    for key, row in SCHEMA.items():
        section, leaf = key.split(".", 1)
        assert f"{section}:" in lines
        at = lines.index(f"  {leaf}: {flow(row.show(getattr(load('sochi'), row.field)))}")
        assert lines[at - 1].startswith("  # " + " ".join(row.ru.split())), key
    assert "name: sochi" in lines


@pytest.mark.parametrize("log", LOGS)
def test_a_saved_show_scores_every_example_the_same(log: str, tmp_path: Path) -> None:
    path = EXAMPLES / log
    conv = score_file(str(path)).convention
    saved = tmp_path / "saved.yaml"
    saved.write_text(run("conventions", "show", conv.source).stdout, encoding="utf-8")
    own = run("score", str(path), "-f", "json")
    again = run("score", str(path), "-f", "json", "-c", str(saved))
    assert own.exit_code == again.exit_code == 0, again.output
    name = f'"convention": "{conv.name}"'
    assert name in own.stdout
    assert again.stdout == own.stdout.replace(name, '"convention": "saved"')


def test_a_five_line_house_file_scores_the_same_when_shown_and_saved(tmp_path: Path, house: Path) -> None:
    saved = tmp_path / "shown.yaml"
    saved.write_text(run("conventions", "show", str(house)).stdout, encoding="utf-8")
    for log in LOGS[:3]:
        a = run("score", str(EXAMPLES / log), "-f", "json", "-c", str(house))
        b = run("score", str(EXAMPLES / log), "-f", "json", "-c", str(saved))
        assert a.exit_code == 0, a.output
        assert b.stdout == a.stdout.replace('"convention": "house5"', '"convention": "shown"')
    conv = load(str(house))
    assert conv.whist_on_failure == "greedy" and conv.rounding == "nearest"
    assert conv.raspasy_trick_value == load("leningrad").raspasy_trick_value / 4
    assert "trick_value: 1/2" in saved.read_text(encoding="utf-8")


def test_show_json_is_every_value_nested_by_section(house: Path) -> None:
    for ref in refs(house):
        conv = load(ref)
        doc = json.loads(run("conventions", "show", ref, "-f", "json").stdout)
        assert doc["schema_version"] == 1
        assert (doc["name"], doc["title"]) == (conv.name, conv.title)
        # the same values as the convention's own, nested by section, through JSON
        nested: dict[str, Any] = {}
        for key, row in SCHEMA.items():
            section, _, leaf = key.partition(".")
            nested.setdefault(section, {})[leaf] = row.show(getattr(conv, row.field))
        assert doc["convention"] == json.loads(json.dumps(nested))
        records = [json.loads(x) for x in run("conventions", "show", ref, "-f", "jsonl").stdout.splitlines()]
        assert [x["key"] for x in records] == list(SCHEMA)
        assert all(x["russian"] and x["source"] and x["meaning"] for x in records)


def test_scalars_read_back_as_the_same_text() -> None:
    assert scalar("split") == "split" and scalar("1/2") == "1/2" and scalar("-3/4") == "-3/4"
    # words a YAML 1.1 reader would turn into booleans, numbers or nothing, and flow syntax
    for text in ("no", "yes", "on", "off", "null", "~", "12", "0.5", "a, b", "x: y", "#", "Sochi (ours)", ""):
        assert scalar(text).startswith('"'), text
    assert flow({6: "no", 7: 2}) == '{6: "no", 7: 2}' and flow([1, 2]) == "[1, 2]" and flow(False) == "false"


def test_a_title_that_needs_quotes_reads_back(tmp_path: Path) -> None:
    conv = replace(load("rostov"), title='Наш стол: "no" # yes, {1/2}')
    saved = tmp_path / "q.yaml"
    saved.write_text(dump(conv, "test"), encoding="utf-8")
    assert same(load(str(saved)), conv)


def test_show_of_an_unknown_convention_is_located(tmp_path: Path) -> None:
    r = run("conventions", "show", "sochy")
    assert r.exit_code == 2 and "did you mean 'sochi'" in r.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: sochi\nwhist:\n  on_failur: greedy\n", encoding="utf-8")
    r = run("conventions", "show", str(bad))
    assert r.exit_code == 1 and "bad.yaml:3:3: unknown convention key 'whist.on_failur'" in r.stderr
    assert "Traceback" not in r.output


# -- diff ---------------------------------------------------------------------------------


def differing(a: Convention, b: Convention) -> list[str]:
    """The keys whose fields differ, found from the dataclass, not from the command's code."""
    by_field = {row.field: key for key, row in SCHEMA.items()}
    names = [f.name for f in fields(Convention) if f.name in by_field]
    return sorted(by_field[n] for n in names if getattr(a, n) != getattr(b, n))


def test_diff_lists_exactly_the_keys_that_differ(house: Path) -> None:
    for a in refs(house):
        for b in refs(house):
            r = run("conventions", "diff", a, b, "-f", "json")
            assert r.exit_code == 0, r.output  # a report, not a check
            doc = json.loads(r.stdout)
            got = doc["differences"]
            assert sorted(x["key"] for x in got) == differing(load(a), load(b))
            for x in got:
                row = SCHEMA[x["key"]]
                assert x["a"] == json.loads(json.dumps(row.show(getattr(load(a), row.field))))
                assert x["b"] == json.loads(json.dumps(row.show(getattr(load(b), row.field))))
                assert x["meaning"] == row.doc
            assert (doc["a"]["name"], doc["b"]["name"]) == (load(a).name, load(b).name)


def test_diff_table_and_csv(house: Path) -> None:
    r = run("conventions", "diff", "leningrad", str(house))
    assert r.exit_code == 0
    assert r.stdout.startswith(
        f"leningrad «{load('leningrad').title}» and {house} «{load(str(house)).title}»: 4 keys differ\n"
    )
    for key in ("whist.on_failure", "raspasy.trick_value", "raspasy.progression", "settlement.rounding"):
        assert key in r.stdout
    assert "pool.target" not in r.stdout
    rows = run("conventions", "diff", "leningrad", str(house), "-f", "csv").stdout.splitlines()
    assert rows[0] == "key,a,b,meaning"
    assert any(x.startswith("raspasy.trick_value,2,1/2,") for x in rows)
    same_ = run("conventions", "diff", "sochi", "sochi")
    assert same_.exit_code == 0 and "agree on every key" in same_.stdout


def test_diff_reports_both_unknown_conventions() -> None:
    # each is refused at its argument, as usage (issue 10 items 6, 7)
    r = run("conventions", "diff", "soch", "sochi")
    assert r.exit_code == 2 and "did you mean 'sochi'" in r.stderr
    r = run("conventions", "diff", "sochi", "nope.yaml")
    assert r.exit_code == 2 and "no such file 'nope.yaml'" in r.stderr


# -- the command line's start-up, and the generated reference --------------------------------

PROBE = """
import sys
sys.argv = ["pulyacalc", *sys.argv[1:]]
from pulyacalc.cli.app import main
try:
    main()
except SystemExit:
    pass
print(sorted(m for m in sys.modules if m.startswith("pulyacalc.cli.commands.")), file=sys.stderr)
"""


def test_conventions_alone_shows_its_subcommands() -> None:
    r = run("conventions")
    assert r.exit_code == 2  # usage, as `pulyacalc` alone
    assert all(f"  {name}  " in r.output for name in ("list", "show", "diff"))
    rows = run("conventions", "show", "sochi", "-f", "csv").stdout.splitlines()
    assert rows[0] == "key,value,meaning,russian,source" and len(rows) == 1 + len(SCHEMA)
    assert any(x.startswith('contracts.price,"{6: 2, 7: 4, 8: 6, 9: 8, 10: 10}",') for x in rows)


def test_conventions_list_imports_no_other_command_module() -> None:
    r = subprocess.run([sys.executable, "-c", PROBE, "conventions", "list"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "sochi" in r.stdout
    assert r.stderr.strip().splitlines()[-1] == "['pulyacalc.cli.commands.conventions']"
    # and --help lists it without importing it
    r = subprocess.run([sys.executable, "-c", PROBE, "--help"], capture_output=True, text=True)
    assert "conventions" in r.stdout and "'pulyacalc.cli.commands.conventions'" not in r.stderr


def test_the_reference_gives_every_key_its_values_and_each_builtins_value() -> None:
    """docs/conventions.md (item 11): meaning, allowed values (every choice), Russian name,
    source and each built-in's value, for every key."""
    text = reference_markdown()
    names = builtin_names()
    head = next(line for line in text.splitlines() if line.startswith("| key |"))
    assert all(f" {n} " in head for n in names)
    for key, row in SCHEMA.items():
        line = next(x for x in text.splitlines() if x.startswith(f"| `{key}` |"))
        for part in (row.doc, row.ru, row.source, *row.choices):
            assert part.replace("|", "\\|") in line, (key, part)
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        assert len(cells) == 5 + len(names) and all(cells), key  # a value for every built-in


def test_every_jsonl_object_carries_the_schema_version() -> None:
    """docs/output.md: every JSON Lines object says its version; a document says it once."""
    import json as _json

    from typer.testing import CliRunner as _Runner

    from pulyacalc.cli.app import app as _app

    for args in (["list"], ["show", "sochi"], ["diff", "sochi", "leningrad"]):
        r = _Runner().invoke(_app, ["conventions", *args, "-f", "jsonl"])
        assert r.exit_code == 0, r.output
        lines = r.stdout.splitlines()
        assert lines and all(_json.loads(line)["schema_version"] == 1 for line in lines), args
        doc = _json.loads(_Runner().invoke(_app, ["conventions", *args, "-f", "json"]).stdout)
        assert doc["schema_version"] == 1
        for part in ("conventions", "differences"):
            assert all("schema_version" not in item for item in doc.get(part, [])), args
