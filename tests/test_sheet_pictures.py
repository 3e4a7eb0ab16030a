"""The drawn pulya for sharing (issue 28 item 8): ``-o x.png`` and ``x.pdf`` from the same SVG
(cairosvg, the optional picture extra), a clear message with the install line without it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pulyacalc.cli.app import app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    from pulyacalc.core.i18n import use

    use("en")
    r = runner.invoke(app, list(args), prog_name="pulyacalc", env={"PULYACALC_LANG": "en"})
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.parametrize(("suffix", "magic"), [(".png", b"\x89PNG\r\n\x1a\n"), (".pdf", b"%PDF-")])
@pytest.mark.parametrize(
    "args", [["sheet", str(EXAMPLES / "sochi-5p.txt")], ["settle", str(EXAMPLES / "sheet.yaml")]]
)
def test_png_and_pdf_are_the_drawing(tmp_path: Path, args: list[str], suffix: str, magic: bytes) -> None:
    pytest.importorskip("cairosvg")
    out = tmp_path / f"pulya{suffix}"
    code, stdout, err = run(*args, "-o", str(out))
    assert code == 0 and stdout == "", err
    data = out.read_bytes()
    assert data.startswith(magic) and len(data) > 10_000
    if suffix == ".png":  # an A4 page at 150 dpi: portrait for sheet, landscape beside the stages
        wide, high = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert (wide, high) == ((1240, 1754) if args[0] == "sheet" else (1754, 1240))


def test_without_cairosvg_the_message_says_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # (import cairosvg raises ImportError)
    out = tmp_path / "pulya.png"
    code, stdout, err = run("sheet", str(EXAMPLES / "sochi-3p.txt"), "-o", str(out))
    assert code == 1 and "pip install 'pulyacalc[picture]'" in err and "libcairo2" in err
    assert "Traceback" not in err and not out.exists()
    code, _, err = run("sheet", str(EXAMPLES / "sochi-3p.txt"), "-o", str(tmp_path / "x.gif"))
    assert code == 2 and "FILE.png or FILE.pdf" in err
