"""scripts/review and engine/review: marks, annotated records, parallel analysis, bad input."""
from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest
from conftest import HAND_BUILT_TZAAR, REPO, EngineClient, shared_dir, sigint_as_in_a_terminal

from engine import records
from engine.games.dvonn.boardspace import SOURCE_BOARDSPACE
from engine.review import Limits, read_record, review_record
from engine.review.annotate import annotated_record
from engine.review.judge import judge_for, proof, terminal_score
from engine.review.report import json_report

SCRIPT = [sys.executable, str(REPO / "scripts" / "review")]

# A TZAAR game built by hand from the first 21 turns of LittleGolem game 2552914: Black's
# 22nd turn A4xA5 A5+B6 lets White take Black's last visible Tzaar at once (D1xE2 H6xG7),
# while Black had turns that do not lose on the spot.

RECORD_FIELDS = ("game", "moves", "white", "black", "opening", "resigned_by", "event", "date",
                 "result_text", "source")


@pytest.fixture(scope="module")
def hand_built_review():
    record = read_record(HAND_BUILT_TZAAR.encode())
    return review_record(record, limits=Limits(depth=3), jobs=1)


def test_scores_decode_and_marks_follow_the_thresholds():
    found = proof(1_000_000 + 12 * 256 - 7)
    assert (found.won, found.margin, found.plies) == (True, 12, 7)
    assert proof(998_999) is None and proof(-1_000_254).won is False
    assert terminal_score("W+12", "b") == -(1_000_000 + 12 * 256)
    assert terminal_score("0", "w") == 0
    dvonn, tzaar = judge_for("dvonn"), judge_for("tzaar")
    low, middle, high = dvonn.thresholds
    assert dvonn.mark(300, 300 - int(low * 100) + 1) is None
    assert dvonn.mark(300, 300 - int(low * 100)) == "inaccuracy"
    assert dvonn.mark(300, 300 - int(middle * 100)) == "mistake"
    assert dvonn.mark(300, 300 - int(high * 100)) == "blunder"
    assert dvonn.mark(0, -1_000_000 - 256 + 3) == "blunder"       # walked into a proven loss
    assert dvonn.mark(-500, -1_000_000 - 256 + 3) is None         # ... when already behind
    assert dvonn.mark(1_000_000 + 512, 0) == "blunder"            # gave up a proven win
    assert dvonn.mark(1_000_000 + 30 * 256 - 5, 1811) is None     # a slower win, unproven
    assert dvonn.score_text(1_000_000 + 3 * 256 - 5) == "wins in 5 (by 3)"
    assert tzaar.score_text(-1_000_256 + 2) == "loses in 2"
    assert tzaar.mark(0, 0) is None and tzaar.mark(2000, -2000) == "blunder"


def test_the_known_blunder_is_marked(hand_built_review):
    moves = hand_built_review.moves
    blunder = moves[21]
    assert (blunder.side, blunder.move) == ("b", "A4xA5 A5+B6")
    assert blunder.mark == "blunder" and blunder.best != blunder.move
    assert moves[22].mark is None                         # White's winning reply
    assert hand_built_review.line.result == "W+"
    assert "blunder" in hand_built_review.comment(blunder)


def test_the_annotated_record_reads_back_as_the_same_game(hand_built_review, tmp_path):
    text, suffix, note = annotated_record(hand_built_review)
    assert suffix == ".sgf" and not note and text.count("C[") == len(hand_built_review.moves)
    again = records.read_record(text)
    original = hand_built_review.record
    assert all(getattr(again, f) == getattr(original, f) for f in RECORD_FIELDS)
    path = tmp_path / "annotated.sgf"
    path.write_text(text)
    engine = EngineClient()
    try:
        assert engine.ok(f"loadrecord {path}").startswith("23 moves; game over: W+")
    finally:
        engine.close()


def test_boardspace_and_littlegolem_dvonn_records_read_back(tmp_path):
    folder = shared_dir("records")
    for path in [folder / "dvonn-boardspace" / "DV-Bartje-BestBot-2009-01-17-1044.sgf",
                 folder / "littlegolem" / "dvonn-demo.txt"]:
        record = read_record(path.read_bytes())
        review = review_record(record, limits=Limits(depth=1), jobs=2)
        text, suffix, note = annotated_record(review, path.suffix)
        assert suffix == path.suffix
        again = records.read_record(text)
        assert all(getattr(again, f) == getattr(record, f) for f in RECORD_FIELDS)
        if record.source == SOURCE_BOARDSPACE:
            assert text.count("C[") == len(record.moves) and not note
        else:
            assert "C[" not in text and "no comments" in note


def test_two_jobs_give_the_same_analysis_as_one():
    record = read_record(HAND_BUILT_TZAAR.encode())
    record = dataclasses.replace(record, moves=record.moves[:12])
    one = json_report(review_record(record, limits=Limits(depth=3), jobs=1))
    two = json_report(review_record(record, limits=Limits(depth=3), jobs=2))
    assert one == two


def run_review(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(SCRIPT + list(args), input=stdin, capture_output=True, text=True,
                          cwd=REPO, timeout=300)


@pytest.mark.parametrize("record, message", [
    ("no-such-file.txt", "review: cannot read no-such-file.txt: No such file or directory"),
    ("-", "review: bad record: not a game record"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, record, message):
    out = tmp_path / "out"
    result = run_review("--depth", "1", "--out", str(out), record, stdin="hello\n")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1
    assert not out.exists()


def test_an_illegal_move_is_refused(tmp_path):
    illegal = HAND_BUILT_TZAAR.replace("W[nlol-rpqq]", "W[nlol-nlol]")
    result = run_review("--depth", "1", "--out", str(tmp_path / "out"), "-", stdin=illegal)
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("review: bad record: turn 23")
    assert not (tmp_path / "out").exists()


def test_html_page_and_files_in_out_dir(tmp_path):
    pytest.importorskip("matplotlib")
    source = tmp_path / "hand.sgf"
    source.write_text(HAND_BUILT_TZAAR)
    result = run_review("--depth", "2", "--jobs", "2", "--format", "html", "--out",
                        str(tmp_path / "out"), str(source))
    assert result.returncode == 0, result.stderr
    page_path, record_path = (line for line in result.stdout.splitlines())
    page = (REPO / page_path).read_text(encoding="utf-8")
    assert "<svg" in page and page.count('<tr id="move-') == 23
    assert 'class="blunder"' in page
    assert "src=" not in page and "<link" not in page           # self-contained
    assert records.read_record((REPO / record_path).read_text()).moves == \
        records.read_record(HAND_BUILT_TZAAR).moves
    from engine.review.html import graph_png
    graph_png(review_record(read_record(HAND_BUILT_TZAAR.encode()), limits=Limits(depth=1)),
              str(tmp_path / "graph.png"))
    assert (tmp_path / "graph.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_json_on_stdout_and_a_closed_stdout_is_quiet():
    # depth 2: at one action the tuned evaluation rates the known blunder a mistake
    result = run_review("--depth", "2", "--format", "json", "-", stdin=HAND_BUILT_TZAAR)
    data = json.loads(result.stdout)
    assert data["moves"][21]["mark"] == "blunder" and len(data["white_scores"]) == 24
    proc = subprocess.Popen(SCRIPT + ["--depth", "1", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
    proc.stdout.close()
    _, err = proc.communicate(HAND_BUILT_TZAAR, timeout=300)
    assert proc.returncode == 0 and err == ""


def test_ctrl_c_stops_quietly():
    import os
    import signal
    import time
    proc = subprocess.Popen(SCRIPT + ["--movetime", "20000", "--jobs", "1", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=REPO, start_new_session=True,
                            preexec_fn=sigint_as_in_a_terminal)
    proc.stdin.write(HAND_BUILT_TZAAR)
    proc.stdin.close()
    time.sleep(2)          # a search of 20 s is under way; Ctrl-C reaches the whole group
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.stdout.close()
    proc.stderr.close()
    assert (proc.wait(timeout=60), out, err) == (130, "", "")


def test_decided_positions_in_words_and_one_meaning_per_column(hand_built_review):
    from engine.review.report import COLUMNS, text_report
    tzaar = judge_for("tzaar")
    # TZAAR's search scores a position won within the action 300,000 (not a proof): words
    assert (tzaar.score_text(300_000), tzaar.score_text(-300_000)) == ("wins", "loses")
    assert tzaar.score_text(1_000_256) == "won" and tzaar.score_text(190) == "+1.90 (58 %)"
    review = dataclasses.replace(hand_built_review)
    text = text_report(review)
    assert "-3000.00" not in text and "+3000.00" not in text
    names = [name for name, _ in COLUMNS]
    assert names == ["#", "side", "move", "played", "best", "best's score", "loss", "mark"]
    header = text.splitlines()[3]
    assert [header.index(name) for name in names] == sorted(header.index(name) for name in names)
    report = json.loads(json_report(review))
    assert [column["name"] for column in report["columns"]] == names  # the page's too
    for move, reviewed in zip(report["moves"], review.moves):
        number, side, played_move, played, best, best_score, loss, mark = move["cells"]
        # each column one meaning, whatever the move: the played move's score, the engine's
        # choice, the score after the engine's choice
        assert played == move["played"]["text"] and best_score == move["eval"]["text"]
        assert best == ("(forced)" if move["forced"] else "(played)" if move["is_best"] else
                        move["best"] + (" (depth-limited)" if move["depth_limited"] else ""))
        judge = review.judge
        assert move["depth_limited"] == (not (move["forced"] or move["is_best"]) and
                                         judge.value(reviewed.after) > judge.value(reviewed.before))
        if not move["depth_limited"] and not move["is_best"]:  # never shown better than played
            assert judge.value(reviewed.before) >= judge.value(reviewed.after)
        assert f"{number:>2}  {side}  {played_move}" in text
