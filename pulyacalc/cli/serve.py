"""`play --serve [HOST:]PORT`: one read-only page for the table to watch on their phones — the
drawn sheet and the last deals, reloading itself. Nothing else is served: no files, no other
path (404), no method but GET and HEAD. The server runs in a daemon thread of `play`."""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from pulyacalc.core import i18n
from pulyacalc.core.i18n import _

#: the page reloads itself every so many seconds (a deal takes a minute or more to play)
REFRESH = 5
#: what is served before the first page is published: an empty page that asks again soon
WAITING = f'<!DOCTYPE html>\n<meta http-equiv="refresh" content="{REFRESH}">\n<title>pulyacalc</title>\n'


def parse_address(text: str) -> tuple[str, int]:
    """``[HOST:]PORT`` as (host, port): host 127.0.0.1 unless given, port 0 any free one;
    ``[::1]:8765`` for an IPv6 host. ValueError with a message a person reads."""
    host, colon, port = text.strip().rpartition(":")
    host = host.removeprefix("[").removesuffix("]") if colon else "127.0.0.1"
    if not port.isdigit() or not host or int(port) > 65535:
        message = _("{address}: give PORT or HOST:PORT, a port from 0 to 65535 (e.g. 8765 or 0.0.0.0:8765)")
        raise ValueError(message.format(address=text))
    return host, int(port)


class Watch:
    """The page served at ``url`` from now until :meth:`close`; :meth:`publish` replaces it."""

    def __init__(self, host: str, port: int) -> None:
        # replaced whole by publish (one reference stored: a request gets the old page or the new)
        self._page = WAITING.encode()
        watch = self

        class Server(ThreadingHTTPServer):
            address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
            daemon_threads = True

        class Handler(_Handler):
            def body(self) -> bytes:
                return watch._page

        try:
            self._server = Server((host, port), Handler)
        except OSError as e:  # the port taken, the host not this machine's
            message = _("cannot serve on {host}:{port}: {reason}")
            raise ValueError(message.format(host=host, port=port, reason=e.strerror)) from None
        bound = self._server.server_address[1]
        self.url = f"http://[{host}]:{bound}/" if ":" in host else f"http://{host}:{bound}/"
        serving = self._server.serve_forever
        self._thread = threading.Thread(target=serving, name="pulyacalc-serve", daemon=True)
        self._thread.start()

    def publish(self, page: str) -> None:
        """The HTML every ``GET /`` returns from now on."""
        self._page = page.encode()

    def close(self) -> None:
        """Stop serving and free the port."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


class _Handler(BaseHTTPRequestHandler):
    """``/`` answers the page, anything else 404; other methods are refused by the base class (501)."""

    def body(self) -> bytes:
        raise NotImplementedError

    def do_GET(self) -> None:  # noqa: N802  (http.server's names)
        self._answer(head=False)

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer(head=True)

    def _answer(self, head: bool) -> None:
        if self.path.split("?", 1)[0] != "/":
            self.send_error(404)
            return
        body = self.body()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        # the page is self-contained: nothing for a browser to load or run
        self.send_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        """Nothing printed: the terminal is the table's prompt."""


def page(log: Path, *, lang: str, last: int = 5) -> str:
    """The page for the table: the drawn sheet of ``log`` as it stands (the same drawing as
    ``sheet -o x.html``), the score and the last ``last`` deals in explain's words, in ``lang``."""
    from pulyacalc.cli.commands.sheet import drawn

    before = i18n.current()
    i18n.use(lang)
    try:
        html = drawn(str(log), {}, None, html=True, last=last, refresh=REFRESH)[1]
    finally:
        i18n.use(before)
    assert html is not None
    return html
