"""Game clocks and how much of them one move may use.

Holds what the controller told us (GTP time_settings / time_left, or a
millisecond game budget with increment) and keeps counting between updates.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

SAFETY_MS = 30  # pipe, process wake-up and rules check after the search stops
LAST_MOVES_SHARE = 0.5  # no move in main time gets more of what is left; last_moves tests the same


@dataclass
class Clock:
    main_ms: Optional[float] = None        # None: no clock at all
    increment_ms: float = 0.0
    byo_yomi_ms: float = 0.0
    byo_yomi_stones: int = 0
    remaining_ms: list = field(default_factory=lambda: [0.0, 0.0])
    stones_left: list = field(default_factory=lambda: [0, 0])  # 0: still in main time

    @property
    def active(self) -> bool:
        return self.main_ms is not None

    def set_game(self, main_ms: Optional[float], increment_ms: float = 0.0,
                 byo_yomi_ms: float = 0.0, byo_yomi_stones: int = 0) -> None:
        self.main_ms = main_ms
        self.increment_ms = increment_ms
        self.byo_yomi_ms = byo_yomi_ms
        self.byo_yomi_stones = byo_yomi_stones
        self.remaining_ms = [main_ms or 0.0, main_ms or 0.0]
        self.stones_left = [0, 0]

    def set_left(self, side: int, ms: float, stones: int) -> None:
        """GTP time_left: main time left when stones == 0, else the byo-yomi period."""
        if self.main_ms is None:
            self.main_ms = ms
        self.remaining_ms[side] = ms
        self.stones_left[side] = stones

    def budget_ms(self, side: int, moves_to_go: int) -> float:
        """A share of what is left for this move, never the whole of it."""
        left = self.remaining_ms[side]
        if self.stones_left[side] > 0:  # Canadian byo-yomi: spread over the stones
            return max(1.0, left / self.stones_left[side] - SAFETY_MS)
        share = self._share(side, moves_to_go)
        if self._byo_yomi_follows():
            share = max(share, self.byo_yomi_ms / self.byo_yomi_stones * 0.8)
            return max(1.0, share - SAFETY_MS)
        return max(1.0, min(share, left * LAST_MOVES_SHARE) - SAFETY_MS)

    def last_moves(self, side: int, moves_to_go: int) -> bool:
        """Whether budget_ms gives this move half of what is left: the clock's last moves in
        main time (not when byo-yomi follows, whose periods start afresh)."""
        if not self.active or self.stones_left[side] > 0 or self._byo_yomi_follows():
            return False
        return self._share(side, moves_to_go) >= self.remaining_ms[side] * LAST_MOVES_SHARE

    def _share(self, side: int, moves_to_go: int) -> float:
        """Main time left spread over the moves to go, with most of the increment."""
        return self.remaining_ms[side] / max(1, moves_to_go) + 0.8 * self.increment_ms

    def _byo_yomi_follows(self) -> bool:
        return self.byo_yomi_stones > 0 and self.byo_yomi_ms > 0

    def spend(self, side: int, ms: float) -> None:
        if self.main_ms is None:
            return
        if self.stones_left[side] > 0:
            self.remaining_ms[side] -= ms
            self.stones_left[side] -= 1
            if self.stones_left[side] == 0:  # period done: a fresh one starts
                self.remaining_ms[side] = self.byo_yomi_ms
                self.stones_left[side] = self.byo_yomi_stones
            return
        self.remaining_ms[side] = self.remaining_ms[side] - ms + self.increment_ms
        if self.remaining_ms[side] <= 0 and self.byo_yomi_stones > 0:
            self.remaining_ms[side] = self.byo_yomi_ms
            self.stones_left[side] = self.byo_yomi_stones
