"""The fuzz and limits suite (issue 11): every command of ``pulyacalc --help`` against each
kind of hostile input, option, output and stream, mutated example logs, and the numbers
every table shows adding up to what its footer says.

Every run must end at once in a result (exit 0) or in located problems (exit 1, the first
``FILE:LINE[:COL]:`` with FILE as typed) or usage naming the option (exit 2): never a
traceback, never a hang (each in-process run has batch.LIMIT seconds in a child process
that is killed past them; each real process a subprocess timeout), never a control or
bidi character, an absolute path the user did not type, or a flood of messages.
PULYACALC_FUZZ_COUNT scales the random cases (default 200; 1,000 in .ci/run),
PULYACALC_FUZZ_SEED seeds them.
"""

from __future__ import annotations

import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from batch import Outcome, run_batch
from fuzz_mutate import fuzz_cases, judge
from hostile_cases import COMMANDS, READERS, UNSAFE, expected, inputs, located
from limit_cases import FAMILIES, Case, options, own_files, prepare
from stream_cases import STREAMS, run_streams
from totals import evening_tables

INPUTS = inputs()
ROOT = Path(__file__).resolve().parents[1]
LIMITS = {f"{family}: {name}": case for family, make in FAMILIES.items() for name, case in make().items()}
FUZZ = fuzz_cases()


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, Outcome]]]:
    """Every in-process case, run once in a scratch directory with relative paths."""
    tmp = tmp_path_factory.mktemp("hostile")
    prepare(tmp)
    cases = []
    for i, (name, (suffix, data, _kind)) in enumerate(INPUTS.items()):
        (tmp / f"in{i}{suffix}").write_bytes(data)
        for c, argv in READERS.items():
            args = [a.replace("{log}", f"in{i}{suffix}").replace("{out}", f"out{i}") for a in argv]
            cases.append({"id": f"{name} | {c}", "args": args})
    for key, case in LIMITS.items():
        fifo = {"fifo": case.fifo[0], "feed": case.fifo[1].decode("latin-1")} if case.fifo else {}
        cases.append({"id": key, "args": case.args, **fifo})
    for key, (args, files) in FUZZ.items():
        for name, data in files.items():
            (tmp / name).write_bytes(data)
        cases.append({"id": key, "args": args})
    for key, args in EXAMPLES.items():
        cases.append({"id": key, "args": args})
    _copy_examples(tmp)
    yield tmp, run_batch([{**c, "cwd": str(tmp)} for c in cases])


#: the shipped examples as a user has them (a convention beside its log), and the evening
#: whose table changes as a YAML log too (``_copy_examples``); a sheet is settle's input
SHIPPED = sorted(
    str(p.relative_to(ROOT))
    for p in (ROOT / "examples").rglob("*")
    if p.suffix in (".txt", ".yaml") and p.parent.name != "expected" and p.name != "house.yaml"
)
SHIPPED.append("examples/sochi-join-leave.yaml")
SHEETS = {"examples/sheet.yaml", "examples/leningrad-50-sheet.yaml"}
#: every command that reads a log on every shipped example, each deal of the evening with
#: seat changes explained and disputed, each example converted both ways and in Russian
EXAMPLES = {
    f"example {path} | {' '.join(argv)}": [a.replace("{log}", path).replace("{out}", f"ex{i}") for a in argv]
    for i, path in enumerate(SHIPPED)
    for argv in [
        *READERS.values(),
        ["convert", "{log}", "--to", "lines", "--lang", "ru"],
        ["ledger", "{log}", "--running", "-f", "json"],
        ["compare", "{log}", "-f", "csv"],
    ]
}
EXAMPLES |= {
    f"example {path} | {command} --deal {n}": [command, path, "--deal", str(n), *fmt]
    for path in ("examples/sochi-join-leave.txt", "examples/sochi-join-leave.yaml")
    for n in range(1, 9)
    for command, fmt in (("dispute", ["-f", "json"]), ("explain", []))
}


def _copy_examples(tmp: Path) -> None:
    import shutil

    from pulyacalc.logs.read import read_log
    from pulyacalc.logs.write import write_yaml

    shutil.copytree(ROOT / "examples", tmp / "examples")
    log = read_log(str(ROOT / "examples" / "sochi-join-leave.txt"))
    (tmp / "examples" / "sochi-join-leave.yaml").write_text("".join(write_yaml(log)), "utf-8")


def sane(o: Outcome, tmp: Path) -> None:
    """What every run must be, whatever its input."""
    assert o.code != "killed", f"still running after the limit:\n{o.stderr}"
    assert not o.crash and "Traceback" not in o.stderr, o.crash or o.stderr
    assert o.code in (0, 1, 2)
    assert not UNSAFE.search(o.stderr), f"a control or bidi character reached stderr: {o.stderr[:500]!r}"
    assert len(o.stderr) < 100_000, f"{len(o.stderr):,} characters of messages"
    assert str(tmp) not in o.stderr, f"a path the user did not type: {o.stderr[:500]}"
    assert "cannot write to standard output" not in o.stderr  # in-process: never its fault


def problems(o: Outcome, command: str) -> str:
    """The problems a run reports: stderr, or (``check``, which reports findings as data)
    stdout when stderr is empty."""
    return o.stderr or (o.stdout if command == "check" else "")


def test_every_command_is_covered() -> None:
    from pulyacalc.cli.app import COMMANDS as ALL
    from pulyacalc.cli.app import GROUPS

    assert set(COMMANDS) == {*ALL, *GROUPS}


@pytest.mark.parametrize("command", READERS)
@pytest.mark.parametrize("name", INPUTS)
def test_hostile_input(ran: tuple[Path, dict[str, Outcome]], name: str, command: str) -> None:
    tmp, outcomes = ran
    o = outcomes[f"{name} | {command}"]
    sane(o, tmp)
    suffix, _, kind = INPUTS[name]
    refused = command == "play" and suffix == ".yaml"  # play continues line logs only: said at the file
    want = {1} if refused else expected(kind, command)
    assert o.code in want, f"exit {o.code}, not {want}:\n{o.stderr[:2000]}"
    if o.code == 1:
        path, said = f"in{list(INPUTS).index(name)}{suffix}", problems(o, command)
        assert located(path, said, refused), f"not located in {path}:\n{said[:2000]}"
        assert not refused or "convert" in said
        assert command == "check" or o.stdout == "", "data on stdout with exit 1"
    if o.code == 2:
        assert "'--deal'" in o.stderr


@pytest.mark.parametrize("key", LIMITS)
def test_limit(ran: tuple[Path, dict[str, Outcome]], key: str) -> None:
    tmp, outcomes = ran
    o, case = outcomes[key], LIMITS[key]
    sane(o, tmp)
    assert o.code == case.want, f"exit {o.code}, not {case.want}:\n{o.stderr[:2000]}"
    said = problems(o, case.args[0])
    if case.first:
        path = said.split(":")[0]
        assert said.startswith(case.first) and located(path, said, case.whole_file), said[:2000]
    assert case.has in said, said[:2000]
    if "--allow-outside" in said:  # a message that names the option names one the command has
        assert "--allow-outside" in options(case.args[0])
    assert not any(s in o.stdout + o.stderr for s in case.never)
    if case.want == 2:
        assert o.stdout == ""
    _files_kept(tmp, case)


@pytest.mark.parametrize("fmt", ["table", "csv"])
def test_money_past_28_digits_is_exact(ran: tuple[Path, dict[str, Outcome]], fmt: str) -> None:
    """Issue 31 item 6: Decimal's 28 digits rounded it to …668000.00 (and CSV crashed)."""
    o = ran[1][f"numbers: money past 28 digits ({fmt})"]
    assert o.code == 0 and "37037037037037037396666665866.67" in o.stdout, o.stderr[:500]


def _files_kept(tmp: Path, case: Case) -> None:
    """-o: a FIFO and a device are left as they were; a link is written through, kept."""
    assert stat.S_ISFIFO((tmp / "pipe.svg").stat().st_mode)
    assert stat.S_ISCHR((tmp / "device.svg").stat().st_mode)
    for name, text in own_files().items():  # an input -o named is left as it was
        assert (tmp / name).read_text("utf-8") == text, name
    target = case.args[-1]
    if target.startswith("link-") and target.endswith(("-o.svg", "--plot.svg")):
        assert (tmp / target).is_symlink()
        assert (tmp / target.replace("link-", "real-")).read_text("utf-8") != "old\n"


@pytest.mark.parametrize("key", EXAMPLES)
def test_shipped_example(ran: tuple[Path, dict[str, Outcome]], key: str) -> None:
    """Issue 31 items 5, 7: a shipped example with a join crashed dispute and lost a row in
    compare.  Each example gives a result; a sheet only to settle, a log to all but settle;
    play refuses a YAML log (a sheet too), naming the conversion."""
    tmp, outcomes = ran
    o, args = outcomes[key], EXAMPLES[key]
    sane(o, tmp)
    said = problems(o, args[0])
    if args[0] == "play" and args[1].endswith(".yaml"):  # play continues line logs only
        assert o.code == 1 and located(args[1], said, True) and "pulyacalc convert" in said, said[:2000]
    elif (args[1] in SHEETS) == (args[0] == "settle"):
        assert o.code == 0, o.stderr[:2000]
        assert o.stdout or args[0] == "sheet"
    else:
        assert o.code == 1 and located(args[1], said, True), said[:2000]


def test_play_leaves_no_lock_or_scratch(ran: tuple[Path, dict[str, Outcome]]) -> None:
    """play's LOG.lock (and an undo's LOG.tmp) is gone however the run ended, refused or not."""
    assert not [p.name[:80] for p in ran[0].rglob("*") if p.suffix in (".lock", ".tmp")]


@pytest.mark.parametrize("key", FUZZ)
def test_fuzz(ran: tuple[Path, dict[str, Outcome]], key: str) -> None:
    tmp, outcomes = ran
    o = outcomes[key]
    sane(o, tmp)
    judge(FUZZ[key][0], o)


@pytest.mark.parametrize("state", STREAMS)
def test_stream(state: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    for command, failure in run_streams(state, tmp_path_factory.mktemp("streams")).items():
        assert failure is None, f"{command}: {failure}"


def test_every_table_adds_up_to_its_footer() -> None:
    evening_tables()


def test_an_error_about_a_file_is_never_blamed_on_standard_output(capfd: pytest.CaptureFixture[str]) -> None:
    """What no command turned into a message (a name past NAME_MAX once was) names its file."""
    import errno

    from pulyacalc.cli.runtime import run

    def app() -> None:
        raise OSError(errno.ENAMETOOLONG, "File name too long", "n" * 300)

    assert run(app) == 1
    assert capfd.readouterr().err == f"pulyacalc: {'n' * 300}: the name is too long\n"
