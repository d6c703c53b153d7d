"""What every game's rules share: errors, colours, the undo stack (engine/games/<game>/rules.py)."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, ClassVar, Generic, Hashable, Iterator, Optional, TypeVar

WHITE, BLACK = 0, 1
COLOUR_NAMES = ("white", "black")
COLOUR_LETTERS = ("w", "b")
PLAYER_WIN = 10 ** 6  # the Python player's value of a won game

M = TypeVar("M", bound=Hashable)


class IllegalMove(ValueError):
    """A move that the rules do not allow here; the message says why."""


class UnreadableMove(IllegalMove):
    """Text that is not a move of this game at all (`cannot read ...`)."""


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
    """One game: python-chess style legal_moves / push / pop over an explicit history.

    What the server, the search, the Python player and the book ask of a game's rules;
    the rest (core codec, record formats, GUI data) is its GameSpec (engine/registry.py).
    Subclasses keep their own state and
    implement _apply/_revert; the history holds (move, undo record) pairs so pop
    is exact.
    """

    # --- what the class declares --------------------------------------------
    name: ClassVar[str] = ""            # registry key, first word of a position string
    title: ClassVar[str] = ""           # the game's name in messages ("DVONN")
    has_openings: ClassVar[bool] = False  # newgame <name> [fixed | random <seed>]
    result_margin: ClassVar[bool] = False  # a result has a margin (W+12), not only won/lost
    symmetries: ClassVar[tuple[tuple[int, ...], ...]] = ()  # point maps that keep the rules

    # --- state every game keeps ------------------------------------------------
    cells: list[str]                    # one stack per point, bottom to top
    side: int                           # WHITE or BLACK: who acts now
    over: bool                          # no more moves (an attribute or a property)
    reason: Optional[str]               # why it is over, for `status` and `showboard`

    def __init__(self) -> None:
        self.history: list[tuple[M, object]] = []

    # --- to implement -------------------------------------------------
    @classmethod
    def start(cls, opening_seed: Optional[int] = None) -> "GameBase":
        """The starting position (a seeded random opening where the game has them)."""
        raise NotImplementedError

    @classmethod
    def from_opening(cls, opening: Optional[list[str]]) -> "GameBase":
        """The start with a record's opening layout (None: the standard start)."""
        if opening is not None:
            raise BadPosition(f"{cls.title} has no opening layouts")
        return cls.start()

    @classmethod
    def from_position(cls, text: str) -> "GameBase":
        """The game at a position string (BadPosition if it cannot be one)."""
        raise NotImplementedError

    def position(self) -> str:
        raise NotImplementedError

    @property
    def phase(self) -> str:
        raise NotImplementedError

    def result(self) -> Optional[str]:
        raise NotImplementedError

    def white_points(self) -> float:
        """A finished game's result for White: 1 won, 0.5 drawn, 0 lost."""
        result = self.result()
        if result is None:
            raise ValueError("the game is not over")
        return 0.5 if result == "0" else 1.0 if result.startswith("W") else 0.0

    def legal_moves(self) -> list[M]:
        raise NotImplementedError

    def check_move(self, move: M) -> M:
        """The move as push must be given it (kinds resolved); IllegalMove with the
        reason unless it is legal now."""
        raise NotImplementedError

    def parse_move(self, text: str) -> M:
        """A move read from text (not yet checked); UnreadableMove if it is not one."""
        raise NotImplementedError

    def move_text(self, move: M) -> str:
        raise NotImplementedError

    def _apply(self, move: M) -> Any:
        raise NotImplementedError

    def _revert(self, move: M, undo: Any) -> None:
        raise NotImplementedError

    def score_text(self) -> str:
        """The `score` reply: what each side has on the board."""
        raise NotImplementedError

    def board_text(self) -> str:
        raise NotImplementedError

    def is_start_position(self) -> bool:
        """Could a game begin here (so a record of it can be written)?"""
        raise NotImplementedError

    def record_opening(self) -> Optional[list[str]]:
        """The layout a record must name (None: the game's standard start)."""
        return None

    # opening book (engine/book.py): only for a game whose GameSpec names a book_file
    def book_key(self, perm: tuple[int, ...]) -> Optional[str]:
        """This position seen through the point map `perm` (one of `symmetries`) as a book
        key; None where the book has nothing (past the phase it covers)."""
        return None

    def map_move(self, move: M, perm: tuple[int, ...]) -> M:
        """`move` seen through the point map `perm`."""
        raise NotImplementedError

    # clock and players
    def moves_to_go(self) -> int:
        """How many more moves of ours the clock must still pay for (an estimate)."""
        raise NotImplementedError

    def forced_move(self) -> Optional[M]:
        """The only legal move when it is cheap to know (played at once, no clock)."""
        return None

    def endgame_small(self) -> bool:
        """Few enough pieces still in play that the exact solver (core.solve) may finish
        within a move's time: the search asks it first (option solver)."""
        return False

    def player_move_value(self, move: M, side: int) -> float:
        """The Python player's value of `move` for `side` (higher is better)."""
        raise NotImplementedError

    def group_turns(self, tokens: list[str]) -> Iterator[str]:
        """Move texts from a `replay` token list (one token per move by default)."""
        yield from tokens

    # --- shared ----------------------------------------------------------
    def push(self, move: M) -> None:
        """Play a move already checked (see check_move)."""
        self.history.append((move, self._apply(move)))

    def pop(self) -> M:
        move, undo = self.history.pop()
        self._revert(move, undo)
        return move

    @contextmanager
    def back_to_start(self) -> Iterator[list[M]]:
        """The game at its first position, with the moves played since, in order: the caller
        walks forward by pushing them, each seen from its own position (as its text must be);
        those not pushed again when the caller leaves, on an error too, are pushed then, so the
        game ends as it was."""
        moves = [move for move, _ in self.history]
        for _ in moves:
            self.pop()
        try:
            yield moves
        finally:
            while self.ply < len(moves):
                self.push(moves[self.ply])

    def play_text(self, text: str) -> M:
        """Parse, check and play one move given in text; return it as played."""
        move = self.check_move(self.parse_move(text))
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
