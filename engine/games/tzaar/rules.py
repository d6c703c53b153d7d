"""TZAAR rules (ruleset tzaar-standard-2016-v1): the authority for every turn played.

State: one string per point, the stack bottom-to-top ('a' Tzaar, 'b' Tzarra,
'c' Tott for White; 'A', 'B', 'C' for Black; '' empty), the side to act and
whether White's single-capture opening turn is still to come.  A move is a
whole turn: a tuple of one or two actions ('capture'|'stack'|'pass', from, to).
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
from .board import TZAAR_BOARD as BOARD
from .openings import STOCK, fixed_opening, random_opening

POINTS = BOARD.size  # 60
TYPE_NAMES = {"a": "Tzaar", "b": "Tzarra", "c": "Tott"}
PIECES = "abcABC"
_RAYS = BOARD.rays
# The exact solver is tried once this few stacks remain (scripts/bench_solver).
SOLVE_STACKS = 18
_NAMES = BOARD.names
_COLUMN_LENGTHS = (5, 6, 7, 8, 8, 8, 7, 6, 5)


def colour_of(piece: str) -> int:
    return WHITE if piece.islower() else BLACK


class Action(NamedTuple):
    kind: str  # 'capture' | 'stack' | 'pass'
    src: int
    dst: int


PASS = Action("pass", -1, -1)
Turn = tuple  # of Action: one (opening turn, game-ending first capture) or two
_ACTION_RE = re.compile(r"^([A-I][1-9])\s*([X+:-])\s*([A-I][1-9])$")


class TzaarGame(GameBase[Turn]):
    name = "tzaar"
    title = "TZAAR"
    has_openings = True

    def __init__(self, opening: Optional[list[str]] = None) -> None:
        super().__init__()
        self.cells: list[str] = list(opening) if opening is not None else fixed_opening()
        self.side = WHITE
        self.opening_turn = True  # White's first turn: a single capture
        self.winner: Optional[int] = None
        self.reason: Optional[str] = None
        self.tops = {p: 0 for p in PIECES}
        for stack in self.cells:
            if stack:
                self.tops[stack[-1]] += 1

    @classmethod
    def start(cls, opening_seed: Optional[int] = None) -> "TzaarGame":
        return cls(None if opening_seed is None else random_opening(opening_seed))

    @classmethod
    def from_opening(cls, opening: Optional[list[str]]) -> "TzaarGame":
        return cls(opening)

    # --- queries ---------------------------------------------------------
    @property
    def over(self) -> bool:  # type: ignore[override]  # an attribute in GameBase
        return self.winner is not None

    @property
    def phase(self) -> str:
        return "opening" if self.opening_turn else "turn"

    def moves_to_go(self) -> int:
        stacks = sum(1 for s in self.cells if s)
        return max(5, stacks // 3 - 2)

    def endgame_small(self) -> bool:
        return sum(1 for s in self.cells if s) <= SOLVE_STACKS

    def score_text(self) -> str:
        tops = self.tops
        return (f"white tzaar {tops['a']} tzarra {tops['b']} tott {tops['c']} "
                f"black tzaar {tops['A']} tzarra {tops['B']} tott {tops['C']}")

    def is_start_position(self) -> bool:
        return self.opening_turn and self.side == WHITE and all(len(s) == 1 for s in self.cells)

    def record_opening(self) -> Optional[list[str]]:
        """The layout at the first position (call it there); None for the fixed one."""
        return None if self.cells == fixed_opening() else list(self.cells)

    def _first_stacks(self, src: int):
        """The first stack met along each of the six lines from src."""
        cells = self.cells
        for ray in _RAYS[src]:
            for p in ray:
                if cells[p]:
                    yield p
                    break

    def _iter_captures(self, side: int):
        cells = self.cells
        for src, stack in enumerate(cells):
            if stack and colour_of(stack[-1]) == side:
                height = len(stack)
                for dst in self._first_stacks(src):
                    target = cells[dst]
                    if colour_of(target[-1]) != side and len(target) <= height:
                        yield Action("capture", src, dst)

    def captures(self, side: int) -> list[Action]:
        return list(self._iter_captures(side))

    def has_capture(self, side: int) -> bool:
        return next(self._iter_captures(side), None) is not None

    def second_actions(self, side: int) -> list[Action]:
        """Captures, then stackings, then pass: every second action of a turn."""
        cells = self.cells
        captures, stacks = [], []
        for src, stack in enumerate(cells):
            if stack and colour_of(stack[-1]) == side:
                height = len(stack)
                for dst in self._first_stacks(src):
                    target = cells[dst]
                    if colour_of(target[-1]) == side:
                        stacks.append(Action("stack", src, dst))
                    elif len(target) <= height:
                        captures.append(Action("capture", src, dst))
        return captures + stacks + [PASS]

    def legal_moves(self) -> list[Turn]:
        if self.over:
            return []
        side = self.side
        firsts = self.captures(side)
        if self.opening_turn:
            return [(a,) for a in firsts]
        turns: list[Turn] = []
        for first in firsts:
            undo = self._do_action(first)
            if self.over:
                turns.append((first,))
            else:
                turns.extend((first, second) for second in self.second_actions(side))
            self._undo_action(first, undo)
        return turns

    def result(self) -> Optional[str]:
        """'W+' or 'B+' once the game is over (TZAAR has no draws and no margin)."""
        if self.winner is None:
            return None
        return "W+" if self.winner == WHITE else "B+"

    def visible_counts(self) -> dict[str, int]:
        return dict(self.tops)

    # --- actions ------------------------------------------------------------
    def _do_action(self, action: Action) -> tuple:
        """Apply one action and decide an immediate loss; return the undo record."""
        undo = (self.winner, self.reason)
        if action.kind == "pass":
            return undo + ("",)
        cells, tops = self.cells, self.tops
        mover, target = cells[action.src], cells[action.dst]
        tops[target[-1]] -= 1
        if action.kind == "capture":
            cells[action.dst] = mover
        else:
            tops[mover[-1]] -= 1
            cells[action.dst] = target + mover
            tops[mover[-1]] += 1
        cells[action.src] = ""
        if tops[target[-1]] == 0:
            loser = colour_of(target[-1])
            self.winner = loser ^ 1
            who = "White" if loser == WHITE else "Black"
            self.reason = f"{who} has no {TYPE_NAMES[target[-1].lower()]} on top of a stack"
        return undo + (target,)

    def _undo_action(self, action: Action, undo: tuple) -> None:
        self.winner, self.reason, target = undo
        if action.kind == "pass":
            return
        cells, tops = self.cells, self.tops
        landed = cells[action.dst]
        if action.kind == "capture":
            mover = landed
        else:
            mover = landed[len(target):]
        tops[landed[-1]] -= 1
        tops[mover[-1]] += 1
        tops[target[-1]] += 1
        cells[action.src] = mover
        cells[action.dst] = target

    # --- turns ---------------------------------------------------------------
    def _turn_record(self) -> tuple:
        return self.side, self.opening_turn, self.winner, self.reason

    def _hand_over(self) -> None:
        """End the turn: the other side acts, and loses now if it has no capture."""
        self.opening_turn = False
        if not self.over:
            self.side ^= 1
            if not self.has_capture(self.side):
                self.winner = self.side ^ 1
                who = "White" if self.side == WHITE else "Black"
                self.reason = f"{who} has no capture at the start of the turn"

    def _apply(self, turn: Turn) -> Any:
        record = self._turn_record()
        undos = [self._do_action(a) for a in turn]
        self._hand_over()
        return record, undos

    def _revert(self, turn: Turn, undo: Any) -> None:
        record, undos = undo
        self._undo_actions(turn, undos)
        self.side, self.opening_turn, self.winner, self.reason = record

    # --- text ---------------------------------------------------------------
    def action_text(self, action: Action) -> str:
        if action.kind == "pass":
            return "pass"
        sign = "x" if action.kind == "capture" else "+"
        return f"{_NAMES[action.src]}{sign}{_NAMES[action.dst]}"

    def move_text(self, turn: Turn) -> str:
        return " ".join(self.action_text(a) for a in turn)

    def parse_move(self, text: str) -> Turn:
        """Read a turn: one or two actions separated by white space.

        `x` marks a capture, `+` a stacking; `-` leaves the kind to the board
        (LittleGolem style).  Kinds are checked against the board in check_move.
        """
        tokens = text.split()
        if not 1 <= len(tokens) <= 2:
            raise UnreadableMove(f"cannot read {text!r} as a TZAAR turn: one or two actions "
                              "such as 'G4xC6 F2+F1', 'G4xC6 pass' or 'G4xC6'")
        return tuple(self._parse_action(t) for t in tokens)

    def _parse_action(self, token: str) -> Action:
        if not token.isascii():  # str.upper() would read a dotless 'ı' as 'I'
            raise UnreadableMove(f"cannot read {token!r} as a TZAAR action: not ASCII")
        t = token.upper()
        if t == "PASS":
            return PASS
        m = _ACTION_RE.match(t)
        if not m:
            raise UnreadableMove(f"cannot read {token!r} as a TZAAR action "
                                 "(capture G4xC6, stack F2+F1, or pass)")
        try:
            src, dst = BOARD.parse_point(m.group(1)), BOARD.parse_point(m.group(3))
        except ValueError as e:
            raise UnreadableMove(f"cannot read {token!r} as a TZAAR action: {e}") from None
        kind = {"X": "capture", ":": "capture", "+": "stack", "-": "any"}[m.group(2)]
        return Action(kind, src, dst)

    # --- legality --------------------------------------------------------------
    def check_move(self, turn: Turn) -> Turn:
        """The turn with '-' actions resolved to capture or stack; IllegalMove if illegal."""
        resolved, undos = self._apply_checked(turn)
        self._undo_actions(resolved, undos)
        return resolved

    def play_text(self, text: str) -> Turn:
        """Parse, check and play a turn in one pass over the board."""
        record = self._turn_record()
        resolved, undos = self._apply_checked(self.parse_move(text))
        self._hand_over()
        self.history.append((resolved, (record, undos)))
        return resolved

    def group_turns(self, tokens: list[str]):
        """Actions grouped into turns as the board requires: the opening turn and a
        capture that ends the game are whole turns; otherwise two actions."""
        i = 0
        while i < len(tokens):
            if self.opening_turn or i + 1 == len(tokens) or self.ends_game_at_once(tokens[i]):
                yield tokens[i]
                i += 1
            else:
                yield f"{tokens[i]} {tokens[i + 1]}"
                i += 2

    def ends_game_at_once(self, action_text: str) -> bool:
        """Is this a legal first capture that ends the game (a whole turn by itself)?"""
        try:
            first = self._check_first(self._parse_action(action_text), 2)
        except IllegalMove:
            return False
        undo = self._do_action(first)
        ends = self.over
        self._undo_action(first, undo)
        return ends

    def _apply_checked(self, turn: Turn) -> tuple:
        """Check and apply the turn's actions; on IllegalMove nothing stays applied."""
        if self.over:
            raise IllegalMove("the game is over")
        if not 1 <= len(turn) <= 2:
            raise IllegalMove("a turn is one or two actions")
        resolved: list[Action] = []
        undos: list[tuple] = []
        try:
            for index, action in enumerate(turn):
                if index == 0:
                    action = self._check_first(action, len(turn))
                else:
                    if self.over:
                        raise IllegalMove("the first capture ended the game: "
                                          "the turn has no second action")
                    action = self._check_second(action)
                resolved.append(action)
                undos.append(self._do_action(action))
            if not self.over and not self.opening_turn and len(turn) == 1:
                raise IllegalMove("a turn needs a second action after the capture: "
                                  "a capture, a stacking or pass")
        except IllegalMove:
            self._undo_actions(resolved, undos)
            raise
        return tuple(resolved), undos

    def _undo_actions(self, actions, undos) -> None:
        for action, undo in reversed(list(zip(actions, undos))):
            self._undo_action(action, undo)

    def _check_first(self, action: Action, length: int) -> Action:
        if self.opening_turn and length != 1:
            raise IllegalMove("White's opening turn is a single capture")
        if action.kind == "pass":
            raise IllegalMove("the first action of a turn must be a capture; it cannot be passed")
        action = self._check_line(action)
        if action.kind != "capture":
            raise IllegalMove(f"{self.action_text(action)}: the first action of a turn "
                              "must be a capture")
        return action

    def _check_second(self, action: Action) -> Action:
        if action.kind == "pass":
            return action
        return self._check_line(action)

    def kind_onto(self, dst: int) -> str:
        """What a '-' action onto dst is: a stacking onto an own stack, else a capture."""
        target = self.cells[dst]
        return "stack" if target and colour_of(target[-1]) == self.side else "capture"

    def _check_line(self, action: Action) -> Action:
        """Check one capture or stacking along a line; return it with its kind resolved."""
        if action.kind not in ("capture", "stack", "any"):
            raise IllegalMove(f"unknown action kind {action.kind!r}")
        cells = self.cells
        src, dst = action.src, action.dst
        sign = {"capture": "x", "stack": "+"}.get(action.kind, "-")
        text = f"{_NAMES[src]}{sign}{_NAMES[dst]}"
        mover = cells[src]
        if not mover:
            raise IllegalMove(f"{text}: {_NAMES[src]} is empty")
        if colour_of(mover[-1]) != self.side:
            raise IllegalMove(f"{text}: the stack on {_NAMES[src]} is not yours")
        for ray in _RAYS[src]:
            if dst in ray:
                between = ray[:ray.index(dst)]
                if any(cells[p] for p in between):
                    raise IllegalMove(f"{text}: a stack stands in the way; "
                                      "only the first stack on a line can be reached")
                break
        else:
            raise IllegalMove(f"{text}: {_NAMES[dst]} is not on a straight line from "
                              f"{_NAMES[src]} without crossing the hole")
        target = cells[dst]
        if not target:
            raise IllegalMove(f"{text}: {_NAMES[dst]} is empty; a move must end on a stack")
        own = colour_of(target[-1]) == self.side
        kind = action.kind if action.kind != "any" else self.kind_onto(dst)
        if kind == "capture":
            if own:
                raise IllegalMove(f"{text}: you cannot capture your own stack")
            if len(target) > len(mover):
                raise IllegalMove(f"{text}: a stack of height {len(mover)} cannot capture "
                                  f"one of height {len(target)}")
        elif not own:
            raise IllegalMove(f"{text}: you can stack only onto your own stack")
        return Action(kind, src, dst)

    # --- position string ---------------------------------------------------------
    def position(self) -> str:
        """`tzaar <side> <opening|turn> <column A>/<column B>/.../<column I>`."""
        return f"tzaar {'wb'[self.side]} {self.phase} {board_field(self.cells, _COLUMN_LENGTHS)}"

    @classmethod
    def from_position(cls, text: str) -> "TzaarGame":
        side, phase, cells = split_position(
            text, "tzaar", ("opening", "turn"), _COLUMN_LENGTHS, "nine columns of points",
            "the board needs nine columns of 5, 6, 7, 8, 8, 8, 7, 6 and 5 "
            "points (E without the hole) separated by '/', points by ','",
            lambda token: set(token) <= set(PIECES) and (token.islower() or token.isupper()),
            "a one-colour stack of a b c (White) or A B C (Black), bottom to top")
        pieces = "".join(cells)
        for p in PIECES:
            if pieces.count(p) > STOCK.count(p):
                raise BadPosition(f"too many {p!r} pieces: each side has 6 Tzaars, "
                                  "9 Tzarras and 15 Totts")
        if phase == "opening" and side != WHITE:
            raise BadPosition("the opening turn is White's")
        if phase == "opening" and any(len(s) != 1 for s in cells):
            raise BadPosition("before White's opening capture all 60 points hold one piece each")
        game = cls(cells)
        game.side = side
        game.opening_turn = phase == "opening"
        game._decide_static_result()
        return game

    # --- the Python player's evaluation ----------------------------------------
    def player_move_value(self, turn: Turn, side: int) -> float:
        self.push(turn)
        value = self._player_value(side)
        self.pop()
        return value

    def _player_value(self, side: int) -> float:
        if self.over:
            return PLAYER_WIN if self.winner == side else -PLAYER_WIN
        value = 0.0
        own, enemy = ("abc", "ABC") if side == WHITE else ("ABC", "abc")
        for mine, theirs in zip(own, enemy):
            # scarce types are what decide the game: the last few are worth most
            value += _scarcity(self.tops[mine]) - _scarcity(self.tops[theirs])
        for stack in self.cells:
            if stack:
                sign = 1 if stack[-1] in own else -1
                value += sign * min(len(stack), 4) * 2
        if not self.has_capture(self.side):
            value += PLAYER_WIN // 2 if self.side != side else -PLAYER_WIN // 2
        return value

    def _decide_static_result(self) -> None:
        """A set-up position may already be decided: a missing type, or no capture."""
        for side in (self.side ^ 1, self.side):
            for piece in ("abc" if side == WHITE else "ABC"):
                if self.tops[piece] == 0:
                    who = "White" if side == WHITE else "Black"
                    self.winner = side ^ 1
                    self.reason = f"{who} has no {TYPE_NAMES[piece.lower()]} on top of a stack"
                    return
        if not self.has_capture(self.side):
            who = "White" if self.side == WHITE else "Black"
            self.winner = self.side ^ 1
            self.reason = f"{who} has no capture at the start of the turn"

    # --- display -------------------------------------------------------------
    def board_text(self) -> str:
        """Columns A..I drawn upright, number 1 at the bottom of each column.

        Each point shows its top piece and height ('a2' = white Tzaar on a
        stack of two); '()' is the hole.
        """
        grid = {}
        for i, (x, y) in enumerate(BOARD.coords):
            grid[(x, 2 * y + x)] = _stack_label(self.cells[i])
        grid[(0, 0)] = "()"
        lines = []
        for v in range(8, -9, -1):
            row = "".join(f"{grid.get((x, v), ''):^5}" for x in range(-4, 5))
            lines.append(row.rstrip())
        lines.append("".join(f"{c:^5}" for c in "ABCDEFGHI").rstrip())
        return "\n".join(lines)


def _stack_label(stack: str) -> str:
    return f"{stack[-1]}{len(stack)}" if stack else "."


def _scarcity(count: int) -> float:
    return sum(100.0 / k for k in range(1, count + 1))
