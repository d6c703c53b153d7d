"""A record replayed once: the record with the game object its moves reach, so that every
reader (the bridge, the LittleGolem bot) asks "has the game ended", "whose move" and "how did
it end" of one value instead of replaying the record again."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import SIDES, GameRecord, side_name
from .formats import replay


def ended(record: GameRecord, game: Any) -> bool:
    """Whether the game is over: a resignation in the record, or the end by the rules of the
    game object its moves reach.  The one place this is decided."""
    return record.resigned_by is not None or game.over


def result_text(record: GameRecord, game: Any) -> str:
    """How an ended game ended: 'White resigned', or the rules' result and reason."""
    if record.resigned_by is not None:
        return f"{side_name(record.resigned_by)} resigned"
    return f"{game.result()} ({game.reason})"


def side_to_move_name(side: int) -> str:
    """'White' or 'Black' for a rules object's side to move (0 or 1)."""
    return side_name(SIDES[side])


@dataclass(frozen=True)
class Played:
    """A record and the game object at its last position (replayed once by `played`).
    `side` is the side to move there, kept apart from `game`, which a caller may play on."""

    record: GameRecord
    game: Any
    side: int
    ended: bool

    @property
    def ply(self) -> int:
        return len(self.record.moves)

    def result_text(self) -> str:
        return result_text(self.record, self.game)


def played(record: GameRecord) -> Played:
    """Replay the record once (RecordError names the move at fault)."""
    game = replay(record)
    return Played(record, game, game.side, ended(record, game))
