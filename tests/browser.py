"""The headless browser the picture tests look through, as a person would: a screenshot
(PNG) and the DOM after the page loaded.  Without a browser the tests that need one skip,
unless the run must have one (CI sets PULYACALC_REQUIRE_BROWSER)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def no_browser(reason: str) -> None:
    """Skip, unless the run must have a browser (CI sets PULYACALC_REQUIRE_BROWSER)."""
    if os.environ.get("PULYACALC_REQUIRE_BROWSER"):
        pytest.fail(f"{reason} (PULYACALC_REQUIRE_BROWSER is set: .ci/run installs Debian's chromium)")
    pytest.skip(reason)


def screenshot(svg: Path, png: Path, size: str = "1200,900") -> None:
    exe = browser()
    if exe is None:
        no_browser("no headless browser (apt-get install chromium)")
    assert exe is not None
    cmd = [
        exe,
        "--headless",
        "--disable-gpu",
        "--no-sandbox",
        "--hide-scrollbars",
        f"--user-data-dir={png.parent / 'browser-profile'}",
        f"--screenshot={png}",
        f"--window-size={size}",
        svg.resolve().as_uri(),
    ]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        no_browser(f"the browser did not run: {e}")
        return
    if r.returncode != 0 or not png.exists():
        no_browser(f"the browser made no screenshot (exit {r.returncode}): {r.stderr[-500:]}")


def dom(page: Path, url: str | None = None, size: str | None = None) -> str:
    """The page's DOM as the browser serialises it once loaded (``--dump-dom``): the file
    ``page``, or ``url`` when given (``page``'s folder then keeps the browser's profile); in a
    window ``size`` ("WIDTH,HEIGHT") when given, and after its frames and messages have come."""
    exe = browser()
    if exe is None:
        no_browser("no headless browser (apt-get install chromium)")
    assert exe is not None
    cmd = [
        exe,
        "--headless",
        "--disable-gpu",
        "--no-sandbox",
        f"--user-data-dir={page.parent / 'browser-profile'}",
        *([f"--window-size={size}", "--virtual-time-budget=1500"] if size else []),
        "--dump-dom",
        url or page.resolve().as_uri(),
    ]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        no_browser(f"the browser did not run: {e}")
        return ""
    if r.returncode != 0 or not r.stdout.strip():
        no_browser(f"the browser gave no DOM (exit {r.returncode}): {r.stderr[-500:]}")
    return r.stdout
