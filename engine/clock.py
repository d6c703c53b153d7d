"""Game clocks and how much of them one move may use.

Holds what the controller told us (GTP time_settings / time_left, or a
millisecond game budget with increment) and keeps counting between updates.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

SAFETY_MS = 30  # pipe, process wake-up and rules check after the search stops
# The hard limit of `option timeman adaptive`: a move whose best move keeps changing may stretch
# its share up to this many shares, but never past this fraction of what is left.
HARD_SHARES = 2.0
HARD_FRACTION = 0.2
# Never budgeted by `option timeman adaptive`: on a loaded machine a search overruns its deadline
# by whole scheduler slices (100-300 ms a move at load 13 on 2 cores: the frozen baseline lost
# 7 of 42 5-second DVONN games on time that way), and a controller's clock may see more than ours.
RESERVE_FRACTION = 0.05  # of the main time
LAG_DECAY = 0.75         # per move, of the remembered overrun
LAG_MOVES = 10           # moves to go whose overruns are kept free (moves_to_go weighs, not counts)


@dataclass
class Clock:
    main_ms: Optional[float] = None        # None: no clock at all
    increment_ms: float = 0.0
    byo_yomi_ms: float = 0.0
    byo_yomi_stones: int = 0
    remaining_ms: list = field(default_factory=lambda: [0.0, 0.0])
    stones_left: list = field(default_factory=lambda: [0, 0])  # 0: still in main time
    lag_ms: float = 0.0  # recent overrun of a search past its deadline (adaptive time use)

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

    def budget_ms(self, side: int, moves_to_go: int, adaptive: bool = False) -> float:
        """A share of what is left for this move, never the whole of it.  Adaptive: the
        reserve is never budgeted, and each move to go is expected to overrun by lag_ms."""
        left = self.remaining_ms[side]
        if self.stones_left[side] > 0:  # Canadian byo-yomi: spread over the stones
            return max(1.0, left / self.stones_left[side] - SAFETY_MS)
        left = self._usable(side, moves_to_go, adaptive)
        share = left / max(1, moves_to_go) + 0.8 * self.increment_ms
        if self.byo_yomi_stones > 0 and self.byo_yomi_ms > 0:
            share = max(share, self.byo_yomi_ms / self.byo_yomi_stones * 0.8)
            return max(1.0, share - SAFETY_MS)
        return max(1.0, min(share, left * 0.5) - SAFETY_MS)

    def _usable(self, side: int, moves_to_go: int, adaptive: bool) -> float:
        """Main time left that moves may budget: all, or (adaptive) all but the reserve and
        the overruns expected of the moves to go."""
        if not adaptive:
            return self.remaining_ms[side]
        return (self.remaining_ms[side] - RESERVE_FRACTION * (self.main_ms or 0.0)
                - self.lag_ms * min(max(1, moves_to_go), LAG_MOVES))

    def hard_limit_ms(self, side: int, moves_to_go: int) -> float:
        """The adaptive hard limit: the most this move may take when its search is unstable;
        at least its budget.  In a byo-yomi period the share is all a move may take."""
        share = self.budget_ms(side, moves_to_go, adaptive=True)
        if self.stones_left[side] > 0:
            return share
        cap = self._usable(side, moves_to_go, True) * HARD_FRACTION - SAFETY_MS
        return max(share, min(share * HARD_SHARES, cap))

    def note_overrun(self, ms: float) -> None:
        """How far a search went past its deadline (negative: it stopped before): remembered,
        fading by LAG_DECAY a move, so later budgets leave room for as much."""
        self.lag_ms = max(ms, LAG_DECAY * self.lag_ms) if ms > 0 else LAG_DECAY * self.lag_ms

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
