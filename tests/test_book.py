"""The DVONN opening book: the board's symmetries, canonical positions, the builder's
reproducibility, the shipped file, and `option book` over the protocol."""
from __future__ import annotations

import random
import subprocess
import sys

import pytest
from conftest import REPO

from engine import book, core
from engine.games import SPECS
from engine.games.dvonn.board import DVONN_BOARD
from engine.games.dvonn.rules import POINTS, DvonnGame
from engine.games.tzaar.board import TZAAR_BOARD

SYMMETRIES = DvonnGame.symmetries


def names(perm, *points):
    return [DVONN_BOARD.names[perm[DVONN_BOARD.by_name[p]]] for p in points]


def test_the_dvonn_board_has_exactly_the_rotation_and_the_two_mirrors():
    identity, *others = SYMMETRIES
    assert identity == tuple(range(POINTS)) and len(others) == 3
    images = sorted(names(perm, "A1", "F3") for perm in others)
    # 180° rotation (A1 to K5), mirror in row 3 (A1 to C5), mirror across column F (A1 to I1)
    assert images == [["C5", "F3"], ["I1", "F3"], ["K5", "F3"]]
    for perm in others:
        assert sorted(perm) == list(range(POINTS)) and book.inverse(perm) == perm  # involutions
    assert len(TZAAR_BOARD.symmetries) == 12 and SPECS["tzaar"].book_file is None


def mirrored(moves, perm):
    """The game of `moves` seen through `perm`, every mapped move checked by the rules."""
    game = DvonnGame()
    for move in moves:
        game.push(game.check_move(game.map_move(move, perm)))
    return game


@pytest.mark.parametrize("seed", range(6))
def test_symmetric_games_stay_legal_and_map_back(seed):
    """Whole random games (placements and stack moves) played through each symmetry: every
    mapped move is legal, the legal moves and the result correspond, the position maps back."""
    rng = random.Random(seed)
    game, moves = DvonnGame(), []
    while not game.over and len(moves) < 49 + 30:
        move = rng.choice(game.legal_moves())
        moves.append(move)
        game.push(move)
    for perm in SYMMETRIES:
        image = mirrored(moves, perm)
        assert sorted(image.legal_moves()) == sorted(game.map_move(m, perm)
                                                     for m in game.legal_moves())
        assert image.scores() == game.scores() and image.side == game.side
        back = book.inverse(perm)
        assert [image.cells[perm[p]] for p in range(POINTS)] == game.cells
        assert mirrored([m for m, _ in image.history], back).position() == game.position()


def test_canonical_form_is_shared_by_symmetric_positions_and_round_trips():
    rng = random.Random(7)
    for _ in range(40):
        game, moves = DvonnGame(), []
        for _ in range(rng.randrange(1, 13)):
            move = rng.choice(game.legal_moves())
            moves.append(move)
            game.push(move)
        key, perm = book.canonical(game)
        assert game.book_key(perm) == key == min(game.book_key(p) for p in SYMMETRIES)
        move = rng.choice(game.legal_moves())
        pooled = book.canonical_move(game, move)
        for sym in SYMMETRIES:
            image = mirrored(moves, sym)
            assert book.canonical(image)[0] == key
            assert book.canonical_move(image, image.map_move(move, sym)) == pooled
            # the canonical move mapped back lands on a point equivalent to `move`
            _, image_perm = book.canonical(image)
            back = image.map_move(image.parse_move(pooled[1]), book.inverse(image_perm))
            assert book.canonical_move(image, image.check_move(back)) == pooled
    empty = DvonnGame()
    assert book.canonical_move(empty, empty.parse_move("K5")) == ("." * POINTS, "A1")


def build(*args: str) -> bytes:
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "book"), "--games", "3",
                           "--nodes", "300", "--plies", "3", "--min-games", "1", *args],
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(not core.AVAILABLE, reason="the compiled core is unavailable")
def test_the_builder_is_reproducible():
    first = build("--seed", "5")
    assert first == build("--seed", "5")
    assert first != build("--seed", "6")
    entries = book.parse(first.decode())
    assert "." * POINTS in entries and b"--seed 5 " in first.splitlines()[1]


def replayed(key: str) -> DvonnGame:
    """The placement position of a book key, placed through the rules: the reds first,
    then black and white in turn (the rules fix which piece each placement is)."""
    game = DvonnGame()
    points = {piece: [p for p, c in enumerate(key) if c == piece] for piece in "RBW"}
    order = points["R"] + [p for pair in zip(points["B"], points["W"] + [None]) for p in pair
                           if p is not None]
    assert len(order) == POINTS - key.count(".")
    for point in order:
        game.play_text(DVONN_BOARD.names[point])
    assert game.book_key(SYMMETRIES[0]) == key
    return game


def test_every_shipped_book_move_is_legal_in_its_position():
    entries = book.load(SPECS["dvonn"].book_file)
    assert "." * POINTS in entries
    for key, entry in entries.items():
        game = replayed(key)
        assert book.canonical(game)[0] == key  # stored in canonical orientation
        assert entry.games >= 1 and 0 <= entry.score <= 1
        move, found = book.lookup(game)
        assert found == entry and game.move_text(move) == entry.move
        assert move in game.legal_moves()
        for perm in SYMMETRIES:  # the same book move, seen through each symmetry
            image = mirrored([m for m, _ in game.history], perm)
            image_move, _ = book.lookup(image)
            assert book.canonical_move(image, image_move) == book.canonical_move(game, move)


def session(lines: list[str]) -> tuple[str, str]:
    done = subprocess.run([sys.executable, "-m", "engine"], cwd=str(REPO), timeout=120,
                          input="".join(line + "\n" for line in lines),
                          capture_output=True, text=True)
    assert done.returncode == 0
    return done.stdout, done.stderr


def test_genmove_answers_the_book_move_at_once_and_analysis_searches():
    first = book.load(SPECS["dvonn"].book_file)["." * POINTS]
    out, err = session(["option nodes 3000", "option book on", "genmove", "undo", "analyze",
                        "option book off", "genmove"])
    replies = out.split("\n\n")
    assert replies[2] == f"= {first.move}"
    info = err.splitlines()
    assert info[0] == f"info book {first.move} games {first.games} score {first.score:.3f}"
    assert info[1].startswith("info depth 1 ")  # analyze searched, as does genmove with book off
    assert sum(line.startswith("info depth 1 ") for line in info) == 2
    assert replies[4].startswith("=\n") and "\nscore " in replies[4]
    assert not any(line.startswith("info book") for line in info[1:])


def test_a_bad_book_value_is_refused_and_changes_nothing(engine):
    engine.ok("option book on")
    assert engine.error("option book maybe") == "bad value 'maybe' for book: one of off, on"
    assert "book on choice off|on" in engine.ok("option").splitlines()
    engine.ok("newgame tzaar")
    assert engine.ok("option book off") == ""  # a game without a book: the option is harmless
