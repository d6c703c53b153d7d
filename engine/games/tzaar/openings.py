"""TZAAR openings: the fixed standard layout and the seeded random layout.

The random layout is specified in protocol.md so any client can reproduce it:
SplitMix64 (engine/splitmix64.py) seeded with the seed, a Fisher-Yates shuffle
of the 60-piece stock.
"""
from __future__ import annotations

from ...splitmix64 import MASK64, SplitMix64
from .board import TZAAR_BOARD

FIXED_LAYOUT = {
    "a": "C5 D3 D6 E3 G4 G5",
    "b": "B5 C2 C6 D2 D7 E2 H3 H4 H5",
    "c": "A5 B1 B6 C1 C7 D1 D5 D8 E1 E4 F5 I2 I3 I4 I5",
    "A": "C3 C4 E7 F3 F6 G3",
    "B": "B2 B3 B4 E8 F2 F7 G2 G6 H2",
    "C": "A1 A2 A3 A4 D4 E6 E9 F1 F4 F8 G1 G7 H1 H6 I1",
}

# Stock in the order the shuffle starts from.
STOCK = "a" * 6 + "b" * 9 + "c" * 15 + "A" * 6 + "B" * 9 + "C" * 15


def fixed_opening() -> list[str]:
    cells = [""] * TZAAR_BOARD.size
    for piece, points in FIXED_LAYOUT.items():
        for name in points.split():
            cells[TZAAR_BOARD.by_name[name]] = piece
    return cells


def random_opening(seed: int) -> list[str]:
    """Shuffle STOCK: for i = 59 down to 1, swap i with next() mod (i + 1)."""
    if not 0 <= seed <= MASK64:
        raise ValueError("the seed is a whole number from 0 to 18446744073709551615")
    stock = list(STOCK)
    rng = SplitMix64(seed)
    for i in range(len(stock) - 1, 0, -1):
        j = rng.next() % (i + 1)
        stock[i], stock[j] = stock[j], stock[i]
    return stock
