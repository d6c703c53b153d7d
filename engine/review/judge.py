"""Judging moves: what a score means in each game, how much a move lost, and its mark.

Scores are the engine's (`analyze`, protocol.md §6.5): from the side to act's view,
``|score| >= 999000`` a proven result.  A proven score is ``1000000 + 256 * margin - plies``
(margin = final height difference in DVONN, 1 in TZAAR; plies = DVONN moves or TZAAR actions
from the analysed position to the end), so it decodes exactly.

Each game has its own measure of loss, chosen by asking the game whether its results have a
margin (``result_margin`` in engine/rules.py):

* DVONN is decided by a margin, a height difference, and the evaluation is scaled so that 100
  is about one piece of height: losses are counted in **points** (score / 100; a proven result counts
  its exact final margin).
* TZAAR is only won or lost: the score becomes a **win chance** (logistic curve) and losses
  are counted in percentage points of it (a proven win 100 %, a proven loss 0 %).

In both games a move that gives up a proven win (the position after it is proven not won, or
no longer ahead) or walks into a proven loss from a position that was not behind is a blunder,
whatever the numbers; a move that leaves a proven win still ahead but unproven (a slower win
beyond the search's horizon) is not marked.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from ..games import GAMES

PROVEN_MIN = 999_000      # |score| from here on is a proven result (protocol.md §6.5)
DECIDED_MIN = 250_000     # from here on a decided, unproven result: TZAAR's search scores a
                          # position won in the current action 300,000 (csrc/tzaar/tzaar.h)
WIN = 1_000_000
MARGIN_UNIT = 256         # per point of final margin

MARKS = ("inaccuracy", "mistake", "blunder")
MARK_SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


@dataclass(frozen=True)
class Proof:
    """A proven result from the side to act's view."""
    won: bool
    plies: int
    margin: int


def proof(score: Optional[int]) -> Optional[Proof]:
    """The proven result a score stands for, or None for an estimate."""
    if score is None or abs(score) < PROVEN_MIN:
        return None
    rest = abs(score) - WIN
    margin = max(1, -(-rest // MARGIN_UNIT))      # rest = margin * 256 - plies, 0 <= plies < 256
    return Proof(won=score > 0, plies=margin * MARGIN_UNIT - rest, margin=margin)


def terminal_score(result: str, side: str) -> int:
    """The score of a finished game (result 'W+12', 'B+', '0') for side 'w' or 'b', in the
    engine's encoding of a proven result reached at ply 0."""
    if result in ("0", "") or result[0] not in "WB":
        return 0
    digits = result[2:]
    value = WIN + MARGIN_UNIT * (int(digits) if digits.isdigit() else 1)
    return value if result[0].lower() == side else -value


def _keeps_unproven_win(best: int, played: int, played_ahead: bool) -> bool:
    before = proof(best)
    return before is not None and before.won and proof(played) is None and played_ahead


class Judge:
    """How one game's scores are read, compared and marked."""

    def __init__(self, unit: str, thresholds: tuple[float, float, float],
                 shows_margin: bool) -> None:
        self.unit = unit                  # what a loss is counted in
        self.thresholds = thresholds      # inaccuracy, mistake, blunder: loss at least this
        self.shows_margin = shows_margin  # a proven result has a margin worth printing

    def value(self, score: int) -> float:
        """The score in this game's unit of loss, from the same side's view."""
        raise NotImplementedError

    def estimate_text(self, score: int) -> str:
        raise NotImplementedError

    def loss(self, best: int, played: int) -> float:
        """What the played move gave away, never below 0 (searches of two positions can
        disagree a little in the mover's favour).  Nothing when the best move wins by force
        and the played one is still winning without a proof: it may win later, by as much."""
        if _keeps_unproven_win(best, played, self.value(played) > self.value(0)):
            return 0.0
        return max(0.0, self.value(best) - self.value(played))

    def mark(self, best: int, played: int) -> Optional[str]:
        before, after = proof(best), proof(played)
        even = self.value(0)
        gave_up_win = before is not None and before.won and not (after and after.won) \
            and (after is not None or self.value(played) <= even)
        walked_into_loss = after is not None and not after.won and self.value(best) >= even
        if gave_up_win or walked_into_loss:
            return "blunder"
        loss = self.loss(best, played)
        mark = None
        for name, threshold in zip(MARKS, self.thresholds):
            if loss >= threshold:
                mark = name
        return mark

    def score_text(self, score: Optional[int]) -> str:
        """'+1.25', 'wins in 7 (by 12)', 'loses in 2', 'won (by 3)', 'wins' (decided, not
        proven: no count of moves), '-' for no score."""
        if score is None:
            return "-"
        found = proof(score)
        if found is None:
            return ("wins" if score > 0 else "loses") if abs(score) >= DECIDED_MIN \
                else self.estimate_text(score)
        if found.plies == 0:   # the game has ended
            text = "won" if found.won else "lost"
        else:
            text = f"{'wins' if found.won else 'loses'} in {found.plies}"
        return text + (f" (by {found.margin})" if self.shows_margin else "")

    def loss_text(self, loss: float) -> str:
        raise NotImplementedError

    # The evaluation graph: White's view.
    graph_label = ""

    def graph_value(self, score_white: int) -> float:
        return self.value(score_white)

    def graph_range(self, values: list[float]) -> tuple[float, float]:
        raise NotImplementedError

    def describe(self) -> str:
        """One line for reports: the unit and the thresholds."""
        names = ", ".join(f"{name} ≥ {self.loss_text(limit)}"
                          for name, limit in zip(MARKS, self.thresholds))
        return f"losses in {self.unit}: {names}"


class HeightJudge(Judge):
    """DVONN: points of height difference (score / 100; proven results their exact margin)."""

    graph_label = "evaluation for White (points of height)"

    def value(self, score: int) -> float:
        found = proof(score)
        if found is None:
            return score / 100
        return found.margin if found.won else -found.margin

    def estimate_text(self, score: int) -> str:
        return f"{score / 100:+.2f}"

    def loss_text(self, loss: float) -> str:
        return f"{loss:.1f}"

    def graph_range(self, values: list[float]) -> tuple[float, float]:
        reach = max([10.0] + [abs(v) for v in values]) * 1.1
        return -reach, reach


class WinChanceJudge(Judge):
    """TZAAR: the win chance 1 / (1 + exp(-score / scale)), in percent."""

    graph_label = "White's win chance (%)"

    def __init__(self, scale: float, thresholds: tuple[float, float, float]) -> None:
        super().__init__("percentage points of win chance", thresholds, shows_margin=False)
        self.scale = scale

    def value(self, score: int) -> float:
        found = proof(score)
        if found is not None:
            return 100.0 if found.won else 0.0
        return 100.0 / (1.0 + math.exp(-score / self.scale))

    def estimate_text(self, score: int) -> str:
        return f"{score / 100:+.2f} ({self.value(score):.0f} %)"

    def loss_text(self, loss: float) -> str:
        return f"{loss:.0f} %"

    def graph_range(self, values: list[float]) -> tuple[float, float]:
        return 0.0, 100.0


# Thresholds: in points of height for a game decided by a margin (DVONN), in percentage points
# of win chance for a game only won or lost (TZAAR).
MARGIN_JUDGE = HeightJudge(unit="points of height (100 score = 1 point)",
                           thresholds=(2.0, 4.0, 8.0), shows_margin=True)
WIN_CHANCE_JUDGE = WinChanceJudge(scale=600.0, thresholds=(10.0, 20.0, 30.0))


def judge_for(game: str) -> Judge:
    """The judge for a game of the registry: asked whether its results have a margin."""
    cls = GAMES.get(game)
    if cls is None:
        raise ValueError(f"unknown game {game!r}")
    return MARGIN_JUDGE if cls.result_margin else WIN_CHANCE_JUDGE
