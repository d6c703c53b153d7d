"""DVONN rules (ruleset dvonn-standard-v1): the authority for every move played.

State: one string per point, the stack bottom-to-top ('W' white, 'B' black,
'R' red; '' empty), the number of placements made and the side to act.
Moves are small tuples: ('place', -1, point), ('move', from, to), ('pass', -1, -1).
"""
from __future__ import annotations

import re
from typing import Any, NamedTuple, Optional

from ...rules import (
    BLACK,
    PLAYER_WIN,
    WHITE,
    BadPosition,
    GameBase,
    IllegalMove,
    UnreadableMove,
    board_field,
    split_position,
)
from .board import DVONN_BOARD as BOARD

PIECES_PER_SIDE = 23
RED_PIECES = 3
POINTS = BOARD.size  # 49
COLOUR_PIECE = ("W", "B")
# The exact solver is tried once this few stacks can still move (either side):
# see scripts/bench_solver for how far from the end it finishes.
SOLVE_MOBILE_STACKS = 14


class Move(NamedTuple):
    kind: str  # 'place' | 'move' | 'pass'
    src: int
    dst: int


PASS = Move("pass", -1, -1)
_MOVE_RE = re.compile(r"^([A-K][1-5])\s*-?\s*([A-K][1-5])$")
_NEIGHBOURS = BOARD.neighbours
# Neighbours of each point in circular order (None off the board): consecutive
# entries are adjacent to each other, which makes the bridge test below exact.
_CIRCLE = ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1))
_RING = tuple(tuple(BOARD.index.get((x + dx, y + dy)) for dx, dy in _CIRCLE)
              for x, y in BOARD.coords)
_RAYS = BOARD.rays
_NAMES = BOARD.names


def _distance(a: int, b: int) -> int:
    """Steps between two points (DVONN's axes: x and y grow together along one line)."""
    (x1, y1), (x2, y2) = BOARD.coords[a], BOARD.coords[b]
    dx, dy = x1 - x2, y1 - y2
    return max(abs(dx), abs(dy)) if dx * dy > 0 else abs(dx) + abs(dy)


def placement_colour(k: int) -> str:
    """Piece placed by placement number k (0-based): three reds, then Black first."""
    if k < RED_PIECES:
        return "R"
    return COLOUR_PIECE[k % 2]


def placement_side(k: int) -> int:
    """Who makes placement k: White on even numbers, so White also makes the 49th."""
    return WHITE if k % 2 == 0 else BLACK


class DvonnGame(GameBase[Move]):
    name = "dvonn"
    title = "DVONN"
    result_margin = True                # the height difference
    symmetries = BOARD.symmetries       # the 180° rotation and the two mirror axes

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = [""] * POINTS
        self.placed = 0
        self.side = WHITE
        self.over = False  # set by _update_over after every change

    @classmethod
    def start(cls, opening_seed: Optional[int] = None) -> "DvonnGame":
        return cls()

    # --- queries ---------------------------------------------------------
    @property
    def phase(self) -> str:
        return "placement" if self.placed < POINTS else "movement"

    def book_key(self, perm: tuple[int, ...]) -> Optional[str]:
        """Placement positions only: one letter per point ('.' empty) in point order."""
        if self.placed >= POINTS:
            return None
        key = ["."] * POINTS
        for point, stack in enumerate(self.cells):
            if stack:
                key[perm[point]] = stack
        return "".join(key)

    def map_move(self, move: Move, perm: tuple[int, ...]) -> Move:
        return Move(move.kind, perm[move.src] if move.src >= 0 else -1,
                    perm[move.dst] if move.dst >= 0 else -1)

    def moves_to_go(self) -> int:
        if self.placed < POINTS:  # placement gets roughly a third of the game's time
            return (POINTS - self.placed) // 2 + 55
        # Front-load the stacking phase: the first stacking moves decide the game, the end
        # is proven quickly and clock left over at the end is wasted.
        stacks = sum(1 for s in self.cells if s)
        return max(2, stacks // 3 - 6)

    def forced_move(self) -> Optional[Move]:
        """The only stack move or pass (often a pass); placements are never forced early."""
        if self.placed == POINTS:
            moves = self.legal_moves()
            if len(moves) == 1:
                return moves[0]
        return None

    def endgame_small(self) -> bool:
        if self.placed < POINTS:
            return False
        movers = {m.src for side in (WHITE, BLACK) for m in self._iter_stack_moves(side)}
        return len(movers) <= SOLVE_MOBILE_STACKS

    def score_text(self) -> str:
        white, black = self.scores()
        return f"white {white} black {black}"

    def is_start_position(self) -> bool:
        return self.placed == 0 and self.side == WHITE and not any(self.cells)

    def is_surrounded(self, point: int) -> bool:
        neighbours = _NEIGHBOURS[point]
        cells = self.cells
        return len(neighbours) == 6 and all(cells[n] for n in neighbours)

    def _iter_stack_moves(self, side: int):
        cells = self.cells
        piece = COLOUR_PIECE[side]
        for src, stack in enumerate(cells):
            if not stack or stack[-1] != piece or self.is_surrounded(src):
                continue
            height = len(stack)
            for ray in _RAYS[src]:
                if len(ray) >= height and cells[ray[height - 1]]:
                    yield Move("move", src, ray[height - 1])

    def stack_moves(self, side: int) -> list[Move]:
        """Every stack move of `side` (placement over), ignoring whose turn it is."""
        return list(self._iter_stack_moves(side))

    def has_stack_move(self, side: int) -> bool:
        return next(self._iter_stack_moves(side), None) is not None

    def legal_moves(self) -> list[Move]:
        if self.over:
            return []
        if self.placed < POINTS:
            return [Move("place", -1, p) for p, s in enumerate(self.cells) if not s]
        moves = self.stack_moves(self.side)
        return moves if moves else [PASS]

    def scores(self) -> tuple[int, int]:
        """Heights of all white-topped and black-topped stacks."""
        white = black = 0
        for stack in self.cells:
            if stack:
                if stack[-1] == "W":
                    white += len(stack)
                elif stack[-1] == "B":
                    black += len(stack)
        return white, black

    def result(self) -> Optional[str]:
        """GTP-style result ('W+5', 'B+2', '0' for a draw) once the game is over."""
        if not self.over:
            return None
        white, black = self.scores()
        if white == black:
            return "0"
        return f"W+{white - black}" if white > black else f"B+{black - white}"

    @property
    def reason(self) -> Optional[str]:  # type: ignore[override]  # an attribute in GameBase
        return "neither side can move" if self.over else None

    # --- move text -------------------------------------------------------
    def move_text(self, move: Move) -> str:
        if move.kind == "place":
            return _NAMES[move.dst]
        if move.kind == "move":
            return f"{_NAMES[move.src]}-{_NAMES[move.dst]}"
        return "pass"

    def parse_move(self, text: str) -> Move:
        if not text.isascii():  # str.upper() would read a dotless 'ı' as 'I'
            raise UnreadableMove(f"cannot read {text!r} as a DVONN move: not ASCII")
        t = text.strip().upper()
        if t == "PASS":
            return PASS
        m = _MOVE_RE.match(t)
        if m:
            try:
                return Move("move", BOARD.parse_point(m.group(1)), BOARD.parse_point(m.group(2)))
            except ValueError as e:
                raise UnreadableMove(f"cannot read {text!r} as a DVONN move: {e}") from None
        try:
            return Move("place", -1, BOARD.parse_point(t))
        except ValueError:
            raise UnreadableMove(f"cannot read {text!r} as a DVONN move "
                              "(a point like D3, a stack move like E3-F3, or pass)") from None

    # --- legality --------------------------------------------------------
    def check_move(self, move: Move) -> Move:
        if self.over:
            raise IllegalMove("the game is over")
        if move.kind not in ("place", "move", "pass"):
            raise IllegalMove(f"unknown move kind {move.kind!r}")
        if self.placed < POINTS:
            self._check_placement(move)
        else:
            self._check_stack_move(move)
        return move

    def _check_placement(self, move: Move) -> None:
        if move.kind != "place":
            raise IllegalMove("placement phase: place a piece on an empty point (e.g. D3)")
        if self.cells[move.dst]:
            raise IllegalMove(f"{_NAMES[move.dst]} is occupied")

    def _check_stack_move(self, move: Move) -> None:
        if move.kind == "place":
            raise IllegalMove("all 49 pieces are placed: move a stack (e.g. E3-F3) or pass")
        if move.kind == "pass":
            if self.has_stack_move(self.side):
                raise IllegalMove("you may pass only when you have no stack move")
            return
        src, dst = move.src, move.dst
        stack = self.cells[src]
        text = self.move_text(move)
        if not stack:
            raise IllegalMove(f"{text}: {_NAMES[src]} is empty")
        if stack[-1] == "R":
            raise IllegalMove(f"{text}: a lone red piece cannot move")
        if stack[-1] != COLOUR_PIECE[self.side]:
            raise IllegalMove(f"{text}: the stack on {_NAMES[src]} is not yours")
        if self.is_surrounded(src):
            raise IllegalMove(f"{text}: {_NAMES[src]} is surrounded on all six sides")
        height = len(stack)
        for ray in _RAYS[src]:
            if dst in ray:
                distance = ray.index(dst) + 1
                if distance != height:
                    raise IllegalMove(f"{text}: a stack of height {height} moves exactly "
                                      f"{height} point{'s' if height > 1 else ''}, not {distance}")
                if not self.cells[dst]:
                    raise IllegalMove(f"{text}: {_NAMES[dst]} is empty; a stack must land on a stack")
                return
        raise IllegalMove(f"{text}: {_NAMES[dst]} is not in a straight line from {_NAMES[src]}")

    # --- the Python player's evaluation -------------------------------------
    def player_move_value(self, move: Move, side: int) -> float:
        if move.kind == "place":
            return self._placement_value(move.dst)
        self.push(move)
        value = self._player_value(side)
        self.pop()
        return value

    def _placement_value(self, point: int) -> float:
        reds = [p for p, s in enumerate(self.cells) if s == "R"]
        if self.placed < RED_PIECES:  # spread the reds: far from each other, off the edge
            spread = min((_distance(point, r) for r in reds), default=4)
            return spread + len(_NEIGHBOURS[point]) * 0.5
        near_red = min(_distance(point, r) for r in reds)
        edge = 6 - len(_NEIGHBOURS[point])  # edge pieces move first
        return -near_red + 0.6 * edge

    def _player_value(self, side: int) -> float:
        white, black = self.scores()
        material = (white - black) if side == WHITE else (black - white)
        if self.over:
            return PLAYER_WIN * (material > 0) - PLAYER_WIN * (material < 0) + material
        mobility = len(self.stack_moves(side)) - len(self.stack_moves(side ^ 1))
        return material + 0.25 * mobility

    # --- make / unmake ---------------------------------------------------
    def _apply(self, move: Move) -> Any:
        before = (self.side, self.over)
        removed: list[tuple[int, str]] = []
        moved_height = 0
        cells = self.cells
        if move.kind == "place":
            cells[move.dst] = placement_colour(self.placed)
            self.placed += 1
            self.side = placement_side(self.placed) if self.placed < POINTS else WHITE
        else:
            if move.kind == "move":
                moved = cells[move.src]
                moved_height = len(moved)
                cells[move.dst] += moved
                cells[move.src] = ""
                if "R" in moved or self._was_bridge(move.src):
                    removed = self._remove_disconnected()
            self.side ^= 1
        self._update_over()
        return before, removed, moved_height

    def _revert(self, move: Move, undo: Any) -> None:
        (side, over), removed, moved_height = undo
        cells = self.cells
        for point, stack in removed:
            cells[point] = stack
        if move.kind == "place":
            cells[move.dst] = ""
            self.placed -= 1
        elif move.kind == "move":
            landed = cells[move.dst]
            cells[move.src] = landed[-moved_height:]
            cells[move.dst] = landed[:-moved_height]
        self.side, self.over = side, over

    def _was_bridge(self, point: int) -> bool:
        """Could emptying `point` cut stacks off?  Only if its occupied
        neighbours form two or more separate arcs around it (all stacks were
        connected before, so one arc keeps every path open)."""
        cells = self.cells
        ring = _RING[point]
        occupied = [p is not None and bool(cells[p]) for p in ring]
        starts = sum(1 for i in range(6) if occupied[i] and not occupied[i - 1])
        return starts > 1

    def _remove_disconnected(self) -> list[tuple[int, str]]:
        """Remove every stack with no path of occupied points to a red piece."""
        cells = self.cells
        frontier = [p for p, s in enumerate(cells) if "R" in s]
        reached = set(frontier)
        while frontier:
            p = frontier.pop()
            for n in _NEIGHBOURS[p]:
                if cells[n] and n not in reached:
                    reached.add(n)
                    frontier.append(n)
        removed = [(p, s) for p, s in enumerate(cells) if s and p not in reached]
        for p, _ in removed:
            cells[p] = ""
        return removed

    def _update_over(self) -> None:
        self.over = (self.placed == POINTS
                     and not self.has_stack_move(self.side)
                     and not self.has_stack_move(self.side ^ 1))

    # --- position string ---------------------------------------------------
    def position(self) -> str:
        """`dvonn <side> <phase> <row1>/<row2>/.../<row5>`; see protocol.md."""
        phase = "place" if self.placed < POINTS else "move"
        return f"dvonn {'wb'[self.side]} {phase} {board_field(self.cells, ROW_LENGTHS)}"

    @classmethod
    def from_position(cls, text: str) -> "DvonnGame":
        side, phase, cells = split_position(
            text, "dvonn", ("place", "move"), ROW_LENGTHS, "five rows of points",
            "the board needs five rows of 9, 10, 11, 10 and 9 points "
            "separated by '/', points separated by ','",
            lambda token: set(token) <= set("WBR"), "a stack of W, B and R bottom to top")
        game = cls()
        game.cells = cells
        game.side = side
        pieces = "".join(cells)
        counts = {p: pieces.count(p) for p in "WBR"}
        if phase == "place":
            game._check_placement_position(counts)
        else:
            game._check_movement_position(counts)
        game._update_over()
        return game

    def _check_placement_position(self, counts: dict) -> None:
        placed = sum(counts.values())
        if any(len(s) > 1 for s in self.cells):
            raise BadPosition("no stacks exist before all 49 pieces are placed")
        if placed >= POINTS:
            raise BadPosition("a full board is in the move phase")
        expected = {p: 0 for p in "WBR"}
        for k in range(placed):
            expected[placement_colour(k)] += 1
        if counts != expected:
            raise BadPosition(f"after {placed} placements the board holds "
                              f"{expected['R']} red, {expected['W']} white and {expected['B']} black")
        if self.side != placement_side(placed):
            raise BadPosition(f"placement {placed + 1} is {'White' if placed % 2 == 0 else 'Black'}'s")
        self.placed = placed

    def _check_movement_position(self, counts: dict) -> None:
        if counts["R"] != RED_PIECES:
            raise BadPosition("red pieces are never removed: the move phase has all three")
        if counts["W"] > PIECES_PER_SIDE or counts["B"] > PIECES_PER_SIDE:
            raise BadPosition("each side has at most 23 pieces")
        if any(len(s) > 1 and s[-1] == "R" for s in self.cells):
            raise BadPosition("a red piece never moves on its own: it tops only a lone red")
        self.placed = POINTS
        if self._remove_disconnected():
            raise BadPosition("every stack must be connected to a red piece")

    # --- display -------------------------------------------------------------
    def board_text(self) -> str:
        """A hex drawing, row 5 on top; each point shows top colour and height.

        Every row names its first and last point; 'W3' is a white-topped stack
        of three, '*' marks a stack holding a red piece under its top.
        """
        lines = []
        start = 0
        rows = []
        for length in ROW_LENGTHS:
            rows.append((start, length))
            start += length
        for r in reversed(range(5)):
            start, length = rows[r]
            body = "".join(f"{_stack_label(s):>4}" for s in self.cells[start:start + length])
            span = f"{_NAMES[start]}-{_NAMES[start + length - 1]}"
            lines.append(f"{' ' * (abs(r - 2) * 2)}{body}".ljust(50) + span)
        return "\n".join(lines)


ROW_LENGTHS = (9, 10, 11, 10, 9)


def _stack_label(stack: str) -> str:
    """'.' for empty; top letter plus height ('W3'); an R in the stack is marked '*'."""
    if not stack:
        return "."
    label = f"{stack[-1]}{len(stack)}"
    return label + "*" if "R" in stack[:-1] else label
