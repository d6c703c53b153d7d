"""SplitMix64 (Steele, Lea and Flood; the generator of java.util.SplittableRandom).

The engine's one seeded generator where a result must be reproducible from a
seed by any client or across Python versions (the TZAAR random layout,
protocol.md section 8; the weighted move choice of `option level`).  Python's
`random` is deliberately not used there: its algorithm is not a contract.
"""
from __future__ import annotations

MASK64 = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def uniform(self) -> float:
        """A float in [0, 1) from the top 53 bits of next()."""
        return (self.next() >> 11) / (1 << 53)
