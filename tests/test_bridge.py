"""scripts/bridge: a record in, the engine's move out in the record's own notation."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import records
from engine.games.dvonn import notation as dvonn_notation
from engine.games.dvonn.boardspace import SOURCE_BOARDSPACE
from engine.games.tzaar import notation as tzaar_notation
from engine.games.tzaar.openings import random_opening
from engine.games.tzaar.rules import TzaarGame

REPO = Path(__file__).resolve().parents[1]
BRIDGE = [sys.executable, str(REPO / "scripts" / "bridge")]
FAST = ["--movetime", "100", "--setup", "option player random"]

PLACEMENTS = ("G2 C1 F5 D1 H5 G5 I1 E1 F2 F1 E4 E5 J2 G1 B2 B1 H1 G4 D3 C2 E3 F4 C4 D4 A2 "
              "A1 D2 E2 A3 G3 D5 F3 I5 C3 H2 H3 K3 H4 K5 I4 I3 J5 I2 B3 J4 J3 K4 B4 C5").split()
BOARDSPACE_HEAD = '(;\nGM[Dvonn]VV[1]\nSU[dvonn 1]\nP0[id "a"]\nP1[id "b"]\n; P0[0 Start P0]\n'


def bridge(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(BRIDGE + list(args), input=stdin, capture_output=True, text=True,
                          timeout=60, cwd=REPO)


def boardspace(moves: list[str]) -> str:
    nodes, seq = [], 1
    for i, move in enumerate(moves):
        player = f"P{i % 2 if i < 49 else (i - 49) % 2}"
        for action in (dvonn_notation.dvonn_to_boardspace(move), "done"):
            nodes.append(f"; {player}[{seq} {action}]")
            seq += 1
    return BOARDSPACE_HEAD + "\n".join(nodes) + "\n)\n"


def check_legal(record: records.GameRecord, move: str) -> None:
    game = records.replay(record)
    if record.game == "dvonn":
        ours = dvonn_notation.dvonn_from_boardspace(move) if record.source == SOURCE_BOARDSPACE \
            else dvonn_notation.dvonn_from_littlegolem(move)
    else:
        ours = tzaar_notation.tzaar_from_littlegolem(move, game.cells, game.side)
    game.play_text(ours)


@pytest.mark.parametrize("count, pattern", [(10, r"[a-k][1-5]"), (49, r"[a-k][1-5][a-k][1-5]")])
def test_littlegolem_dvonn(tmp_path, count, pattern):
    record = records.GameRecord("dvonn", PLACEMENTS[:count], white="x", black="y")
    path = tmp_path / "g.txt"
    path.write_text(records.write_littlegolem(record))
    result = bridge(*FAST, str(path))
    assert result.returncode == 0, result.stderr
    move = result.stdout.strip()
    assert result.stdout == move + "\n" and re.fullmatch(pattern, move)
    check_legal(records.read_record(path.read_text()), move)


def test_boardspace_dvonn_from_stdin_answers_in_boardspace_actions():
    text = boardspace(PLACEMENTS[:7])
    result = bridge(*FAST, "--side", "b", "-", stdin=text)
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"dropb [A-K] [1-5]\n", result.stdout)
    check_legal(records.read_record(text), result.stdout.strip())


@pytest.mark.parametrize("turns", [0, 3])
def test_littlegolem_tzaar_with_a_pos_opening(tmp_path, turns):
    game = TzaarGame(random_opening(21))
    for _ in range(turns):
        game.push(game.legal_moves()[-1])
    record = records.GameRecord("tzaar", [game.move_text(m) for m, _ in game.history],
                                opening=random_opening(21))
    path = tmp_path / "t.sgf"
    path.write_text(records.write_littlegolem(record))
    result = bridge("--movetime", "200", str(path))  # the real search, briefly
    assert result.returncode == 0, result.stderr
    move = result.stdout.strip()
    assert re.fullmatch(r"[k-s]{4}" if turns == 0 else r"[k-s]{4}-([k-s]{4}|pass)", move)
    check_legal(records.read_record(path.read_text()), move)


def test_errors_go_to_stderr_with_status_1(tmp_path):
    resigned = tmp_path / "r.txt"
    resigned.write_text("White [a] Black [b] 1. g2 resign")
    result = bridge(*FAST, str(resigned))
    assert (result.returncode, result.stdout) == (1, "")
    assert "Black resigned" in result.stderr
    illegal = tmp_path / "i.txt"
    illegal.write_text("White [a] Black [b] 1. g2 g2")
    result = bridge(*FAST, str(illegal))
    assert (result.returncode, result.stdout) == (1, "") and "move 2" in result.stderr
    result = bridge(*FAST, "--side", "b", "-", stdin="White [a] Black [b] 1. g2 c1")
    assert (result.returncode, result.stdout) == (1, "") and "not ours" in result.stderr
    over = boardspace(PLACEMENTS)  # placement done: play random moves to the end
    game = records.replay(records.read_record(over))
    moves = list(PLACEMENTS)
    while not game.over:
        move = game.legal_moves()[0]
        moves.append(game.move_text(move))
        game.push(move)
    result = bridge(*FAST, "-", stdin=boardspace(moves))
    assert (result.returncode, result.stdout) == (1, "") and "game is over" in result.stderr
