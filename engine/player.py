"""The pure-Python player: a one-ply search over the game's own move values.

It is the fallback when the compiled core is unavailable or fails, and the
reference opponent the core is measured against.  Each game values a move for
it (GameBase.player_move_value).  Ties are broken by a seeded shuffle so games
are reproducible for a given seed.
"""
from __future__ import annotations

import random


def choose_move(game, seed: int = 0):
    """A legal move for the side to act (the game must not be over)."""
    moves = game.legal_moves()
    rng = random.Random(seed * 1_000_003 + game.ply)
    rng.shuffle(moves)
    if len(moves) == 1:
        return moves[0]
    side = game.side
    return max(moves, key=lambda move: game.player_move_value(move, side))


def random_move(game, seed: int = 0):
    """A uniformly random legal move: the weakest opponent, for sanity matches."""
    return random.Random(seed * 1_000_003 + game.ply).choice(game.legal_moves())
