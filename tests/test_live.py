"""Live analysis, interrupts and signals through the real process (protocol.md 6.5-6.8).

No timed assertions: a test waits for what it needs (an `info` line, a reply) and
then checks what came; how fast a stop is, scripts/bench_live measures.
"""
from __future__ import annotations

import re
import signal

import pexpect
import pytest
from conftest import EngineClient

from engine import core

needs_core = pytest.mark.skipif(not core.AVAILABLE, reason="the compiled core is not built")

INFO = re.compile(r"info multipv (\d+) move (\S+) score (-?\d+) depth (\d+) nodes (\d+) nps (\d+) "
                  r"time (\d+) pv (\S+(?: \S+)*)")


def read_live(engine: EngineClient, seen: str = "") -> tuple[list[str], str]:
    """The rest of a live reply after its `=` line: (info lines, the move of `bestmove`);
    `seen` is what earlier expects of this reply consumed."""
    engine.child.expect(r"((?:[^\n]*\n)*?)bestmove ([^\n]+)\n\n")
    infos, best = engine.child.match.groups()
    return (seen + infos).splitlines(), best


def consumed(engine: EngineClient) -> str:
    return engine.child.before + engine.child.after


def start_live(engine: EngineClient, line: str = "analyze live") -> None:
    engine.send_raw(line + "\n")
    engine.child.expect(r"=\d*\n")


def check_blocks(lines: list[str], want: int) -> None:
    """Every line follows the grammar; each report is multipv 1..want in order."""
    ks = []
    for line in lines:
        m = INFO.fullmatch(line)
        assert m, f"bad info line {line!r}"
        assert m.group(2) == m.group(8).split()[0]  # move = the first action of the pv
        ks.append(int(m.group(1)))
    assert ks and ks == list(range(1, want + 1)) * (len(ks) // want)


@needs_core
def test_live_analysis_runs_until_the_next_line_which_is_then_served(engine):
    engine.ok("option info off")
    engine.ok("replay D3 E3 F3")
    start_live(engine, "7 analyze live 20")
    engine.child.expect(r"info multipv 1 move \S+ score -?\d+ depth [4-9]")  # deep enough
    seen = consumed(engine)
    engine.send_raw("8 position\n")
    infos, best = read_live(engine, seen)
    check_blocks(infos, 1)
    ok, cid, text = engine.read_reply()
    assert (ok, cid) == (True, "8") and text.startswith("dvonn b place ")
    assert best in engine.ok("legal_moves").split("\n")
    assert engine.ok("status").split()[3] == "ply=3"  # nothing was played


@needs_core
def test_live_reply_carries_the_id_and_ends_by_itself_at_the_depth_limit(engine):
    engine.ok("option depth 3")
    engine.send_raw("12 analyze live\n")
    engine.child.expect(r"=12\n")
    infos, best = read_live(engine)
    depths = [int(INFO.fullmatch(line).group(4)) for line in infos]
    assert depths[-1] == 3 and depths == sorted(depths)
    assert engine.ok("name") == "Gipfbot"


@needs_core
def test_live_multipv_gives_every_candidate_in_order_and_tzaar_moves_are_actions(engine):
    engine.ok("newgame tzaar")
    engine.ok("replay A5xA4")
    engine.ok("option multipv 3")
    engine.ok("option depth 3")
    start_live(engine, "analyze live")
    infos, best = read_live(engine)
    check_blocks(infos, 3)
    last = [INFO.fullmatch(line) for line in infos[-3:]]
    scores = [int(m.group(3)) for m in last]
    assert scores == sorted(scores, reverse=True)
    assert len({m.group(2) for m in last}) == 3  # three different first actions
    assert all(re.fullmatch(r"[A-I]\d[x+][A-I]\d", m.group(2)) for m in last)
    assert re.fullmatch(r"[A-I]\d[x+][A-I]\d( [A-I]\d[x+][A-I]\d| pass)?", best)
    assert best in engine.ok("legal_moves").split("\n")


def test_live_errors(engine):
    assert engine.error("analyze live 5") == "bad interval '5': a whole number of ms from 10 to 60000"
    assert engine.error("analyze live x") == "bad interval 'x': a whole number of ms from 10 to 60000"
    assert engine.error("analyze live 100 7").startswith("wrong number of arguments")
    engine.ok("setposition dvonn w move RRRW,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-,-/"
              "-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-")
    assert engine.error("analyze live") == "the game is over"


@needs_core
def test_blank_lines_and_end_of_input_end_live_analysis_too(engine):
    engine.ok("option info off")
    start_live(engine)
    engine.child.expect("info ")
    engine.send_raw("\n")  # a blank line gets no reply but ends the analysis
    read_live(engine)
    assert engine.ok("name") == "Gipfbot"
    start_live(engine)
    engine.child.expect("info ")
    engine.child.sendeof()
    read_live(engine)
    assert engine.close() == 0


@needs_core
@pytest.mark.parametrize("command", ["analyze 100000000", "genmove", "perft 11", "perft 6 python"])
def test_gogui_interrupt_stops_the_command_and_queued_lines_follow(command):
    engine = EngineClient()
    assert "gogui-interrupt" in engine.ok("list_commands").split("\n")
    engine.ok("option info off")
    engine.ok("option movetime 86400000")
    engine.ok("replay D3 E3")
    engine.send_raw(f"5 {command}\n# interrupt\n6 position\n7 quit\n")
    ok, cid, text = engine.read_reply()
    assert cid == "5"
    if command.startswith("perft"):
        assert (ok, text) == (False, "perft interrupted")
    else:
        assert ok and text.split("\n")[0] in engine_legal_after(command)
    ok, cid, text = engine.read_reply()
    assert (ok, cid) == (True, "6")
    assert engine.read_reply()[:2] == (True, "7")
    assert engine.close() == 0


def engine_legal_after(command: str) -> list[str]:
    """The legal moves where the interrupted command searched (after D3 E3, White)."""
    fresh = EngineClient()
    fresh.ok("replay D3 E3")
    moves = fresh.ok("legal_moves").split("\n")
    fresh.close()
    return moves


def test_interrupt_with_nothing_running_is_a_comment(engine):
    engine.send_raw("# interrupt\n1 name\n")
    assert engine.read_reply() == (True, "1", "Gipfbot")


@needs_core
def test_sigint_stops_a_search_which_replies_and_the_engine_serves_on():
    engine = EngineClient()
    engine.ok("option movetime 86400000")  # the search only ends when stopped
    engine.send_raw("3 genmove\n")
    engine.child.expect("info depth [3-9]")  # stderr is merged: progress says it is searching
    engine.child.kill(signal.SIGINT)
    ok, cid, move = engine.read_reply()
    assert ok and cid == "3" and len(move) == 2  # a placement was played
    assert engine.ok("status").split()[3] == "ply=1"
    engine.child.kill(signal.SIGINT)  # idle now: the engine ends, status 0, no traceback
    assert engine.close() == 0
    assert "Traceback" not in engine.child.before and "cffi" not in engine.child.before


@needs_core
def test_sigint_during_live_analysis_and_perft_stops_them():
    engine = EngineClient()
    engine.ok("option info off")
    start_live(engine)
    engine.child.expect("info ")
    engine.child.kill(signal.SIGINT)
    read_live(engine)
    engine.send_raw("perft 11\n")
    engine.child.kill(signal.SIGINT)  # it may arrive before perft starts: then the engine ends
    index = engine.child.expect([r"\? perft interrupted\n\n", pexpect.EOF])
    if index == 0:
        assert engine.ok("name") == "Gipfbot"
    engine.close()
    assert "Traceback" not in engine.child.before


def test_sigint_when_idle_ends_the_engine_cleanly():
    engine = EngineClient()
    assert engine.ok("name") == "Gipfbot"
    engine.child.kill(signal.SIGINT)
    assert engine.close() == 0
    assert engine.child.before == ""


def test_unicode_white_space_lines_get_no_reply(engine):
    engine.send_raw("\u00a0\n\u3000 \u2003\n5 \u00a0\n6 name\n")
    assert engine.read_reply() == (False, "5", "missing command name after the id")
    assert engine.read_reply() == (True, "6", "Gipfbot")


@needs_core
def test_huge_times_saturate_instead_of_stopping_at_once(engine):
    engine.ok("option info off")
    engine.ok("option depth 5")
    assert "depth 5" in engine.ok("analyze 930000000000000").split("\n")
    engine.ok("time_control 999999999999999")
    engine.ok("time_left w 999999999999999 1")
    engine.ok("option depth 4")
    assert "depth 4" in engine.ok("analyze").split("\n")


# --- pondering (option ponder) -----------------------------------------------------------------

def pondering_engine() -> tuple[EngineClient, str]:
    """An engine that has just played a genmove and ponders; and the reply it predicts."""
    engine = EngineClient("--log-level", "info")  # pondering is logged on stderr (merged here)
    engine.ok("option info off")
    engine.ok("option ponder on")
    engine.ok("option movetime 300")
    engine.ok("replay D3 E3 F3")
    engine.send_raw("genmove\n")
    engine.child.expect(r"engine.ponder INFO: pondering on (\S+)\n")
    predicted = engine.child.match.group(1)
    engine.read_reply()
    return engine, predicted


@needs_core
def test_a_ponder_hit_hands_the_search_to_the_next_genmove():
    engine, predicted = pondering_engine()
    assert engine.ok("time_left w 100 0") == ""  # harmless: pondering goes on
    engine.send_raw(f"move {predicted}\n")
    engine.child.expect("ponder hit")
    engine.read_reply()
    engine.send_raw("genmove\n")
    engine.child.expect(r"ponder search taken over: depth \d+")
    ok, _, move = engine.read_reply()
    assert ok and engine.ok("status").split()[3] == "ply=6"
    engine.close()


@needs_core
@pytest.mark.parametrize("line", ["undo", "analyze live", "move {other}", "option ponder off"])
def test_any_other_command_stops_pondering_first(line):
    engine, predicted = pondering_engine()
    if "{other}" in line:
        legal = engine.ok("legal_moves").split("\n")
        line = line.format(other=next(m for m in legal if m != predicted))
    engine.send_raw(line + "\n")
    engine.child.expect("pondering stopped")
    if line == "analyze live":
        engine.child.expect("=\n")
        engine.send_raw("\n")
        read_live(engine)
    else:
        assert engine.read_reply()[0]
    assert engine.ok("name") == "Gipfbot"
    engine.close()


def test_ponder_option_values(engine):
    assert engine.error("option ponder maybe") == "bad value 'maybe' for ponder: one of off, on"
    engine.ok("option ponder ON")
    assert "ponder on choice off|on" in engine.ok("option").split("\n")


# --- multi-PV in the core -------------------------------------------------------------------------

@needs_core
def test_multipv_scores_are_exact_minimax_values_of_each_candidate():
    """At depth 3 nothing is reduced, and with late-move pruning off nothing is pruned, so each
    candidate's score must equal minus the depth-2 value of the position after it, searched on
    its own (DVONN placement: no game ends)."""
    from engine.games import GAMES
    game = GAMES["dvonn"].start()
    for text in "D3 E3 F3 A1 C2 G4".split():
        game.play_text(text)
    pruning = next(w for w in core.weights("dvonn") if w.name == "search_lmp")
    core.set_weight("dvonn", "search_lmp", 0)
    try:
        core.clear_hash()
        result = core.search("dvonn", game.cells, game.side, core.phase(game), depth=3, multipv=6)
        exact = {}
        for move in game.legal_moves():
            game.push(move)
            core.clear_hash()
            reply = core.search("dvonn", game.cells, game.side, core.phase(game), depth=2)
            game.pop()
            exact[game.move_text(move)] = -reply.score
    finally:
        core.set_weight("dvonn", "search_lmp", pruning.value)
    assert len(result.lines) == 6 and result.lines[0].score == result.score
    best = sorted(exact.values(), reverse=True)[:6]
    assert [line.score for line in result.lines] == best
    for line in result.lines:
        move = core.action_text(game, core.decode_move("dvonn", line.pv[0]))
        assert exact[move] == line.score


def test_live_analysis_without_the_core_answers_at_once(engine):
    engine.ok("option player python")
    start_live(engine)
    infos, best = read_live(engine)
    assert infos == [] and best in engine.ok("legal_moves").split("\n")



@needs_core
def test_every_live_line_past_depth_one_shows_a_continuation(engine):
    # Two threads sharing the hash table (kept from one position to the next): a helper's
    # iteration used to publish a line cut short after its root move by a table cut-off,
    # and the interval lines then repeated it (pv of one action at depth 4).
    for line in ("option info off", "option threads 2", "option multipv 1"):
        engine.ok(line)
    short = []
    # The race is not certain: more searches, more chances (depth 4 twice, not 5: TZAAR's
    # depth-5 trees take minutes under the sanitizers).
    for depth in (4, 4):
        engine.ok("newgame tzaar")
        engine.ok(f"option depth {depth}")
        for turn in ("w E3xF2", "b A1xB1 A4xB5", "w A5xA3 A3xB4", "b D4xD3 H1+H2", None):
            start_live(engine, "analyze live 10")
            infos, _ = read_live(engine)
            check_blocks(infos, 1)
            lines = [INFO.fullmatch(line) for line in infos]
            short += [m.group(0) for m in lines if int(m.group(4)) >= 2 and len(m.group(8).split()) < 2]
            if turn:
                engine.ok("play " + turn)
    assert not short
