"""Start-up: `pulyacalc CMD` builds only CMD, and the whole app is there for --help and tests."""

from __future__ import annotations

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
