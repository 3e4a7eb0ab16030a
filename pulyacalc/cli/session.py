"""`play`'s session at the table: each line checked as `score` checks the log with it appended,
written and synced before anything is shown.  The log is the only state: every answer is read
from it again (docs/commands.md, "play")."""

from __future__ import annotations

import os
import stat
import sys
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

from pulyacalc.cli.console import fit
from pulyacalc.convention.load import builtin_names
from pulyacalc.core.amounts import Amount
from pulyacalc.core.errors import Loc, Problem, Problems, ReadError
from pulyacalc.core.i18n import M_, N_, _, current
from pulyacalc.core.kinds import Area
from pulyacalc.core.model import Contract, Correction, Suit
from pulyacalc.core.seating import Seats
from pulyacalc.logs.words import LOG_LANGUAGES, Words
from pulyacalc.play import Playing, load_convention
from pulyacalc.render.view import sheet_head, sheet_row, signed
from pulyacalc.scoring.fold import Step

#: a session command (either language) → what it does; any other line is a line of the log
COMMANDS = {
    **dict.fromkeys(("undo", "отмена"), "undo"),
    **dict.fromkeys(("fix", "исправить"), "fix"),
    **dict.fromkeys(("sheet", "лист"), "sheet"),
    **dict.fromkeys(("explain", "объясни"), "explain"),
    **dict.fromkeys(("ledger", "счёт", "счет"), "ledger"),
    **dict.fromkeys(("end", "конец"), "end"),
    **dict.fromkeys(("help", "помощь", "?"), "help"),
}
HELP = N_(
    "Type a deal as in the log (Anna 6♠ 7, Boris whist 2, Vera pass 1), or join NAME, leave NAME,\n"
    "a correction line, or one of: undo (take back the last line, kept as a comment), fix N (deal N\n"
    "re-entered as correction lines, with a reason), sheet, explain N, ledger, end, help.\n"
    "Ctrl-D leaves: the log keeps every line, and `pulyacalc play LOG` continues."
)


class Lock:
    """``LOG.lock`` next to the log, holding the session's process id: a second session on
    the log is refused while that process lives; a killed one's lock is taken over."""

    def __init__(self, log: Path) -> None:
        self.path = log.with_name(log.name + ".lock")
        for _tries in range(3):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                pid = _pid(self.path)
                if pid is not None and _alive(pid):
                    message = _("{log} is open in another play session (process {pid}); end that one first")
                    raise Refused(message.format(log=log, pid=pid)) from None
                self.path.unlink(missing_ok=True)  # stale: its process was killed
                continue
            os.write(fd, f"{os.getpid()}\n".encode())
            os.close(fd)
            return
        raise Refused(_("{lock}: cannot take the lock").format(lock=self.path))

    def release(self) -> None:
        if _pid(self.path) == os.getpid():
            self.path.unlink(missing_ok=True)


class Refused(Exception):
    """The session cannot go on: the message for the person, exit 1."""


def _pid(path: Path) -> int | None:
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() and int(text) > 0 else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


class Scored(NamedTuple):
    """The log's text played: its steps, the playing (None: its header cannot be played), and its problems."""

    text: str
    steps: list[Step]
    playing: Playing | None
    problems: Problems


def scored(name: str, text: str) -> Scored:
    """``text`` read and played as `score` reads and plays a line log."""
    from pulyacalc.logs.read import read_text

    problems = Problems()
    log = read_text(text, name, "lines", problems)
    conv = load_convention(log, problems)
    if conv is None or not log.header_ok:
        deque(log.deals, maxlen=0)  # every line read for its own problems
        return Scored(text, [], None, problems)
    playing = Playing(log, conv, problems)
    return Scored(text, list(playing.steps()), playing, problems)


def durable(path: Path, text: str, *, append: bool = True) -> None:
    """``text`` appended to the file (or the file replaced by it, whole or not at all), on
    the disk before this returns."""
    target = path if append else path.with_name(path.name + ".tmp")
    with open(target, "a" if append else "w", encoding="utf-8", newline="") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    if not append:
        os.replace(target, path)
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def show_problems(problems: list[Problem], message: str = "") -> None:
    for problem in problems:
        print(fit(problem.format(), sys.stderr), file=sys.stderr, flush=True)
    if message:
        print(f"pulyacalc: {message}", file=sys.stderr, flush=True)


class Table:
    """The log as it stands, read again when changed on disk, written only checked and
    synced; ``ask(prompt, default)`` reads a line (EOFError: the session ends), ``watch``
    is told after every change."""

    def __init__(self, log: Path, ask: Callable[[str, str], str], price: str | None) -> None:
        self.log, self.ask, self.price = log, ask, price
        self.watch: Callable[[], None] | None = None
        self.words: Words = LOG_LANGUAGES["ru" if current() == "ru" else "en"]
        self.refused = 0
        self.now = self._read()
        self.seen = self._stat()

    def _stat(self) -> tuple[int, int]:
        st = os.stat(self.log)
        return st.st_size, st.st_mtime_ns

    def _read(self) -> Scored:
        """The log read as every reader reads it (a problem located at it), refused when it
        is not a regular file of lines: the log ``play`` appends to."""
        from pulyacalc.logs.read import detect_format, open_input, refused, undecodable, unreadable

        name = str(self.log)
        stream, _name = open_input(name, newline="")  # kept as written: undo rewrites it
        with stream:
            try:
                text = stream.read()
            except UnicodeError as e:
                raise ReadError([undecodable(name, name, e)]) from None
            except OSError as e:
                raise unreadable(name, e) from None
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                raise refused(Loc(name), M_("not a regular file: play appends each deal to its log"))
        if detect_format(name, text[:4096]) == "yaml":
            new = self.log.stem + ".txt"
            hint = M_("convert it first: pulyacalc convert {log} --to lines -o {new}", log=name, new=new)
            raise refused(Loc(name), M_("play writes line logs, not YAML"), hint)
        now = scored(name, text)
        if now.problems.items:
            show_problems(now.problems.items)
            message = _("{log} does not read clean; `pulyacalc check` it, then play again")
            raise Refused(message.format(log=self.log))
        return now

    def fresh(self) -> None:
        """The log read again when another program changed it on disk."""
        if self._stat() != self.seen:
            print(_("{log} changed on disk: read again").format(log=self.log), flush=True)
            self.now, self.seen = self._read(), self._stat()

    def _write(self, text: str, *, append: bool = True, played: Scored | None = None) -> list[Step]:
        """Write ``text`` (checked; ``played``: the log with it appended, as :meth:`_tried`
        played it, so it is not played twice); the new state, and the steps it added."""
        old = len(self.now.steps)
        durable(self.log, text, append=append)
        self.now = played or scored(str(self.log), self.now.text + text if append else text)
        self.seen = self._stat()
        if self.watch is not None:
            self.watch()
        return self.now.steps[old:]

    def _tried(self, lines: list[str]) -> tuple[str, list[Problem], Scored]:
        """The text to append for ``lines``, the problems `score` finds at them, and the log
        with them played."""
        text = self.now.text
        text = ("" if not text or text.endswith(("\n", "\r")) else "\n") + "".join(f"{x}\n" for x in lines)
        first = self.now.text.count("\n") + (1 if text.startswith("\n") else 0) + 1
        tried = scored(str(self.log), self.now.text + text)
        return text, [p for p in tried.problems.items if p.loc.line >= first], tried

    def prompt(self) -> str:
        p = self.now.playing
        assert p is not None
        s = p.scorer
        parts = [_("deal {n}").format(n=s.count + 1), _("{dealer} deals").format(dealer=s.dealer)]
        out = Seats(s.players, s.dealer, p.conv.five_second_out, s.dummy_hand).sitters
        if out:
            parts.append(_("{names} out").format(names=", ".join(out)))
        if s.raspasy_run:
            level = p.conv.exit_level(s.raspasy_run)
            parts.append(_("raspasy ×{run}, from {level}").format(run=s.raspasy_run, level=level))
        return " · ".join(parts) + "> "

    def completions(self) -> list[str]:
        """Player names, contracts, calls and commands in the session's words."""
        w = self.words
        players = list(self.now.playing.scorer.players) if self.now.playing is not None else []
        contracts = [w.contract(Contract(level, suit)) for level in range(6, 11) for suit in Suit]
        ru = w is LOG_LANGUAGES["ru"]
        commands = [c for c in COMMANDS if c.isascii() != ru and c != "?"]
        calls = [*w.calls.values(), w.misere, w.raspasy, w.talon, w.dark, w.correction]
        seats = ["входит", "выходит"] if ru else ["join", "leave"]
        return [*players, *contracts, *calls, *commands, *seats]


class Session(Table):
    """One evening at the table over a line log: its lines and commands."""

    def run(self) -> int:
        """The session to its end; its exit status (1: a line was refused, without a terminal)."""
        while True:
            self.fresh()
            try:
                line = self.ask(self.prompt(), "").strip()
            except EOFError:
                break
            if self.one(line):
                break
        return 1 if self.refused and not sys.stdin.isatty() else 0

    def one(self, line: str) -> bool:
        """Do one typed line; True when the evening has ended."""
        self.fresh()  # the line may have been long in typing
        words = line.split()
        players = {p.casefold() for p in self.now.playing.scorer.players} if self.now.playing else set()
        what = COMMANDS.get(words[0].casefold()) if words and words[0].casefold() not in players else None
        if not line or line.startswith("#"):
            return False
        if what is None:
            return self.enter(line)
        if what == "help":
            print(_(HELP))
        elif what == "undo":
            self.undo()
        elif what == "end":
            return self.end(words[1] if len(words) > 1 else None)
        elif what in ("sheet", "ledger"):
            self.command("score" if what == "sheet" else "ledger")
        elif (number := self._number(words)) is not None:  # fix N, explain N
            if what == "fix":
                return self.fix(number)
            self.command("explain", "--deal", str(number))
        return False

    def _number(self, words: list[str]) -> int | None:
        deals = self.now.playing.scorer.count if self.now.playing else 0
        if len(words) == 2 and words[1].isdigit() and 1 <= int(words[1]) <= deals:
            return int(words[1])
        message = _("{what} N: N is a deal's number, from 1 to {deals}")
        self._refuse(message.format(what=words[0], deals=deals))
        return None

    def _refuse(self, message: str = "", problems: list[Problem] | None = None) -> None:
        """A line or command refused: its problems shown, then ``message``."""
        self.refused += 1
        show_problems(problems or [], message)

    def enter(self, line: str) -> bool:
        """A line of the log: written when it checks clean; otherwise its problems shown and
        the line offered again to fix (at a terminal)."""
        while True:
            text, problems, played = self._tried([line])
            if not problems:
                return self.after(self._write(text, played=played))
            self._refuse(problems=problems)
            try:
                line = self.ask(self.prompt(), line).strip()
            except EOFError:
                return True
            if not line or COMMANDS.get(line.split()[0].casefold()):
                return self.one(line)

    def after(self, steps: list[Step]) -> bool:
        """What the new lines wrote, how each player's result moved, the sheet; the end when
        the pulya is finished."""
        from pulyacalc.render.explain import sentence_shown
        from pulyacalc.render.table import draw
        from pulyacalc.reports.explain import explain_entries
        from pulyacalc.reports.ledger import deal_row

        p = self.now.playing
        assert p is not None
        sheet = p.scorer.sheet.view()
        moved: dict[str, Amount] = dict.fromkeys(sheet.players, 0)
        for step in steps:
            result = step.result()
            for x in explain_entries(result):
                print("  " + sentence_shown(x))
            for who, by in deal_row(result.entries, sheet.players, p.conv).items():
                moved[who] += by
        head = ["", *sheet_head(sheet.players), _("moved")]
        rows = [[who, *sheet_row(sheet, who), signed(moved[who])] for who in sheet.players]
        print(draw(rows, head, ["left"] + ["right"] * (len(head) - 1), "plain"), flush=True)
        return p.scorer.finished and self.end(None)

    def undo(self) -> None:
        """The last line of the log kept as a comment: nothing deleted."""
        if not self.now.steps:
            self._refuse(_("nothing to undo"))
            return
        lines = self.now.text.splitlines(keepends=True)
        at = self.now.steps[-1].line - 1
        taken = lines[at].rstrip("\r\n")
        mark = _("undone")
        lines[at] = f"# {mark}: {lines[at]}"
        self._write("".join(lines), append=False)
        print(_("taken back: {line}").format(line=taken), flush=True)
        self.after([])

    def fix(self, number: int) -> bool:
        """Deal ``number`` entered again: the difference of what it wrote, as correction lines."""
        step = next(s for s in self.now.steps if s.number == number and s.dealer)
        lines = self.now.text.splitlines()
        was = lines[step.line - 1].split("#", 1)[0].strip()
        try:
            again = self.ask(_("deal {n} as it should be> ").format(n=number), was).strip()
            reason = self.ask(_("the reason> "), "").strip()
        except EOFError:
            return True
        lines[step.line - 1] = again
        tried = scored(str(self.log), "\n".join(lines) + "\n")
        wrong = [p for p in tried.problems.items if p.loc.line == step.line]
        if wrong or not reason:
            self._refuse("" if reason else _("fix: a correction needs a reason"), wrong)
            return False
        now = next(s for s in tried.steps if s.number == number and s.dealer)
        why = _("deal {n} is {line}: {reason}").format(n=number, line=again, reason=reason)
        fixes = list(self._corrections(step, now, why))
        if not fixes:
            print(_("deal {n} writes the same as entered: nothing to correct").format(n=number))
            return False
        return self.enter_all(fixes)

    def _corrections(self, was: Step, now: Step, why: str) -> Iterator[str]:
        from pulyacalc.logs.correction import correction_line

        moved: dict[tuple[str, Area, str | None], Amount] = {}
        for sign, step in ((-1, was), (1, now)):
            for e in step.entries():
                key = (e.player, e.area, e.on)
                moved[key] = moved.get(key, 0) + sign * e.amount
        for (player, area, on), amount in moved.items():
            if amount:
                yield correction_line(Correction(player, area, amount, why, on), words=self.words)

    def enter_all(self, lines: list[str]) -> bool:
        text, problems, played = self._tried(lines)
        if problems:
            self._refuse(problems=problems)
            return False
        for line in lines:
            print(line)
        return self.after(self._write(text, played=played))

    def command(self, *args: str) -> None:
        """Another command of the program over the log, as typed (``score``, ``explain``…)."""
        import typer
        from typer._click.exceptions import ClickException

        from pulyacalc.cli.app import build

        more = ["--whist-price", self.price] if self.price and args[0] in ("score", "sheet") else []
        try:
            argv = ["--lang", current(), args[0], str(self.log), *args[1:], *more]
            status = build(args[0])(argv, prog_name="pulyacalc", standalone_mode=False)
        except ClickException as e:
            e.show()
            return
        if status:  # its output could not be written (the log reads clean): the session ends so
            raise typer.Exit(status)
        sys.stdout.flush()

    def end(self, drawing: str | None) -> bool:
        """The settlement (money with --whist-price), the drawing if asked for; the log stays."""
        self.command("score")
        if drawing is None and sys.stdin.isatty():
            try:
                drawing = self.ask(_("draw the sheet? pulya.svg, pulya.html or pulya.png (Enter: no)> "), "")
                drawing = drawing.strip()
            except EOFError:
                drawing = None
        if drawing:
            self.command("sheet", "-o", drawing)
        kept = _("{log} is kept: `pulyacalc play` continues it, `pulyacalc season` reads it")
        print(kept.format(log=self.log))
        return True


def conventions(folder: Path) -> list[str]:
    """What a new log's convention may be: the built-ins and the house files beside it."""
    return [*builtin_names(), *sorted(p.name for p in folder.glob("*.yaml"))]


def start(log: Path, ask: Callable[[str, str], str], words: Words) -> None:
    """A new log: the players, the convention and the pool asked for, the header written."""
    while True:
        players = ask(_("players, 2 to 5, clockwise (the last deals first)> "), "").replace(",", " ").split()
        names = ", ".join(builtin_names())
        conv = ask(_("convention ({names}, or a file; Enter: sochi)> ").format(names=names), "")
        pool = ask(_("pool (Enter: the convention's)> "), "").strip()
        head = [
            f"{words.key('players')}: {' '.join(players)}",
            f"{words.key('convention')}: {conv.strip() or 'sochi'}",
        ]
        head += [f"{words.key('pool')}: {pool}"] if pool else []
        text = "".join(f"{x}\n" for x in head) + "\n"
        problems = scored(str(log), text).problems.items
        if not problems and 2 <= len(players) <= 5:
            break
        show_problems(problems, "" if problems else _("give 2 to 5 players"))
        if not sys.stdin.isatty():
            raise Refused(_("{log}: the header was not written").format(log=log))
    fd = os.open(log, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)  # never over a log made meanwhile
    os.close(fd)
    durable(log, text)


def reader(words: list[str] | Callable[[], list[str]]) -> Callable[[str, str], str]:
    """How a line is read: prompt_toolkit's editor with completion at a terminal (the `play`
    extra), else a plain line (standard input without a terminal: no prompt shown)."""
    if not sys.stdin.isatty():

        def plain(prompt: str, default: str) -> str:
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            return line.rstrip("\r\n")

        return plain
    try:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import WordCompleter
    except ImportError:
        print(_("(line editing and completion: pip install 'pulyacalc[play]')"), flush=True)
        return lambda prompt, default: input(prompt)
    # Tab completes (a menu while typing would take the keys meant for the line)
    completer = WordCompleter(words, ignore_case=True, WORD=True)
    editor: PromptSession[str] = PromptSession(completer=completer, complete_while_typing=False)

    def edited(prompt: str, default: str) -> str:
        while True:
            try:
                return editor.prompt(prompt, default=default)
            except KeyboardInterrupt:  # Ctrl-C: the line dropped, the log as it was
                default = ""

    return edited
