"""A third game, registered from outside the engine: seven points, placement only.

White and Black place one stone each turn on an empty point of a seven-point hexagon
(A1 B1 / A2 B2 C2 / B3 C3, B2 the centre); when the board is full, the larger connected
group wins by the difference ("W+2", "B+1", "0" drawn).  It has rules and a GameSpec only:
no compiled core and no record format, so the engine plays it with the Python player.
Importing this module registers it: ``python -m engine --game-module tests.games.tiny_hex``.
"""
from __future__ import annotations

from typing import Optional

from engine.games import GameSpec, register
from engine.hexgrid import make_board
from engine.rules import (
    PLAYER_WIN,
    WHITE,
    BadPosition,
    GameBase,
    IllegalMove,
    UnreadableMove,
    board_field,
    split_position,
)

ROWS = (("A1", "B1"), ("A2", "B2", "C2"), ("B3", "C3"))
BOARD = make_board(((ord(name[0]) - ord("A"), int(name[1]) - 1, name) for row in ROWS for name in row),
                   ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)))
STONES = "wb"  # a point holds at most one stone: White's 'w' or Black's 'b'


class TinyHexGame(GameBase[int]):
    name = "tinyhex"
    title = "Tiny Hex"

    def __init__(self, cells: Optional[list[str]] = None, side: int = WHITE) -> None:
        super().__init__()
        self.cells = list(cells) if cells is not None else [""] * BOARD.size
        self.side = side
        self.reason: Optional[str] = None

    @classmethod
    def start(cls, opening_seed: Optional[int] = None) -> "TinyHexGame":
        return cls()

    @classmethod
    def from_position(cls, text: str) -> "TinyHexGame":
        side, _, cells = split_position(
            text, cls.name, ("placement", "over"), tuple(len(row) for row in ROWS),
            "board", "the board is 2,3,2 points in rows 1 to 3", lambda s: s in STONES,
            "w or b")
        placed = sum(1 for c in cells if c)
        if sum(1 for c in cells if c == "w") - sum(1 for c in cells if c == "b") != placed % 2 \
                or side != placed % 2:
            raise BadPosition("White places first: the stones and the side to act disagree")
        return cls(cells, side)

    def position(self) -> str:
        return f"{self.name} {'wb'[self.side]} {self.phase} " \
               f"{board_field(self.cells, tuple(len(row) for row in ROWS))}"

    @property
    def over(self) -> bool:  # type: ignore[override]  # an attribute in GameBase
        return all(self.cells)

    @property
    def phase(self) -> str:
        return "over" if self.over else "placement"

    def group(self, colour: str) -> int:
        """The size of the colour's largest connected group."""
        seen: set[int] = set()
        best = 0
        for start in range(BOARD.size):
            if self.cells[start] != colour or start in seen:
                continue
            todo, size = [start], 0
            seen.add(start)
            while todo:
                point = todo.pop()
                size += 1
                for n in BOARD.neighbours[point]:
                    if self.cells[n] == colour and n not in seen:
                        seen.add(n)
                        todo.append(n)
            best = max(best, size)
        return best

    def result(self) -> Optional[str]:
        if not self.over:
            return None
        margin = self.group("w") - self.group("b")
        return "0" if margin == 0 else f"W+{margin}" if margin > 0 else f"B+{-margin}"

    def legal_moves(self) -> list[int]:
        return [] if self.over else [i for i, c in enumerate(self.cells) if not c]

    def parse_move(self, text: str) -> int:
        try:
            return BOARD.parse_point(text)
        except ValueError:
            raise UnreadableMove(f"cannot read {text!r} as a move: a point such as B2") from None

    def check_move(self, move: int) -> int:
        if self.cells[move]:
            raise IllegalMove(f"{BOARD.names[move]} is occupied")
        return move

    def move_text(self, move: int) -> str:
        return BOARD.names[move]

    def _apply(self, move: int) -> None:
        self.cells[move] = STONES[self.side]
        self.side ^= 1
        self.reason = "the board is full" if self.over else None

    def _revert(self, move: int, undo: object) -> None:
        self.cells[move] = ""
        self.side ^= 1
        self.reason = None

    def score_text(self) -> str:
        return f"white {self.group('w')} black {self.group('b')}"

    def board_text(self) -> str:
        return "\n".join(" " * (3 - len(row)) + " ".join(self.cells[BOARD.by_name[n]] or "." for n in row)
                         for row in ROWS)

    def is_start_position(self) -> bool:
        return not any(self.cells)

    def moves_to_go(self) -> int:
        return max(1, sum(1 for c in self.cells if not c) // 2)

    def player_move_value(self, move: int, side: int) -> float:
        """Join the most stones of one's own colour (a whole board that wins: PLAYER_WIN)."""
        self.push(move)
        try:
            result = self.result()
            if result is not None and result != "0" and result[0] == "WB"[side]:
                return PLAYER_WIN
            return self.group(STONES[side]) - self.group(STONES[side ^ 1]) / 10
        finally:
            self.pop()


SPEC = register(GameSpec(rules=TinyHexGame))
