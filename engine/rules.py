"""What both games' rules modules share: errors, colours, the undo stack."""
from __future__ import annotations

from typing import Generic, Hashable, TypeVar

WHITE, BLACK = 0, 1
COLOUR_NAMES = ("white", "black")
COLOUR_LETTERS = ("w", "b")

M = TypeVar("M", bound=Hashable)


class IllegalMove(ValueError):
    """A move that the rules do not allow here; the message says why."""


class BadPosition(ValueError):
    """A position string that cannot describe a reachable game state."""


def parse_colour(text: str) -> int:
    """'w', 'white', 'b', 'black' (any case) to WHITE/BLACK."""
    t = text.strip().lower()
    if t in ("w", "white"):
        return WHITE
    if t in ("b", "black"):
        return BLACK
    raise ValueError(f"not a colour: {text!r} (expected w, white, b or black)")


def board_field(cells: list[str], groups: tuple[int, ...]) -> str:
    """Stacks in point order: '-' for empty, ',' between points, '/' between rows or columns."""
    parts, start = [], 0
    for length in groups:
        parts.append(",".join(s or "-" for s in cells[start:start + length]))
        start += length
    return "/".join(parts)


def split_position(text: str, game: str, phases: tuple[str, str], groups: tuple[int, ...],
                   board_help: str, shape_help: str, is_stack, stack_help: str
                   ) -> tuple[int, str, list[str]]:
    """(side, phase, cells) of `<game> <w|b> <phase> <board>`; `is_stack` says which
    tokens other than '-' (empty) the game accepts, `stack_help` what they look like."""
    fields = text.split()
    if len(fields) != 4 or fields[0].lower() != game:
        raise BadPosition(f"expected: {game} <w|b> <{'|'.join(phases)}> <{board_help}>")
    _, side_text, phase, board = fields
    if side_text not in ("w", "b"):
        raise BadPosition(f"side must be w or b, not {side_text!r}")
    if phase not in phases:
        raise BadPosition(f"phase must be {' or '.join(phases)}, not {phase!r}")
    parts = board.split("/")
    if [len(part.split(",")) for part in parts] != list(groups):
        raise BadPosition(shape_help)
    cells = []
    for token in ",".join(parts).split(","):
        if token == "-":
            cells.append("")
        elif token and is_stack(token):
            cells.append(token)
        else:
            raise BadPosition(f"bad point {token!r}: '-' or {stack_help}")
    return (WHITE if side_text == "w" else BLACK), phase, cells


class GameBase(Generic[M]):
    """python-chess style: legal_moves / push / pop over an explicit history.

    Subclasses keep their own state and implement _apply/_revert; the
    history holds (move, undo record) pairs so pop is exact.
    """

    name: str = ""

    def __init__(self) -> None:
        self.history: list[tuple[M, object]] = []

    # --- to implement -------------------------------------------------
    def legal_moves(self) -> list[M]:
        raise NotImplementedError

    def check_move(self, move: M) -> None:
        """Raise IllegalMove with the reason unless move is legal now."""
        raise NotImplementedError

    def parse_move(self, text: str) -> M:
        raise NotImplementedError

    def move_text(self, move: M) -> str:
        raise NotImplementedError

    def _apply(self, move: M) -> object:
        raise NotImplementedError

    def _revert(self, move: M, undo: object) -> None:
        raise NotImplementedError

    # --- shared ----------------------------------------------------------
    def push(self, move: M) -> None:
        """Play a move already known to be legal (see check_move)."""
        self.history.append((move, self._apply(move)))

    def pop(self) -> M:
        move, undo = self.history.pop()
        self._revert(move, undo)
        return move

    def play_text(self, text: str) -> M:
        """Parse, check and play one move given in text; return it."""
        move = self.parse_move(text)
        self.check_move(move)
        self.push(move)
        return move

    @property
    def ply(self) -> int:
        return len(self.history)


def perft(game: GameBase, depth: int) -> int:
    """Leaf count `depth` moves ahead (TZAAR: whole turns); the core must agree."""
    if depth == 0:
        return 1
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        game.push(move)
        total += perft(game, depth - 1)
        game.pop()
    return total
