"""`play --serve`: the one read-only page (pulyacalc.cli.serve) — asked for over HTTP on
127.0.0.1 as a phone would, and opened in the headless browser."""

from __future__ import annotations

import shutil
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from pulyacalc.cli.serve import Watch, page, parse_address
from tests.browser import dom

EXAMPLE = Path(__file__).parent.parent / "examples" / "classic-3p.txt"


@pytest.fixture
def watch() -> Iterator[Watch]:
    w = Watch(*parse_address("0"))
    yield w
    w.close()


def get(url: str, method: str = "GET") -> tuple[int, str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, ""


@pytest.mark.parametrize(
    ("text", "address"),
    [("8765", ("127.0.0.1", 8765)), ("0.0.0.0:80", ("0.0.0.0", 80)), ("[::1]:0", ("::1", 0))],
)
def test_address_read(text: str, address: tuple[str, int]) -> None:
    assert parse_address(text) == address


@pytest.mark.parametrize("text", ["", "x", ":80", "host:", "70000", "1.2.3.4:-1"])
def test_bad_address_said(text: str) -> None:
    with pytest.raises(ValueError, match="HOST:PORT"):
        parse_address(text)


def test_bound_to_this_machine_only(watch: Watch) -> None:
    assert watch._server.server_address[0] == "127.0.0.1"
    assert watch.url.startswith("http://127.0.0.1:") and watch.url.endswith("/")


def test_port_taken_said(watch: Watch) -> None:
    host, port = watch._server.server_address[:2]
    with pytest.raises(ValueError, match=f"cannot serve on 127.0.0.1:{port}"):
        Watch(host, port)


def test_the_page_and_nothing_else(watch: Watch) -> None:
    status, waiting = get(watch.url)
    assert status == 200 and 'http-equiv="refresh"' in waiting
    watch.publish("<p>deal 1</p>")
    assert get(watch.url) == (200, "<p>deal 1</p>")
    watch.publish("<p>deal 2</p>")  # a second publish is what the next reload sees
    assert get(watch.url) == (200, "<p>deal 2</p>")
    assert get(watch.url + "?again") == (200, "<p>deal 2</p>")
    assert get(watch.url, "HEAD") == (200, "")
    for path in ("x", "index.html", "../pyproject.toml", "favicon.ico"):
        assert get(watch.url + path)[0] == 404
    assert get(watch.url, "POST")[0] == 501


def test_page_is_the_drawn_sheet_and_the_last_deals(tmp_path: Path) -> None:
    log = tmp_path / "evening.txt"
    shutil.copy(EXAMPLE, log)
    html = page(log, lang="en", last=2)
    assert html.count("<svg ") == 1 and 'http-equiv="refresh"' in html
    assert "The last 2 deals" in html and "Deal 10 " in html and "Deal 8 " not in html
    ru = page(log, lang="ru", last=2)
    assert "Последние 2 сдачи" in ru and "The last" not in ru


def test_phone_sees_the_names(tmp_path: Path, watch: Watch) -> None:
    log = tmp_path / "evening.txt"
    shutil.copy(EXAMPLE, log)
    watch.publish(page(log, lang="en"))
    shown = dom(tmp_path / "page.html", watch.url)
    assert "<svg" in shown
    for name in ("Anna", "Boris", "Vera"):
        assert f">{name}<" in shown
