"""Start-up: `pulyacalc CMD` builds only CMD, and the whole app is there for --help and tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pulyacalc.cli.app import COMMANDS, build

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "sochi-3p.txt"

PROBE = """
import sys
sys.argv = ["pulyacalc", *sys.argv[1:]]
from pulyacalc.cli.app import main
try:
    main()
except SystemExit:
    pass
loaded = sorted(m.rsplit(".", 1)[1] for m in sys.modules if m.startswith("pulyacalc.cli.commands."))
print(" ".join(loaded), file=sys.stderr)
"""


def commands_loaded(*args: str) -> list[str]:
    r = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True)
    return r.stderr.strip().splitlines()[-1].split()


def test_a_command_loads_only_itself() -> None:
    assert commands_loaded("score", str(EXAMPLE)) == ["score"]
    assert commands_loaded("prices") == ["prices"]


def test_help_and_a_mistyped_command_load_them_all() -> None:
    assert commands_loaded("--help") == sorted(COMMANDS)
    assert commands_loaded("scor") == sorted(COMMANDS)


def test_the_whole_app_lists_every_command_in_order() -> None:
    app = build()
    assert [c.name for c in app.registered_commands] == list(COMMANDS)
    assert [c.name for c in build("check").registered_commands] == ["check"]


#: the collector's state when typer is imported (start-up) and when the command's work
#: imports the evening's module: enabled?, collections since the probe began, objects
#: frozen?, first threshold
GC_PROBE = """
import gc, sys
sys.argv = ["pulyacalc", *sys.argv[1:]]
start = sum(s["collections"] for s in gc.get_stats())
def hook(event, args):
    if event == "import" and args[0] in ("typer", "pulyacalc.play"):
        done = sum(s["collections"] for s in gc.get_stats()) - start
        print(args[0], gc.isenabled(), done, gc.get_freeze_count() > 1000, gc.get_threshold()[0],
              file=sys.stderr)
sys.addaudithook(hook)
from pulyacalc.cli import app
try:
    app.{entry}()
except SystemExit:
    pass
print("after", gc.isenabled(), gc.get_freeze_count(), gc.get_threshold()[0], file=sys.stderr)
"""


def gc_seen(entry: str) -> list[list[str]]:
    code = GC_PROBE.replace("{entry}", entry)
    r = subprocess.run([sys.executable, "-c", code, "score", str(EXAMPLE)], capture_output=True, text=True)
    return [
        line.split()
        for line in r.stderr.splitlines()
        if line.split()[0] in ("typer", "pulyacalc.play", "after")
    ]


def test_the_program_starts_without_the_garbage_collector_and_works_with_it() -> None:
    """script pauses the collector for the start-up (no collection at all) and the command
    resumes it for its work, with the start-up's objects frozen out of its sight."""
    typer_line, work_line = gc_seen("script")  # script ends with os._exit: no "after"
    assert typer_line[:2] == ["typer", "False"]
    assert work_line == ["pulyacalc.play", "True", typer_line[2], "True", "10000"]


def test_main_in_a_program_of_its_own_leaves_the_collector_alone() -> None:
    typer_line, work_line, after = gc_seen("main")
    assert typer_line[1] == work_line[1] == "True" and work_line[3:] == ["False", "700"]
    assert after == ["after", "True", "0", "700"]


#: what `score` of a line log under a built-in convention never needs: PyYAML, tabulate
#: (its tables are drawn directly: render/formats.direct), the built-ins' trees (they ship
#: built: convention/built.py), the other commands' modules
NOT_FOR_SCORE = (
    "yaml",
    "tabulate",
    "pulyacalc.convention.builtin",
    "pulyacalc.logs.yaml_log",
    "pulyacalc.reports.check",
    "pulyacalc.reports.explain",
    "pulyacalc.reports.reconcile",
    "pulyacalc.render.explain",
    "pulyacalc.render.settle",
)


def test_score_of_a_line_log_loads_only_what_it_needs() -> None:
    probe = (
        "import sys\nsys.argv = ['pulyacalc', 'score', sys.argv[1]]\n"
        "from pulyacalc.cli.app import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)"
    )
    # piped, no COLUMNS: tables as wide as they come (a table fitted to a width is tabulate's)
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    r = subprocess.run([sys.executable, "-c", probe, str(EXAMPLE)], capture_output=True, text=True, env=env)
    loaded = set(r.stderr.splitlines()[-1].split())
    assert "pulyacalc.scoring.settlement" in loaded  # the probe saw the command run
    assert sorted(loaded & set(NOT_FOR_SCORE)) == []
