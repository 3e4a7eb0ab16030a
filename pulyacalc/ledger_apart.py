"""A long log's ledger scored in a second process (issue 11: ``ledger`` of a long log on two
cores).

Scoring a log (``ledger.ledger_run``: the fast path, the rows' running totals and money) and
writing its rows (a view's sink: each row's text from its template and its values) take
about as long as each other, and neither waits for the other: :func:`apart` makes ``play``
run in a child process (``os.fork``), which hands each block of rows to this one through a
pipe as it is scored, while this one writes them.  The rows reach the sink in the same
order, with the same values, as when ``play`` runs here: the ledger is the same, to the
byte (tests/test_ledger_apart.py).

What goes through the pipe is pickled: a row's ``Moved`` (dealer, text, result) once, then
its number; a block's running numerators and cents as lists of whole numbers; at the end the
ledger without its rows (or the error the log raised, raised again here).  The child writes
nothing else anywhere: standard output is this process's alone.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from typing import IO, Any

from pulyacalc.ledger import Ledger, Moved, Sink
from pulyacalc.ledger_totals import Block, Totals

#: a play of the log: hands each row to the sink, gives the ledger (``ledger.ledger_run``)
Play = Callable[[Sink], "Ledger | None"]

#: rows without running totals sent at a time
ROWS = 2048
#: ``Moved`` kept in this process (each sent once): past it, both sides start afresh
KEPT = 50_000


def apart(play: Play, seated: list[tuple[str, ...]] | None = None) -> Play:
    """``play`` run in a child process, its rows handed to the sink here as they come;
    ``seated``: the list ``play`` appends a newcomer's table to (filled here as there)."""

    def played(sink: Sink) -> Ledger | None:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: plays, sends, and ends without a word of its own
            os.close(read)
            _child(play, os.fdopen(write, "wb", buffering=1 << 16), seated)
        os.close(write)
        with os.fdopen(read, "rb", buffering=1 << 16) as pipe:
            try:
                return _Receiver(sink, seated).read(pipe, pid)
            finally:
                _ended(pid)

    return played


def _child(play: Play, pipe: IO[bytes], seated: list[tuple[str, ...]] | None) -> None:
    """Play, each row sent; the ledger or the error last; then exit at once (no handler
    of the parent's runs, no buffer of its is written twice)."""
    status = 0
    try:
        sender = _Sender(pipe)
        try:
            got: tuple[Any, ...] = ("end", play(sender), list(seated or ()))
        except Exception as e:  # the log's problems, or a fault: raised again there
            got = ("error", e) if _picklable(e) else ("fault", _fault())
        sender.flush()
        pickle.dump(got, pipe, protocol=pickle.HIGHEST_PROTOCOL)
        pipe.flush()
    except KeyboardInterrupt:  # (the parent has it too: it says what is said)
        status = INTERRUPTED
    except BaseException:  # the parent gone (a broken pipe)
        status = 1
    finally:
        os._exit(status)


#: the child's status when Ctrl-C stopped it
INTERRUPTED = 130


def _picklable(e: Exception) -> bool:
    try:
        pickle.dumps(e)
    except Exception:
        return False
    return True


def _fault() -> str:
    import traceback

    return traceback.format_exc()


def _ended(pid: int) -> None:
    """The child stopped (it has sent its end, or this process stops early) and reaped."""
    import signal

    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if not done:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    except ChildProcessError:  # (reaped already: ``_Receiver.lost``)
        pass


class _Sender:
    """The sink ``play`` is given in the child: each ``Moved`` sent once (its ``shown``
    holds the number it goes by, from ``low`` on in this round of ``KEPT``), each row by
    that number."""

    def __init__(self, pipe: IO[bytes]) -> None:
        self.pipe = pipe
        self.next = self.low = 0
        self.numbers: list[int] = []
        self.moveds: list[Moved] = []
        self.totals = False

    def _ids(self, moveds: list[Moved]) -> tuple[list[int], list[tuple[int, str, str, dict[str, Any]]]]:
        """The numbers the rows' ``Moved`` go by, and those not sent yet (to send)."""
        if self.next - self.low + len(moveds) > KEPT:  # the other side forgets them all
            self._send(("forget",))
            self.low = self.next
        low, new = self.low, []
        ids: list[Any] = [m.shown for m in moveds]
        for k, shown in enumerate(ids):
            if shown is None or shown < low:
                m = moveds[k]
                if m.shown is None or m.shown < low:  # type: ignore[operator]  # (an int here)
                    m.shown = self.next
                    self.next += 1
                    new.append((m.shown, m.dealer, m.text, m.result))
                ids[k] = m.shown  # (met again in the block: sent once)
        return ids, new

    def __call__(self, number: int, m: Moved, t: Totals | None) -> None:
        # (a row with running totals goes to ``block``: a run tells this sink so)
        assert t is None, "a row with running totals told one at a time"
        self.numbers.append(number)
        self.moveds.append(m)
        if len(self.numbers) >= ROWS:
            self.flush()

    def flush(self) -> None:
        """The rows without totals held, sent."""
        if self.numbers:
            ids, new = self._ids(self.moveds)
            self._send(("rows", self.numbers, ids, new))
            self.numbers, self.moveds = [], []

    def block(self, numbers: list[int], moveds: list[Moved], t: Totals, b: Block) -> None:
        self.flush()
        if not self.totals:
            self._send(("totals", t.players, t.price))
            self.totals = True
        ids, new = self._ids(moveds)
        self._send(("block", numbers, ids, new, b.den, b.nums, b.cents, b.moved))

    def _send(self, message: tuple[Any, ...]) -> None:
        pickle.dump(message, self.pipe, protocol=pickle.HIGHEST_PROTOCOL)


class _Receiver:
    """This process's side: each message read from the pipe and told to ``sink``."""

    def __init__(self, sink: Sink, seated: list[tuple[str, ...]] | None) -> None:
        self.sink, self.seated = sink, seated
        self.blocks = getattr(sink, "block", None)
        self.moved: dict[int, Moved] = {}
        self.totals: Totals | None = None

    def _known(self, ids: list[int], new: list[tuple[int, str, str, dict[str, Any]]]) -> list[Moved]:
        moved = self.moved
        for k, dealer, text, result in new:
            moved[k] = Moved(dealer, text, result)
        return list(map(moved.__getitem__, ids))

    def read(self, pipe: IO[bytes], pid: int) -> Ledger | None:
        sink = self.sink
        while True:
            try:
                message = pickle.load(pipe)  # (each message its own pickle: its own memo)
            except EOFError:
                return self._lost(pid)
            kind = message[0]
            if kind == "block":
                _, numbers, ids, new, den, nums, cents, moved = message
                b = Block(den, nums)
                b.cents, b.moved = cents, moved
                assert self.blocks is not None and self.totals is not None
                self.blocks(numbers, self._known(ids, new), self.totals, b)
            elif kind == "rows":
                _, numbers, ids, new = message
                for number, m in zip(numbers, self._known(ids, new), strict=True):
                    sink(number, m, None)
            elif kind == "totals":
                self.totals = Totals(message[1], None)
                self.totals.price = message[2]
            elif kind == "forget":
                self.moved.clear()
            elif kind == "end":
                if self.seated is not None:
                    self.seated += message[2]
                return message[1]  # type: ignore[no-any-return]
            elif kind == "error":
                raise message[1]
            else:  # "fault": a fault of the program's own, as it would have been raised here
                raise RuntimeError(message[1])

    @staticmethod
    def _lost(pid: int) -> Ledger | None:
        """The child ended without its end: stopped by Ctrl-C (so is this process), or
        killed: this process ends as it did."""
        import signal

        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) != signal.SIGINT:
            signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
            os.kill(os.getpid(), os.WTERMSIG(status))
        if os.WIFSIGNALED(status) or os.WEXITSTATUS(status) == INTERRUPTED:
            raise KeyboardInterrupt
        raise RuntimeError(f"the scoring process ended with status {os.WEXITSTATUS(status)}")
