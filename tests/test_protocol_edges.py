"""The engine process at its edges: closed or failing standard streams, a client that goes
away mid-search, files that are no files, and the corner cases of the protocol's framing.

Most tests drive the real process with closed, full (/dev/full) or abandoned streams; the
core's failures are staged in process, where a fake core can answer what the real one never
does.  No test asserts a duration: the timeouts only keep a hung engine from hanging the suite.
"""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest
from conftest import REPO, EngineClient, transcript

from engine import core
from engine.protocol.server import Server

needs_core = pytest.mark.skipif(not core.AVAILABLE, reason="the compiled core is unavailable")
HANG = 120  # seconds: only a hung engine takes this long
ENGINE = "import os, sys; os.execv(sys.executable, [sys.executable, '-m', 'engine'])"


def run(stdin: bytes, *, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        script: str = ENGINE) -> subprocess.CompletedProcess:
    """The engine (started by the Python `script`, which may close a stream first) on `stdin`."""
    return subprocess.run([sys.executable, "-c", script], input=stdin, cwd=str(REPO),
                          stdout=stdout, stderr=stderr, timeout=HANG)


def without_times(out: bytes) -> list:
    return transcript(re.sub(r"\ntime [0-9]+\n", "\n", out.decode()))


SEARCHES = b"option depth 3\ngenmove\nundo\nanalyze\noption book on\ngenmove\n"


# --- stdout only for replies; a failing stderr never weakens play ---------------------------------

@needs_core
def test_with_stderr_closed_the_search_progress_goes_nowhere_not_to_stdout():
    done = run(SEARCHES, script="import os; os.close(2); " + ENGINE, stderr=None)
    assert done.returncode == 0
    got = transcript(done.stdout.decode())
    assert len(got) == 6 and all(ok for ok, _, _ in got)
    assert "info" not in done.stdout.decode()


@needs_core
def test_an_unwritable_stderr_changes_no_move_and_no_analysis():
    usual = run(SEARCHES, stderr=subprocess.DEVNULL)
    with open("/dev/full", "w") as full:
        failing = run(SEARCHES, stderr=full)
    assert failing.returncode == 0
    assert without_times(failing.stdout) == without_times(usual.stdout)
    analysis = transcript(failing.stdout.decode())[3][2]
    assert "\ndepth 3\n" in analysis and "\nscore " in analysis  # the core's, not the fallback's


def test_stdout_on_a_full_device_ends_the_engine_quietly():
    with open("/dev/full", "w") as full:
        done = run(b"name\noption player python\ngenmove\nname\n", stdout=full)
    assert done.returncode == 0
    assert done.stderr == b""


def test_a_missing_core_is_said_once_on_stderr_at_start():
    done = run(b"version\n", script="import runpy, sys; sys.modules['engine._core'] = None; "
                                     "runpy.run_module('engine', run_name='__main__')")
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and "compiled core is unavailable" in lines[0]
    assert "core=unavailable" in transcript(done.stdout.decode())[0][2]


@needs_core
def test_with_the_core_start_up_says_nothing():
    assert run(b"name\n").stderr == b""


# --- a client that goes away stops the search ---------------------------------------------------

@needs_core
@pytest.mark.parametrize("command", ["analyze 600000", "perft 11", "genmove"])
@pytest.mark.parametrize("closed", ["both", "stdout"])
def test_a_client_that_goes_away_stops_the_search(command, closed):
    proc = subprocess.Popen([sys.executable, "-m", "engine"], cwd=str(REPO), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        proc.stdin.write(b"option info off\noption movetime 600000\n1 name\n"
                         + command.encode() + b"\n")
        proc.stdin.flush()
        while (line := proc.stdout.readline()) != b"=1 Gipfbot\n":  # the engine is serving
            assert line, "the engine ended before serving"
        if closed == "both":
            proc.stdin.close()
        proc.stdout.close()
        assert proc.wait(timeout=HANG) == 0  # rather than searching for ten minutes
        assert b"Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except BrokenPipeError:
                pass


@needs_core
def test_end_of_input_alone_still_answers_the_search_in_full():
    done = run(b"option info off\noption nodes 200000\nanalyze\n")
    (_, _, _), (_, _, _), (ok, _, text) = transcript(done.stdout.decode())
    nodes = int(text.split("\nnodes ")[1].split("\n")[0])
    assert ok and nodes >= 200000  # not stopped: only a client gone altogether stops it


# --- weights load and loadrecord read regular files only, whole ---------------------------------

@needs_core
def test_weights_load_refuses_a_fifo_stdin_and_a_file_over_the_limit(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    big = tmp_path / "big.txt"
    with open(big, "w") as f:  # a legal value straddling the old 1 MiB cut, then another
        f.write("# padding\n" * ((1 << 20) // 10 - 1) + "#######dvonn.cut_now 1234\ndvonn.tempo 7\n")
    client = EngineClient()
    try:
        listing = client.ok("weights")
        assert client.error(f"weights load {fifo}") == f"cannot read {fifo}: not a regular file"
        assert client.error("weights load /dev/stdin") == \
            "cannot read /dev/stdin: not a regular file"
        assert client.ok("name") == "Gipfbot"  # the next line is a command, not a weight
        assert client.error(f"weights load {big}") == \
            f"cannot read {big}: larger than {1 << 20} bytes"
        assert client.ok("weights") == listing  # nothing applied
        small = tmp_path / "small.txt"
        small.write_text("\ufeffdvonn.tempo 7\n")
        assert client.ok(f"weights load {small}") == "1"
        client.ok("weights reset")
    finally:
        client.close()


def test_loadrecord_reads_any_string_of_digits_as_the_move_count(tmp_path):
    client = EngineClient()
    try:
        client.ok("replay D3 E3 F3")
        record = tmp_path / "game.txt"
        record.write_text(client.ok("printrecord") + "\n")
        count = "1" * 25
        assert client.error(f"loadrecord {record} {count}") == \
            f"bad move count '{count}': a whole number"
        assert client.ok(f"loadrecord {record} 2") == "2 moves"
    finally:
        client.close()


# --- framing: interrupts, control characters, a byte order mark, ASCII points ---------------------

@needs_core
def test_an_interrupt_stops_only_the_command_read_just_before_it():
    # analyze runs (to its node limit) while perft 11 and the interrupt are read ahead of it:
    # the interrupt is the perft's, the analysis is left alone.
    done = run(b"option info off\noption nodes 1000000\nanalyze\nperft 11\n# interrupt\nname\n")
    got = transcript(done.stdout.decode())
    analysis, perft, name = got[2:]
    assert analysis[0] and int(analysis[2].split("\nnodes ")[1].split("\n")[0]) >= 1000000
    assert perft == (False, "", "perft interrupted")
    assert name == (True, "", "Gipfbot")


@needs_core
def test_two_interrupts_in_one_write_each_stop_their_own_command():
    # Both interrupts are read ahead of the first perft: the second (aimed at `3 name`) must not
    # replace the first, or perft 11 would run without end.
    done = run(b"1 perft 5\n2 perft 11\n# interrupt\n3 name\n# interrupt\n9 name\n")
    got = transcript(done.stdout.decode())
    assert [(ok, cid) for ok, cid, _ in got] == [(True, "1"), (False, "2"), (True, "3"), (True, "9")]
    assert got[1][2] == "perft interrupted"
    assert got[2][2] == got[3][2] == "Gipfbot"


@needs_core
def test_many_interrupts_in_one_write_are_all_kept():
    # Long perfts each followed by its interrupt, a few with two, between commands that are
    # interrupted too (which changes nothing for them): all arrive in one write.
    lines = [b"1 perft 5"]
    for n in range(2, 62):
        lines.append(b"%d perft 11\n# interrupt" % n if n % 3 else b"%d name\n# interrupt" % n)
        if n % 7 == 0:
            lines.append(b"# interrupt")
    lines.append(b"99 name\n")
    got = transcript(run(b"\n".join(lines)).stdout.decode())
    assert [cid for _, cid, _ in got] == ["1"] + [str(n) for n in range(2, 62)] + ["99"]
    for ok, cid, text in got[1:-1]:
        assert (ok, text) == ((True, "Gipfbot") if int(cid) % 3 == 0 else (False, "perft interrupted"))
    assert got[-1] == (True, "99", "Gipfbot")


@pytest.mark.parametrize("junk", [b"\x01" * 10_000_000, b"\x00" * 20_000_000, b"\r\x7f\x1b" * 100_000],
                         ids=["10MB-SOH", "20MB-NUL", "mixed"])
def test_a_long_line_of_control_characters_is_a_blank_line(junk):
    done = run(junk + b"\n1 name\n" + junk[:60000] + b"name\n")
    assert transcript(done.stdout.decode()) == [(True, "1", "Gipfbot"), (True, "", "Gipfbot")]


def test_a_byte_order_mark_before_the_first_command_is_ignored():
    assert transcript(run(b"\xef\xbb\xbf1 name\n2 name\n").stdout.decode()) == \
        [(True, "1", "Gipfbot"), (True, "2", "Gipfbot")]
    assert transcript(run(b"\xef\xbb\xbf\n3 name\n").stdout.decode()) == [(True, "3", "Gipfbot")]
    # only there: further on it is a character like any other
    later = transcript(run(b"name\n\xef\xbb\xbfname\n").stdout.decode())
    assert later[1] == (False, "", "unknown command: \ufeffname")


@pytest.mark.parametrize("line", ["place \u01313", "play w \u01313", "move \u01313", "replay D3 \u01313",
                                  "place \uff24\uff13"])
def test_points_are_ascii_letters_only(line):
    client = EngineClient()
    try:
        before = client.ok("position")
        assert "moves are written in ASCII" in client.error(line)
        assert client.ok("position") == before
        assert client.ok("place I3") == "I3"
    finally:
        client.close()


# --- the core's failures: every exception and every malformed answer falls back ----------------

class FakeResult:
    def __init__(self, moves, pv):
        self.moves, self.pv, self.lines = moves, pv, []
        self.score, self.depth, self.seldepth, self.nodes, self.time_ms = 5, 3, 3, 100, 1.0


def serve(lines: str) -> str:
    out = io.StringIO()
    Server().serve(io.BytesIO(lines.encode()), out)
    return out.getvalue()


@pytest.fixture
def failing_core(monkeypatch):
    """Make the core answer `answer` (a FakeResult) or raise it (an exception)."""
    def install(answer):
        def fake_search(*args, **kwargs):
            if isinstance(answer, BaseException):
                raise answer
            return answer
        monkeypatch.setattr(core, "AVAILABLE", True)
        monkeypatch.setattr(core, "prepare", lambda *a: None)
        monkeypatch.setattr(core, "search", fake_search)
    return install


BAD_PV = 99 << 12  # a move kind no game has: decoding it raises IndexError


@pytest.mark.parametrize("answer", [
    FakeResult([("place", -1, 20)], [BAD_PV]),    # a legal move, a principal variation that is not
    FakeResult([("place", -1, 20)], ["E3"]),      # a PV of the wrong type
    RuntimeError("a bug in the bindings"),        # not a CoreError
    MemoryError(),
])
def test_any_core_failure_plays_the_python_players_move(failing_core, caplog, answer):
    failing_core(answer)
    with caplog.at_level("ERROR"):
        out = serve("option info off\ngenmove\nstatus\n")
    (_, _, _), (ok, _, move), (_, _, status) = transcript(out)
    assert ok and re.fullmatch(r"[A-K][1-5]", move) and "ply=1" in status
    assert "the core failed" in caplog.text


def test_analyze_live_reports_a_core_failure_and_still_answers_bestmove(failing_core):
    failing_core(FakeResult([("place", -1, 20)], [BAD_PV]))
    out = serve("option info off\nanalyze live\n")
    live = out.split("\n\n")[1].split("\n")
    assert live[0] == "="
    assert live[1].startswith("info string the core failed")
    assert re.fullmatch(r"bestmove [A-K][1-5]", live[2])


def test_an_error_inside_a_streamed_reply_ends_it_with_an_error_line(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")
    monkeypatch.setattr(Server, "think", broken)
    out = serve("1 analyze live\n2 name\n")
    assert out == "=1\nerror internal error: RuntimeError\n\n=2 Gipfbot\n\n"


class Unwritable(io.StringIO):
    def write(self, text):
        raise OSError(28, "No space left on device")


@pytest.mark.parametrize("stderr", [None, Unwritable()])
def test_a_progress_report_that_cannot_be_written_is_dropped_and_the_core_move_stands(
        monkeypatch, stderr):
    answer = FakeResult([("place", -1, 20)], [])

    def reporting_search(*args, on_iteration=None, **kwargs):
        on_iteration(answer)  # the real core turns an exception here into a CoreError
        return answer
    monkeypatch.setattr(core, "AVAILABLE", True)
    monkeypatch.setattr(core, "search", reporting_search)
    monkeypatch.setattr(sys, "stderr", stderr)
    thought = Server().think()
    assert thought.source == "core" and thought.warning is None
