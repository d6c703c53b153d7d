"""TZAAR openings: the fixed standard layout and the seeded random layout.

The random layout is specified in protocol.md so any client can reproduce it:
SplitMix64 seeded with the seed, a Fisher-Yates shuffle of the 60-piece stock.
Python's `random` is deliberately not used: its algorithm is not a contract.
"""
from __future__ import annotations

from .hexgrid import TZAAR_BOARD

MASK64 = (1 << 64) - 1

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


class SplitMix64:
    """Steele, Lea and Flood's SplitMix64 (the generator of java.util.SplittableRandom)."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


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
