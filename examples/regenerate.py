"""Refresh examples/expected/*.json from the current program — deliberately, by hand.

    python examples/regenerate.py          # rewrite every expected file
    python examples/regenerate.py --check  # only report which would change

CI does not run this; tests/test_examples.py compares the program with these files.
Before committing a refreshed file, re-check the changed numbers by hand against
RULES.md (see examples/HANDCHECK.md): a changed expected file is a changed score.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "expected"

#: expected-file stem → (command, example path relative to examples/)
EXAMPLES: dict[str, tuple[str, str]] = {
    "sochi-3p": ("score", "sochi-3p.txt"),
    "sochi-5p": ("score", "sochi-5p.txt"),
    "gusarik-2p": ("score", "gusarik-2p.txt"),
    "sochi-join-leave": ("score", "sochi-join-leave.txt"),
    "leningrad-4p": ("score", "leningrad-4p.yaml"),
    "rostov-3p": ("score", "rostov-3p.yaml"),
    "house-rules": ("score", "house-rules/evening.txt"),
    "classic-3p": ("score", "classic-3p.txt"),
    "sheet": ("settle", "sheet.yaml"),
    "leningrad-50-sheet": ("settle", "leningrad-50-sheet.yaml"),
}


def run(name: str, *extra: str) -> tuple[int, str, str]:
    """Run `pulyacalc COMMAND EXAMPLE -f json` in-process; (exit code, stdout, stderr)."""
    from pulyacalc.cli.app import app

    command, rel = EXAMPLES[name]
    runner = CliRunner()
    result = runner.invoke(app, [command, str(HERE / rel), "-f", "json", *extra], prog_name="pulyacalc")
    try:
        stderr = result.stderr
    except ValueError:  # older click mixes the streams
        stderr = ""
    return result.exit_code, result.stdout, stderr


def produce(name: str) -> Any:
    code, out, err = run(name)
    if code != 0:
        raise SystemExit(f"{name}: pulyacalc exited {code}\n{err}{out}")
    return json.loads(out)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    changed = 0
    EXPECTED.mkdir(exist_ok=True)
    for name in EXAMPLES:
        doc = produce(name)
        path = EXPECTED / f"{name}.json"
        old = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
        if old == doc:
            continue
        changed += 1
        print(f"{'would change' if check else 'rewrote'} {path.relative_to(HERE.parent)}")
        if not check:
            path.write_text(json.dumps(doc, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    if not changed:
        print("every expected file is up to date")
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
