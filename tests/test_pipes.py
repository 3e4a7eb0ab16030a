"""The real program in pipelines: data only on stdout, the same bytes on a terminal as
in a pipe, a reader that leaves early (``| head``) ends it quietly, stdin works.

These run the installed ``pulyacalc`` (or ``python -m pulyacalc``) as a subprocess.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import genlog  # noqa: E402

EXE = shutil.which("pulyacalc")
CMD = [EXE] if EXE else [sys.executable, "-m", "pulyacalc"]
ENV = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE")} | {
    "TERM": "xterm-256color"
}


@pytest.fixture(scope="module")
def big_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log played past its finish whose explanation is over a megabyte in every format:
    1,500 deals."""
    p = tmp_path_factory.mktemp("pipes") / "big.pulya"
    p.write_text("".join(genlog.line_log(1500, seed=5, pool=200)), encoding="utf-8")
    return p


def run(args: list[str], **kw: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*CMD, *args], capture_output=True, timeout=60, env=ENV, **kw)  # type: ignore[call-overload, no-any-return]


def test_success_writes_data_to_stdout_and_nothing_to_stderr(big_log: Path) -> None:
    # the big log is played past its finish: score says so in one note on stderr (always,
    # a terminal or not, as season's notes: docs/commands.md), and -q silences it
    r = run(["score", str(big_log), "-f", "json", "-q"])
    assert r.returncode == 0 and r.stderr == b""
    assert r.stdout.startswith(b"{") and r.stdout.endswith(b"}\n")
    noted = run(["score", str(big_log), "-f", "json"])
    assert noted.stdout == r.stdout
    assert noted.stderr.startswith(b"pulyacalc: ") and noted.stderr.count(b"\n") == 1
    assert b"pulyacalc check " in noted.stderr


def test_stdin_is_read_with_a_dash(big_log: Path) -> None:
    r = run(["score", "-", "-f", "csv"], input=big_log.read_bytes())
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].startswith(b"player,pool,mountain")


@pytest.mark.parametrize(
    "args",
    # score -q: the big log is played past its finish, which score notes on stderr
    [["explain", "{log}", "-f", "jsonl"], ["explain", "{log}"], ["score", "{log}", "-f", "jsonl", "-q"]],
)
def test_a_reader_that_leaves_early_ends_it_quietly(big_log: Path, args: list[str]) -> None:
    """``pulyacalc … | head -1``: exit 0, no traceback, no 'Broken pipe' on stderr."""
    argv = [a.replace("{log}", str(big_log)) for a in args]
    p = subprocess.Popen([*CMD, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.readline()
    p.stdout.close()  # the reader goes away; the writer gets EPIPE on its next write
    err = p.stderr.read()
    code = p.wait(timeout=60)
    assert err == b"", err.decode(errors="replace")
    assert code == 0


def test_shell_pipe_into_head(big_log: Path) -> None:
    if shutil.which("sh") is None or shutil.which("head") is None:
        pytest.skip("no sh/head")
    cmd = " ".join(f"'{c}'" for c in CMD) + f" explain '{big_log}' -f jsonl | head -3; echo status=$?"
    r = subprocess.run(["sh", "-c", cmd], capture_output=True, timeout=60, env=ENV)
    lines = r.stdout.decode().splitlines()
    assert len(lines) == 4 and lines[-1] == "status=0"
    assert r.stderr == b"", r.stderr.decode(errors="replace")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("fmt", ["table", "json", "csv"])
def test_same_bytes_on_a_terminal_and_in_a_pipe(big_log: Path, fmt: str) -> None:
    """No colour, no layout change: what a terminal gets is what a pipe gets."""
    piped = run(["score", str(big_log), "-f", fmt]).stdout
    master, slave = os.openpty()
    try:
        p = subprocess.Popen(
            [*CMD, "score", str(big_log), "-f", fmt], stdout=slave, stderr=subprocess.PIPE, env=ENV
        )
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        assert p.wait(timeout=60) == 0
    finally:
        os.close(master)
    on_tty = b"".join(chunks).replace(b"\r\n", b"\n")
    assert b"\x1b[" not in on_tty
    assert on_tty == piped


def test_errors_go_to_stderr_located_and_stdout_stays_empty(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pulya"
    bad.write_text("players: A B C\n\nA 6♠ 7, B whist 2, C pass 2\nA 6x\n", encoding="utf-8")
    r = run(["score", str(bad), "-f", "json"])
    assert r.returncode == 1 and r.stdout == b""
    err = r.stderr.decode()
    assert f"{bad}:3:" in err and f"{bad}:4:" in err and "Traceback" not in err


def test_season_has_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    for i in range(3):
        (tmp_path / f"{i}.pulya").write_text("".join(genlog.line_log(60, seed=i)), encoding="utf-8")
    r = run(["season", str(tmp_path), "-f", "csv"])
    assert r.returncode == 0 and r.stderr == b""
    assert len(r.stdout.splitlines()) == 4


# -- standard streams in every state a shell can leave them in (issue 11 item 5) ------------

SH = shutil.which("sh")
needs_sh = pytest.mark.skipif(SH is None or not Path("/dev/full").exists(), reason="needs sh and /dev/full")
WRITE_FAILED = b"pulyacalc: cannot write to standard output: "


def shell(line: str, **kw: object) -> subprocess.CompletedProcess[bytes]:
    """``line`` run by sh, where ``PULYACALC`` is the program (redirections are the shell's)."""
    prog = " ".join(f"'{c}'" for c in CMD)
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [SH, "-c", line.replace("PULYACALC", prog)],
        capture_output=True,
        timeout=60,
        env=ENV | {"LANGUAGE": "en"},
        **kw,
    )


@needs_sh
@pytest.mark.parametrize(
    "args",
    [
        "explain {log} -f jsonl",
        "explain {log}",
        "--version",
        "score --help",
    ],
)
@pytest.mark.parametrize("redirect", ["> /dev/full", ">&-"])
def test_standard_output_that_cannot_be_written_is_one_message_and_exit_1(
    big_log: Path, args: str, redirect: str
) -> None:
    r = shell(f"PULYACALC {args.replace('{log}', str(big_log))} {redirect}")
    assert r.returncode == 1, r.stderr.decode(errors="replace")
    reason = b"No space left on device" if "full" in redirect else b"Bad file descriptor"
    assert r.stderr == WRITE_FAILED + reason + b"\n"


@needs_sh
def test_closed_standard_error_drops_diagnostics_and_keeps_them_out_of_stdout(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pulya"
    bad.write_text("players: A B C\n\nA 6x\n", encoding="utf-8")
    r = shell(f"PULYACALC score '{bad}' -f json 2>&-")
    assert r.returncode == 1 and r.stdout == b""
    # warnings too: the standings are all standard output carries
    for name in ("a", "b"):
        (tmp_path / f"{name}.pulya").write_text("".join(genlog.line_log(30, seed=3)), encoding="utf-8")
    r = shell(f"PULYACALC season '{tmp_path / 'a.pulya'}' '{tmp_path / 'b.pulya'}' -f csv 2>&-")
    assert r.returncode == 0
    assert r.stdout.splitlines()[0].startswith(b"rank,player") and len(r.stdout.splitlines()) == 4


@needs_sh
def test_closed_standard_input_is_an_empty_log(tmp_path: Path) -> None:
    r = shell("PULYACALC score - <&-")
    assert r.returncode == 1 and r.stdout == b""
    assert r.stderr.startswith(b"<stdin>:1:") and b"Traceback" not in r.stderr


def test_a_broken_standard_error_pipe_still_gives_the_standings(tmp_path: Path) -> None:
    """``season`` warns on stderr (an evening counted twice); with stderr's reader gone the
    warning is lost, but the standings are printed and the status is the command's."""
    for name in ("a", "b"):
        (tmp_path / f"{name}.pulya").write_text("".join(genlog.line_log(30, seed=3)), encoding="utf-8")
    read, write = os.pipe()
    os.close(read)
    try:
        r = subprocess.run(
            [*CMD, "season", str(tmp_path), "-f", "csv"],
            stdout=subprocess.PIPE,
            stderr=write,
            timeout=60,
            env=ENV,
        )
    finally:
        os.close(write)
    assert r.returncode == 0
    assert r.stdout.splitlines()[0].startswith(b"rank,player") and len(r.stdout.splitlines()) == 4


#: Ctrl-C at a chosen moment of start-up, deterministically: the import of MODULE raises
#: KeyboardInterrupt, as a SIGINT arriving then would
INTERRUPTED_IMPORT = """
import sys
MODULE = sys.argv.pop(1)

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == MODULE:
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, Interrupt())
sys.argv = ["pulyacalc", *sys.argv[1:]]
from pulyacalc.cli.app import main
main()
"""


@pytest.mark.parametrize(
    "module",
    ["typer", "pulyacalc.cli.runtime", "pulyacalc.cli.commands.score", "yaml", "pulyacalc.render.report"],
)
def test_ctrl_c_during_start_up_is_exit_130_without_a_traceback(module: str) -> None:
    # a line log under a built-in convention never imports PyYAML: a YAML log does
    example = ROOT / "examples" / ("rostov-3p.yaml" if module == "yaml" else "sochi-3p.txt")
    r = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_IMPORT, module, "score", str(example)],
        capture_output=True,
        timeout=60,
        env=ENV,
    )
    assert (r.returncode, r.stdout, r.stderr) == (130, b"", b"")


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
@pytest.mark.parametrize("after", ["typer.main", "pulyacalc.cli.runtime", "pulyacalc.core.errors", "yaml"])
def test_a_real_sigint_early_in_start_up_is_exit_130(big_log: Path, after: str) -> None:
    """A real SIGINT, sent the moment ``-X importtime`` says AFTER is imported (the first
    tens of milliseconds, inside ``main``): it ends 130, quietly.  (Before ``main`` runs,
    in the interpreter's own start-up, Python's default applies.)"""
    import signal

    if after == "yaml":  # a line log under a built-in convention never imports PyYAML
        big_log = big_log.with_suffix(".yaml")
        big_log.write_text(genlog.yaml_log(3000, seed=5, pool=200), encoding="utf-8")
    p = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", "pulyacalc", "explain", str(big_log), "-f", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        # as a terminal's Ctrl-C finds it: a suite started in the background (SIGINT
        # ignored, and so for its children) would otherwise wait for the child forever
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert p.stderr is not None and p.stdout is not None
    for line in p.stderr:
        if line.rstrip().endswith(b" " + after.encode()):
            p.send_signal(signal.SIGINT)
            break
    rest = b"".join(line for line in p.stderr if not line.startswith(b"import time:"))
    p.stdout.read()
    assert p.wait(timeout=60) == 130
    assert b"Traceback" not in rest and b"KeyboardInterrupt" not in rest, rest.decode(errors="replace")


@needs_sh
@pytest.mark.parametrize("fmt", ["table", "json"])
def test_a_long_explanation_is_the_same_bytes_into_a_file_a_pipe_and_o(
    big_log: Path, tmp_path: Path, fmt: str
) -> None:
    piped = run(["explain", str(big_log), "-f", fmt]).stdout
    assert len(piped) > 1 << 20  # over a megabyte
    redirected = tmp_path / "redirected.txt"
    r = shell(f"PULYACALC explain '{big_log}' -f {fmt} > '{redirected}'")
    assert r.returncode == 0 and r.stderr == b""
    named = tmp_path / ("named.json" if fmt == "json" else "named.txt")
    assert run(["explain", str(big_log), "-f", fmt, "-o", str(named)]).returncode == 0
    assert redirected.read_bytes() == piped == named.read_bytes()
    # appended (``>>``) after what it holds
    appended = tmp_path / "appended.txt"
    appended.write_bytes(b"kept\n")
    r = shell(f"PULYACALC explain '{big_log}' -f {fmt} >> '{appended}'")
    assert r.returncode == 0 and r.stderr == b""
    assert appended.read_bytes() == b"kept\n" + piped
