"""engine/protocol/analysis_lines.py: what it writes it reads back, field for field, and the text
is protocol.md's (§6.5, §6.6)."""
from __future__ import annotations

import pytest
from conftest import EngineClient

from engine import core
from engine.protocol import analysis_lines as al
from engine.search import Progress, Thought

needs_core = pytest.mark.skipif(not core.AVAILABLE, reason="the compiled core is unavailable")

PROGRESS = Progress(depth=7, seldepth=9, score=-42, nodes=123456, time_ms=250.7,
                    pv=["D3", "E3", "F3"], lines=[(-42, ["D3", "E3", "F3"]), (-57, ["C3", "D3"])])


def test_the_progress_line_on_stderr():
    line = al.progress_line(PROGRESS)
    assert line == "info depth 7 score -42 nodes 123456 nps 492445 time 250 pv D3 E3 F3"
    assert al.read_info(line) == {"depth": 7, "score": -42, "nodes": 123456, "nps": 492445,
                                  "time": 250, "pv": ["D3", "E3", "F3"]}


def test_live_lines_one_per_candidate_read_back():
    lines = al.live_lines(PROGRESS)
    assert lines[1] == "info multipv 2 move C3 score -57 depth 7 nodes 123456 nps 492445 time 250 pv C3 D3"
    read = [al.read_info(line) for line in lines]
    assert [(r["multipv"], r["move"], r["score"], r["pv"]) for r in read] == \
        [(1, "D3", -42, ["D3", "E3", "F3"]), (2, "C3", -57, ["C3", "D3"])]
    single = Progress(3, 3, 5, 10, 1.0, ["A1"])  # no candidates: the principal line is the one
    assert al.live_lines(single) == ["info multipv 1 move A1 score 5 depth 3 nodes 10 nps 10000 time 1 pv A1"]


def test_the_other_live_lines():
    assert al.read_info(al.bestmove_line("A5xA4 B5+C5")) == {"bestmove": "A5xA4 B5+C5"}
    warning = al.fallback_line("the core failed (CoreError: no memory)")
    assert al.read_info(warning) == {"string": "the core failed (CoreError: no memory); bestmove from the "
                                               "Python player"}
    book = al.book_line("D3", 12, 0.625)
    assert book == "info book D3 games 12 score 0.625"
    assert al.read_info(book) == {"book": "D3", "games": 12, "score": "0.625"}
    assert al.read_info("") is None and al.read_info("= D3") is None


def test_the_analyze_reply_read_back():
    thought = Thought("move", score=-42, depth=7, nodes=123456, time_ms=250.7, pv=["D3", "E3"],
                      lines=[(-42, ["D3", "E3"]), (-57, ["C3"])])
    text = al.analyze_reply("D3", thought, multipv=2)
    assert text.split("\n") == ["D3", "score -42", "depth 7", "nodes 123456", "time 250", "pv D3 E3",
                                "multipv 1 move D3 score -42 depth 7 pv D3 E3",
                                "multipv 2 move C3 score -57 depth 7 pv C3"]
    reply = al.read_analyze(text)
    assert (reply.best, reply.score, reply.depth, reply.nodes, reply.time_ms, reply.pv) == \
        ("D3", -42, 7, 123456, 250, ["D3", "E3"])
    assert [(c["multipv"], c["move"], c["score"], c["pv"]) for c in reply.candidates] == \
        [(1, "D3", -42, ["D3", "E3"]), (2, "C3", -57, ["C3"])]
    unscored = al.read_analyze(al.analyze_reply("D3", Thought("move", time_ms=3), multipv=2))
    assert (unscored.best, unscored.score, unscored.depth, unscored.pv, unscored.candidates) == \
        ("D3", None, None, ["D3"], [])


@needs_core
def test_the_engine_s_analyze_reply_reads_back_whole(engine: EngineClient):
    engine.ok("option depth 3")
    engine.ok("option multipv 2")
    text = engine.ok("analyze")
    reply = al.read_analyze(text)
    assert reply.best == reply.pv[0] == reply.candidates[0]["move"]
    assert reply.depth == 3 and [c["multipv"] for c in reply.candidates] == [1, 2]
    assert al.analyze_reply(reply.best, Thought(
        "move", reply.score, 3, reply.nodes or 0, reply.time_ms or 0, reply.pv,
        lines=[(c["score"], c["pv"]) for c in reply.candidates]), multipv=2) == text
