"""Hostile input: whatever arrives on stdin, every command gets exactly one reply.

Two levels:
* through the real process (one engine per test, shared by all of hypothesis'
  examples, because start-up costs): batches of random bytes, huge numbers,
  unicode, NULs, lone CRs, very long tokens and real commands with garbage
  arguments; every non-blank line gets exactly one well-formed reply carrying
  its id; the engine still answers afterwards; a batch of errors leaves
  `position` and `status` alone;
* in process, `Server.handle` directly (fast): it never raises and an error
  reply never changes the game.

Each server bug the fuzz found stays as a plain regression test at the end of
this file (FIXED_SERVER_BUGS).
"""
from __future__ import annotations

import io
import re
import subprocess
import sys
import tempfile
import threading
from typing import Optional

import pytest
from conftest import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.protocol import gtp
from engine.protocol.gtp import MAX_LINE_BYTES

try:
    from engine.protocol.server import COMMANDS, Quit, Server
except ImportError:  # pragma: no cover - the server is being reworked
    COMMANDS, Quit, Server = {}, Exception, None

ENGINE_TIMEOUT = 120  # seconds for a whole test's engine before it is killed

# --- an oracle written from the GTP 2 spec -------------------------------------------------------


_SPEC_CONTROLS = bytes(range(0, 9)) + bytes(range(10, 32)) + b"\x7f"  # all but HT


def spec_clean(line: bytes) -> bytes:
    kept = line.translate(None, _SPEC_CONTROLS)
    return kept.replace(b"\t", b" ").split(b"#")[0].strip(b" ")


def spec_blank(line: bytes) -> bool:
    return spec_clean(line) == b""


def spec_id(line: bytes) -> Optional[str]:
    """The id the reply must carry: '' for none, None when the spec leaves it open."""
    clean = spec_clean(line)
    m = re.match(rb"([0-9]+)( |$)", clean)
    if m:
        return m.group(1).decode()
    return None if clean[:1].isdigit() else ""


def spec_words(line: bytes) -> list[str]:
    words = spec_clean(line).decode("utf-8", "replace").split()
    if words and words[0].isascii() and words[0].isdigit():
        words = words[1:]
    return words


def is_quit(line: bytes) -> bool:
    """Only a bare `quit` ends the engine (with arguments it is an error, protocol.md 2.1)."""
    return spec_words(line) == ["quit"]


# --- strategies -----------------------------------------------------------------------------------

no_lf = st.binary(max_size=120).map(lambda b: b.replace(b"\n", b"\r"))
COMMAND_NAMES = sorted(COMMANDS) or ["name", "play", "undo", "replay", "newgame"]
POINTS = ["A1", "B1", "C2", "D3", "E3", "F3", "G4", "H5", "I5", "K5", "E6", "E9", "I2", "E5", "Z9", "A0"]
MOVE_TOKENS = st.one_of(
    st.sampled_from(POINTS + ["pass", "PASS", "-", "x", "A1-", "-A1", "x9", "A1xA1"]),
    st.builds(lambda a, sep, b: f"{a}{sep}{b}", st.sampled_from(POINTS),
              st.sampled_from(["-", "x", "X", "+", ":", "--", "xx", ""]), st.sampled_from(POINTS)),
)
huge = st.one_of(st.integers(min_value=10 ** 16, max_value=10 ** 400),
                 st.integers(max_value=-1)).map(str)
unicode_token = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"),
                        min_size=1, max_size=12)
garbage_token = st.one_of(
    unicode_token, huge, MOVE_TOKENS,
    st.sampled_from(["", "\x00", "\r", "\x00\x00", "\u2603", "\u202e", "\ufeff", "\u00a0", "\t",
                     "white", "green", "random", "fixed", "dvonn", "tzaar", "1.5", "1e99", "0x10",
                     "-0", "+3", "NaN", "inf", ",", ";", "#", "'", '"', "\\", "%s", "{}", "..", "/"]),
    st.integers(min_value=1, max_value=3).map(lambda n: "x" * (n * 30000)),
)
command_with_garbage = st.builds(
    lambda cid, name, args: ((cid + " ") if cid else "") + name + " " + " ".join(args),
    st.one_of(st.just(""), st.integers(0, 10 ** 30).map(str)),
    st.sampled_from(COMMAND_NAMES),
    st.lists(garbage_token, min_size=1, max_size=4),
).map(lambda s: s.encode("utf-8"))
random_bytes = st.one_of(
    no_lf,
    st.binary(min_size=1, max_size=8).map(lambda b: b.replace(b"\n", b"") * 50),
    st.builds(lambda a, b: a + b"\x00" + b, no_lf, no_lf),
    st.builds(lambda a, b: a + b"\r" + b, no_lf, no_lf),
    st.sampled_from([b"\r", b"\r\r\r", b"\x00", b"\x00" * 100, b"\xff", b"\xc3", b"\xed\xa0\x80",
                     b"\xef\xbb\xbfname", b"name\x00\r", b"\x1b[2J", b"#", b"12", b"12 # c"]),
)
unicode_line = unicode_token.map(lambda s: s.replace("\n", " ").encode("utf-8"))
long_line = st.builds(
    lambda lead, cid, word, n, pad: lead + (cid.encode() + b" " if cid else b"") + word + pad * n,
    st.sampled_from([b"", b"  ", b"\t\r", b"\x00" * 40]),
    st.one_of(st.just(""), st.integers(0, 99999).map(str)),
    st.sampled_from([b"name ", b"", b"# ", b"version#", b"\xff"]),
    st.sampled_from([10, MAX_LINE_BYTES - 20, MAX_LINE_BYTES + 1, 3 * MAX_LINE_BYTES]),
    st.sampled_from([b"y", b" ", b"\x00", b"#", b"\xff", b"\t", b"\r", b" \t\x7f"]),
)
# digits that are not ASCII: '٣ name' has no id (an id echoed as '=٣' is not GTP)
unicode_digit_line = st.builds(
    lambda digits, rest: f"{digits} {rest}".encode(),
    st.text(st.characters(whitelist_categories=("Nd", "No")), min_size=1, max_size=3),
    st.sampled_from(["name", "version", "play w D3", "undo", ""]),
)
huge_number_line = st.builds(
    lambda n, fmt: fmt.format(n).encode(), huge,
    st.sampled_from(["{} name", "undo {}", "newgame tzaar random {}", "play w {}", "replay {}",
                     "perft {}", "option seed {}", "time_left w {} 0", "analyze {}", "{}"]),
)


def fuzz_line(*parts):
    return st.one_of(*parts).filter(lambda line: not is_quit(line))


hostile_line = fuzz_line(random_bytes, unicode_line, unicode_digit_line, command_with_garbage, long_line,
                         huge_number_line)


# --- a bytes-level client ------------------------------------------------------------------------

class RawEngine:
    """The real process over plain pipes; bytes in, parsed replies out.

    The batch is written from another thread so that a large batch cannot
    deadlock against a full stdout pipe; a watchdog kills a hung engine.
    """

    def __init__(self) -> None:
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([sys.executable, "-m", "engine"], cwd=str(REPO),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr)
        self.watchdog = threading.Timer(ENGINE_TIMEOUT, self.proc.kill)
        self.watchdog.daemon = True
        self.watchdog.start()
        self.sentinel = 987_654_321_000

    def _write(self, data: bytes) -> None:
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def read_reply(self) -> tuple[bool, str, str]:
        head = self.proc.stdout.readline()
        assert head, "the engine closed stdout (died or was killed by the watchdog)"
        m = re.fullmatch(rb"([=?])([0-9]*)(?: (.*))?\n", head, re.S)
        assert m, f"not a reply: {head[:300]!r}"
        body = []
        while True:
            line = self.proc.stdout.readline()
            assert line, "EOF inside a reply"
            if line == b"\n":
                break
            assert line.endswith(b"\n")
            body.append(line[:-1])
        text = b"\n".join(([m.group(3)] if m.group(3) is not None else []) + body)
        return m.group(1) == b"=", m.group(2).decode(), text.decode("utf-8")

    def batch(self, lines: list[bytes]) -> tuple[list[tuple[bool, str, str]], str, str]:
        """Replies to the lines, then the position and status after them."""
        self.sentinel += 1
        data = b"".join(line + b"\n" for line in lines)
        data += b"%d position\n%d status\n" % (self.sentinel, self.sentinel)
        writer = threading.Thread(target=self._write, args=(data,), daemon=True)
        writer.start()
        replies = []
        while True:
            reply = self.read_reply()
            if reply[1] == str(self.sentinel):
                break
            replies.append(reply)
        position = reply
        status = self.read_reply()
        writer.join(timeout=ENGINE_TIMEOUT)
        assert position[0] and status[0] and status[1] == str(self.sentinel)
        return replies, position[2], status[2]

    def ask(self, line: str) -> tuple[bool, str, str]:
        replies, _, _ = self.batch([line.encode()])
        assert len(replies) == 1
        return replies[0]

    def close(self) -> tuple[int, bytes]:
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        rest = self.proc.stdout.read()
        code = self.proc.wait(timeout=30)
        self.watchdog.cancel()
        self.proc.stdout.close()
        self.stderr.seek(0)
        err = self.stderr.read()
        self.stderr.close()
        assert rest == b"", f"output after the last reply: {rest[:300]!r}"
        return code, err


@pytest.fixture
def raw_engine():
    engine = RawEngine()
    for option in ("option player python", "option info off"):  # quick if a fuzz line ever is a genmove
        engine.ask(option)
    yield engine
    if engine.proc.poll() is None:
        code, err = engine.close()
        assert code == 0
        assert b"Traceback" not in err, err.decode("utf-8", "replace")[-3000:]
    engine.watchdog.cancel()


def check_batch(engine: RawEngine, lines: list[bytes]) -> None:
    _, before_position, before_status = engine.batch([])
    replies, position, status = engine.batch(lines)
    expected = [line for line in lines if not spec_blank(line)]
    assert len(replies) == len(expected), (
        f"{len(expected)} commands but {len(replies)} replies: {[sent[:60] for sent in lines]}")
    for line, (_, cid, text) in zip(expected, replies):
        want = spec_id(line)
        if want is not None:
            assert cid == want, f"{line[:80]!r} answered with id {cid!r}"
        assert "internal error" not in text, f"{line[:120]!r} -> {text!r}"
        assert "Traceback" not in text
    if not any(ok for ok, _, _ in replies):
        assert (position, status) == (before_position, before_status), \
            f"only errors, yet the state moved: {[sent[:60] for sent in lines]}"
    assert engine.ask("name") == (True, "", "Gipfbot")


FUZZ = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.filter_too_much, HealthCheck.data_too_large])


@FUZZ
@given(lines=st.lists(fuzz_line(random_bytes, unicode_line, unicode_digit_line), max_size=25))
def test_random_bytes_and_unicode(raw_engine, lines):
    check_batch(raw_engine, lines)


@FUZZ
@given(lines=st.lists(fuzz_line(command_with_garbage), min_size=1, max_size=25),
       game=st.sampled_from(["newgame dvonn", "newgame tzaar random 9", "replay D3 E3 F3"]))
def test_commands_with_garbage_arguments(raw_engine, lines, game):
    raw_engine.ask(game)
    check_batch(raw_engine, lines)


@settings(FUZZ, max_examples=20)
@given(lines=st.lists(fuzz_line(long_line, huge_number_line), min_size=1, max_size=8))
def test_long_lines_and_huge_numbers(raw_engine, lines):
    raw_engine.ask("newgame tzaar")
    check_batch(raw_engine, lines)


def test_everything_at_once_in_one_write(raw_engine):
    """No hypothesis: one big fixed batch, written in one go, some lines split oddly."""
    lines = [b"1 name", b"", b"\r", b"# x", b"2 play w D3\x00", b"\xff\xfe", b"3 undo 0",
             b"4 newgame tzaar random 99999999999999999999999", b"5" + b"\t" * 10 + b"version",
             b"x" * (MAX_LINE_BYTES + 7), b"6 " + b"z" * (2 * MAX_LINE_BYTES), b"7 replay A1 nonsense",
             b"8 setposition " + b"-," * 5000, b"9 known_command \xe2\x98\x83"] * 5
    check_batch(raw_engine, lines)


# --- in process: Server.handle ------------------------------------------------------------------

SETUPS = [[], ["replay D3 E3 F3 A1"], ["newgame tzaar"], ["newgame tzaar", "replay A5xA4"],
          ["newgame tzaar random 3"], ["setposition tzaar w turn a,A,b,B,c/C,B,-,-,-,-/-,-,-,-,-,-,-/"
                                       "-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-/"
                                       "-,-,-,-,-,-/-,-,-,-,-"]]


def new_server(setup_lines: list[str]):
    server = Server()
    options = getattr(server, "options", None)
    if options is not None and hasattr(options, "player"):
        options.player = "python"
    for line in setup_lines:
        server.handle(gtp.parse_line(line.encode()))  # may fail (A1xA2 need not be legal): fine
    return server


def state(server) -> tuple:
    """The game, the options and the clock: a failed command changes none (protocol.md 2.2)."""
    replies = tuple(server.handle(gtp.parse_line(c)) for c in (b"position", b"status", b"option"))
    return replies + (repr(getattr(server, "clock", None)),)


@pytest.mark.skipif(Server is None, reason="engine.protocol.server does not import")
@settings(max_examples=250, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.data_too_large])
@given(setup=st.sampled_from(SETUPS), lines=st.lists(hostile_line, max_size=20))
def test_handle_never_raises_and_errors_change_nothing(setup, lines):
    server = new_server(setup)
    for raw in lines:
        cmd = gtp.parse_line(raw[:MAX_LINE_BYTES])
        if cmd is None:
            continue
        before = state(server)
        try:
            ok, text = server.handle(cmd)
        except Quit:
            raise AssertionError(f"{raw[:80]!r} is not quit, yet Quit was raised") from None
        assert isinstance(ok, bool) and isinstance(text, str)
        reply = gtp.format_reply(cmd.id, ok, text)
        assert reply.endswith("\n\n") and "\n\n" not in reply[:-2]
        if not ok:
            assert text, f"{raw[:80]!r}: an error needs a message"
            assert state(server) == before, f"{raw[:80]!r} failed ({text}) but changed the game"


# --- regression tests for the server bugs the fuzz found ----------------------------------------

FIXED_SERVER_BUGS = {  # found by this file, fixed since: they stay here as plain regression tests
    "5000-digit-count": (["newgame dvonn", "replay D3"], "undo " + "9" * 5000),
    "5000-digit-seed": (["newgame dvonn"], "newgame tzaar random " + "9" * 5000),
    "5000-digit-option": (["newgame dvonn"], "option seed " + "9" * 5000),
    "unicode-digit-count": (["newgame dvonn", "replay D3"], "undo \u00b2"),
    "unicode-digit-seed": (["newgame dvonn"], "newgame tzaar random \u00b2"),
    "unicode-digit-option": (["newgame dvonn"], "option seed \u00b2"),
    "unicode-digit-time": (["newgame dvonn"], "time_left w \u00b2 0"),
    "unicode-digit-perft": (["newgame dvonn"], "perft \u00b2"),
    "off-board-dvonn-play": (["newgame dvonn"], "play w A5-B5"),
    "off-board-dvonn-move": (["newgame dvonn", "replay D3 E3"], "move K1-K2"),
    "off-board-dvonn-replay": (["newgame dvonn"], "replay D3 E3 F3 A5-B5"),
}


@pytest.mark.skipif(Server is None, reason="engine.protocol.server does not import")
@pytest.mark.parametrize("setup,line", FIXED_SERVER_BUGS.values(), ids=FIXED_SERVER_BUGS.keys())
def test_fixed_server_bug(setup, line):
    check_refused_in_process(setup, line)


def check_refused_in_process(setup, line):
    server = new_server(setup)
    before = state(server)
    ok, text = server.handle(gtp.parse_line(line.encode()))
    assert not ok and text
    assert state(server) == before


@pytest.mark.skipif(Server is None, reason="engine.protocol.server does not import")
def test_a_handler_that_raises_gets_one_error_reply_and_serving_goes_on(monkeypatch):
    def boom(server, args):
        raise RuntimeError("a bug")

    monkeypatch.setitem(COMMANDS, "boom", boom)
    out = io.StringIO()
    new_server([]).serve(io.BytesIO(b"1 boom\n2 name\n"), out)
    assert out.getvalue() == "?1 internal error: RuntimeError\n\n=2 Gipfbot\n\n"


def test_internal_error_is_still_one_reply_and_the_engine_lives_on():
    """Through the process (today via the 5000-digit bug; afterwards plain errors): one reply each."""
    done = subprocess.run([sys.executable, "-m", "engine"], cwd=str(REPO), capture_output=True,
                          timeout=60, input=b"1 undo " + b"9" * 5000 + b"\n2 option seed " + b"8" * 5000
                          + b"\n3 name\n")
    assert done.returncode == 0
    out = done.stdout.decode()
    heads = [line for line in out.split("\n") if line[:1] in ("=", "?")]
    assert [h.split(" ")[0] for h in heads] == ["?1", "?2", "=3"]
    assert out.endswith("=3 Gipfbot\n\n") and "Traceback" not in out


@pytest.mark.parametrize("closed_fd", [0, 1])
def test_started_with_stdin_or_stdout_closed_the_engine_exits_quietly(closed_fd):
    # A launcher may start the engine with a standard stream closed: exit 0, no traceback.
    script = f"import os, sys; os.close({closed_fd}); os.execv(sys.executable, [sys.executable, '-m', 'engine'])"
    done = subprocess.run([sys.executable, "-c", script], cwd=str(REPO), input=b"name\n",
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)
    assert done.returncode == 0
    assert done.stderr == b""
