"""scripts/codecup (a CodeCup 2011 DVONN player) and scripts/codecup_referee."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.games.dvonn.notation import codecup_to_move, move_to_codecup
from engine.games.dvonn.rules import DvonnGame

REPO = Path(__file__).resolve().parents[1]
PY = sys.executable
CODECUP = f"{PY} scripts/codecup"


@pytest.mark.parametrize("line, move", [("D3", "D3"), ("E3F3", "E3-F3"), ("PASS", "pass")])
def test_codecup_notation(line, move):
    assert codecup_to_move(line) == move
    assert move_to_codecup(move) == line


@pytest.mark.parametrize("line", ["E3-F3", "Z9", "E3 F3", ""])
def test_codecup_notation_rejects(line):
    with pytest.raises(ValueError):
        codecup_to_move(line)


def test_engine_against_itself_through_two_adapters_and_the_referee():
    """White: the real search on a small game budget; Black: the random player."""
    result = subprocess.run(
        [PY, "scripts/codecup_referee", "--timeout", "30",
         "--white", f"{CODECUP} --gametime 1500",
         "--black", f"{CODECUP} --gametime 1000 --setup 'option player random'"],
        cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    moves_line, summary = result.stdout.strip().split("\n")
    moves = moves_line.split()
    game = DvonnGame()  # the referee checked them; check again, and the double action
    for line in moves:
        game.play_text(codecup_to_move(line))
    assert game.over and summary.startswith(f"result {game.result()} ")
    assert len(moves[49]) == 4 and len(moves[48]) == 2  # White: 49th placement, then a move


def test_black_reads_whites_double_action_and_quits_cleanly():
    """Feed the adapter (as Black) White's side of a game by hand."""
    game = DvonnGame()
    proc = subprocess.Popen([PY, "scripts/codecup", "--setup", "option player random"],
                            cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)
    while game.placed < 49:
        move = game.legal_moves()[0]  # White: the first empty point
        game.push(move)
        proc.stdin.write(move_to_codecup(game.move_text(move)) + "\n")
        proc.stdin.flush()
        if game.side == 1:
            answer = codecup_to_move(proc.stdout.readline())
            game.play_text(answer)
    # after White's 49th placement White also moves: Black waits for that second line
    move = game.legal_moves()[0]
    game.push(move)
    proc.stdin.write(move_to_codecup(game.move_text(move)) + "\nQuit\n")
    proc.stdin.flush()
    answer = proc.stdout.readline().strip()
    game.play_text(codecup_to_move(answer))
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and out == ""


def test_an_illegal_opponent_move_is_logged_and_ends_with_status_1():
    result = subprocess.run([PY, "scripts/codecup", "--setup", "option player random"],
                            input="D3\nD3\n", cwd=REPO, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 1
    assert len(result.stdout.split()) == 1  # one answer to D3, nothing after
    assert "illegal opponent move 'D3'" in result.stderr
