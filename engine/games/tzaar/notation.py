"""TZAAR move notation: ours and LittleGolem's (points, turns, the POS opening)."""
from __future__ import annotations

from ...records.base import RecordError, point_name, quote
from ...rules import IllegalMove
from .board import TZAAR_BOARD
from .rules import PIECES as TZAAR_PIECES
from .rules import Action, TzaarGame

_LG_ORIGIN = ord("o")   # LittleGolem letters k..s stand for -4..+4


def tzaar_point(text: str) -> str:
    """Canonical TZAAR point name ('g4' -> 'G4'); RecordError if not on the board."""
    return point_name(TZAAR_BOARD, text, "TZAAR", "A1..I5, E5 is the hole")


def tzaar_point_to_littlegolem(name: str) -> str:
    x, y = TZAAR_BOARD.coords[TZAAR_BOARD.by_name[tzaar_point(name)]]
    return chr(_LG_ORIGIN + x) + chr(_LG_ORIGIN + y)


def tzaar_point_from_littlegolem(text: str) -> str:
    if len(text) != 2:
        raise RecordError(f"{quote(text)} is not a LittleGolem TZAAR point (two letters k..s)")
    xy = (ord(text[0].lower()) - _LG_ORIGIN, ord(text[1].lower()) - _LG_ORIGIN)
    index = TZAAR_BOARD.index.get(xy)
    if index is None:
        raise RecordError(f"{quote(text)} is not a LittleGolem TZAAR point (oo is the hole)")
    return TZAAR_BOARD.names[index]


def _split_tzaar_action(action: str) -> tuple[str, str, str]:
    """'G4xC6' -> ('G4', 'x', 'C6'); also '+' (stack) and '-' (kind unknown)."""
    text = action.strip()
    for sign in "x+-":
        src, found, dst = text.lower().partition(sign)
        if found:
            return tzaar_point(src), sign, tzaar_point(dst)
    raise RecordError(f"{quote(action)} is not a TZAAR action (G4xC6, F2+F1 or pass)")


def tzaar_canonical(turn: str) -> str:
    """Our notation, canonical: 'G4xC6 F2+F1', 'H2xD1 pass', 'G4xC6'."""
    actions = []
    for action in turn.split():
        if action.lower() == "pass":
            actions.append("pass")
        else:
            src, sign, dst = _split_tzaar_action(action)
            actions.append(f"{src}{sign}{dst}")
    if not 1 <= len(actions) <= 2:
        raise RecordError(f"{quote(turn)} is not a TZAAR turn (one or two actions)")
    return " ".join(actions)


def tzaar_to_littlegolem(turn: str) -> str:
    """'G4xC6 F2+F1' -> 'qnmr-plpk': each action from+to, joined by '-'; 'pass' stays."""
    parts = []
    for action in tzaar_canonical(turn).split():
        if action == "pass":
            parts.append("pass")
        else:
            src, _, dst = _split_tzaar_action(action)
            parts.append(tzaar_point_to_littlegolem(src) + tzaar_point_to_littlegolem(dst))
    return "-".join(parts)


def littlegolem_turn(text: str) -> str:
    """A LittleGolem TZAAR turn in our notation, the second action's kind left to the
    rules ('-'): 'prqq-kplp' -> 'H2xD1 A1-B2' (the first action is always a capture)."""
    parts = text.strip().split("-")
    if not 1 <= len(parts) <= 2 or parts[0] == "pass":
        raise RecordError(f"{quote(text)} is not a LittleGolem TZAAR turn (e.g. prqq or prqq-kplp)")
    src, dst = _littlegolem_tzaar_action(parts[0])
    actions = [f"{src}x{dst}"]
    if len(parts) == 2:
        if parts[1].lower() == "pass":
            actions.append("pass")
        else:
            src2, dst2 = _littlegolem_tzaar_action(parts[1])
            actions.append(f"{src2}-{dst2}")
    return " ".join(actions)


def tzaar_from_littlegolem(text: str, cells: list[str], side: int) -> str:
    """A LittleGolem TZAAR turn in our notation, capture or stack decided by the rules.

    ``cells`` is the board before the turn (stacks in canonical point order),
    ``side`` the mover (0 White, 1 Black).  Legality is not checked here.
    """
    game = TzaarGame(cells)
    game.side = side
    try:
        turn = game.parse_move(littlegolem_turn(text))
    except IllegalMove as e:
        raise RecordError(str(e)) from None
    resolved = []
    for action in turn:  # the rules decide each '-'; the stack then moves on, whatever it meets
        if action.kind == "any":
            action = Action(game.kind_onto(action.dst), action.src, action.dst)
        resolved.append(action)
        if action.kind != "pass":
            cells = game.cells
            mover = cells[action.src]
            landed = mover if action.kind == "capture" else cells[action.dst] + mover
            cells[action.dst], cells[action.src] = landed, ""
    return game.move_text(tuple(resolved))


def _littlegolem_tzaar_action(text: str) -> tuple[str, str]:
    if len(text) != 4:
        raise RecordError(f"{quote(text)} is not a LittleGolem TZAAR action (four letters k..s)")
    return tzaar_point_from_littlegolem(text[:2]), tzaar_point_from_littlegolem(text[2:])


def tzaar_opening_from_pos(pos: str) -> list[str]:
    """LittleGolem POS[...] (60 letters, canonical point order) -> 60 one-letter stacks."""
    letters = pos.strip()
    if len(letters) != TZAAR_BOARD.size or not set(letters) <= set(TZAAR_PIECES):
        raise RecordError(f"POS must be {TZAAR_BOARD.size} letters from {TZAAR_PIECES!r}, "
                          f"got {len(letters)} characters")
    return list(letters)


def tzaar_opening_to_pos(opening: list[str]) -> str:
    if len(opening) != TZAAR_BOARD.size or any(len(s) != 1 or s not in TZAAR_PIECES
                                               for s in opening):
        raise RecordError("a POS opening is 60 single pieces (a b c A B C)")
    return "".join(opening)


