"""The pure-Python player: a one-ply search with a small evaluation per game.

It is the fallback when the compiled core is unavailable and the reference
opponent the core is measured against.  Ties are broken by a seeded shuffle so
games are reproducible for a given seed.
"""
from __future__ import annotations

import random

from .dvonn import POINTS, RED_PIECES, DvonnGame
from .hexgrid import DVONN_BOARD
from .rules import WHITE
from .tzaar import TzaarGame

_WIN = 10 ** 6


def choose_move(game, seed: int = 0):
    """A legal move for the side to act (the game must not be over)."""
    moves = game.legal_moves()
    rng = random.Random(seed * 1_000_003 + game.ply)
    rng.shuffle(moves)
    if len(moves) == 1:
        return moves[0]
    side = game.side
    if isinstance(game, DvonnGame):
        if game.placed < POINTS:
            return max(moves, key=lambda m: _dvonn_placement_value(game, m.dst))
        evaluate = _dvonn_value
    else:
        evaluate = _tzaar_value
    best, best_value = moves[0], None
    for move in moves:
        game.push(move)
        value = evaluate(game, side)
        game.pop()
        if best_value is None or value > best_value:
            best, best_value = move, value
    return best


def random_move(game, seed: int = 0):
    """A uniformly random legal move: the weakest opponent, for sanity matches."""
    return random.Random(seed * 1_000_003 + game.ply).choice(game.legal_moves())


# --- DVONN ---------------------------------------------------------------------

def _distance(a: int, b: int) -> int:
    (x1, y1), (x2, y2) = DVONN_BOARD.coords[a], DVONN_BOARD.coords[b]
    dx, dy = x1 - x2, y1 - y2
    return max(abs(dx), abs(dy)) if dx * dy > 0 else abs(dx) + abs(dy)


def _dvonn_placement_value(game: DvonnGame, point: int) -> float:
    reds = [p for p, s in enumerate(game.cells) if s == "R"]
    if game.placed < RED_PIECES:  # spread the reds: far from each other, off the edge
        spread = min((_distance(point, r) for r in reds), default=4)
        return spread + len(DVONN_BOARD.neighbours[point]) * 0.5
    near_red = min(_distance(point, r) for r in reds)
    edge = 6 - len(DVONN_BOARD.neighbours[point])  # edge pieces move first
    return -near_red + 0.6 * edge


def _dvonn_value(game: DvonnGame, side: int) -> float:
    white, black = game.scores()
    material = (white - black) if side == WHITE else (black - white)
    if game.over:
        return _WIN * (material > 0) - _WIN * (material < 0) + material
    mobility = len(game.stack_moves(side)) - len(game.stack_moves(side ^ 1))
    return material + 0.25 * mobility


# --- TZAAR ---------------------------------------------------------------------

def _tzaar_value(game: TzaarGame, side: int) -> float:
    if game.over:
        return _WIN if game.winner == side else -_WIN
    value = 0.0
    own, enemy = ("abc", "ABC") if side == WHITE else ("ABC", "abc")
    for mine, theirs in zip(own, enemy):
        # scarce types are what decide the game: the last few are worth most
        value += _scarcity(game.tops[mine]) - _scarcity(game.tops[theirs])
    for stack in game.cells:
        if stack:
            sign = 1 if stack[-1] in own else -1
            value += sign * min(len(stack), 4) * 2
    if not game.has_capture(game.side):
        value += _WIN // 2 if game.side != side else -_WIN // 2
    return value


def _scarcity(count: int) -> float:
    return sum(100.0 / k for k in range(1, count + 1))
