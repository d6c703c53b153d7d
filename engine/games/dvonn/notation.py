"""DVONN move notation: ours, LittleGolem's, Boardspace's and CodeCup's, and who moves when."""
from __future__ import annotations

from ...records.base import SIDES, RecordError, point_name, quote
from .board import DVONN_BOARD

DVONN_POINTS = DVONN_BOARD.size          # 49 placements fill the board


def dvonn_point(text: str) -> str:
    """Canonical DVONN point name ('d3' -> 'D3'); RecordError if not on the board."""
    return point_name(DVONN_BOARD, text, "DVONN", "A1..K5")


def dvonn_canonical(move: str) -> str:
    """Our notation, canonical: 'D3', 'E3-F3' or 'pass' (accepts any case, 'e3f3')."""
    text = move.strip()
    if text.lower() == "pass":
        return "pass"
    if "-" in text:
        src, _, dst = text.partition("-")
        return f"{dvonn_point(src)}-{dvonn_point(dst)}"
    if len(text) == 4:
        return f"{dvonn_point(text[:2])}-{dvonn_point(text[2:])}"
    return dvonn_point(text)


def dvonn_to_littlegolem(move: str) -> str:
    """'E3-F3' -> 'e3f3', 'D3' -> 'd3', 'pass' -> 'pass'."""
    return dvonn_canonical(move).replace("-", "").lower()


def dvonn_from_littlegolem(token: str) -> str:
    """'e3f3' -> 'E3-F3', 'd3' -> 'D3', 'pass' -> 'pass'."""
    text = token.strip()
    if text.lower() == "pass":
        return "pass"
    if len(text) == 4:
        return f"{dvonn_point(text[:2])}-{dvonn_point(text[2:])}"
    if len(text) == 2:
        return dvonn_point(text)
    raise RecordError(f"{quote(token)} is not a LittleGolem DVONN move (d3, e3f3 or pass)")


def _boardspace_point(name: str) -> str:
    return f"{name[0]} {name[1:]}"


def dvonn_to_boardspace(move: str) -> str:
    """The single Boardspace action for a move: 'dropb D 3', 'move E 3 F 3', 'pass'."""
    text = dvonn_canonical(move)
    if text == "pass":
        return "pass"
    if "-" in text:
        src, dst = text.split("-")
        return f"move {_boardspace_point(src)} {_boardspace_point(dst)}"
    return f"dropb {_boardspace_point(text)}"


def dvonn_from_boardspace(action: str) -> str:
    """'dropb D 3' -> 'D3', 'move E 3 F 3' -> 'E3-F3', 'pass' -> 'pass'."""
    words = action.split()
    if words == ["pass"]:
        return "pass"
    if len(words) == 3 and words[0] == "dropb":
        return dvonn_point(words[1] + words[2])
    if len(words) == 5 and words[0] == "move":
        return f"{dvonn_point(words[1] + words[2])}-{dvonn_point(words[3] + words[4])}"
    raise RecordError(f"{quote(action)} is not a Boardspace DVONN move action "
                      "(dropb C R, move C1 R1 C2 R2 or pass)")


def dvonn_mover(moves_before: int) -> str:
    """Who makes DVONN move number moves_before + 1: 'w' or 'b'.

    Placements alternate from White (so White makes the 49th), then White
    also makes the first stack move; passes are moves, so sides alternate.
    """
    if moves_before < DVONN_POINTS:
        return SIDES[moves_before % 2]
    return SIDES[(moves_before - DVONN_POINTS) % 2]


def is_placement(move: str) -> bool:
    return move != "pass" and "-" not in move




# CodeCup 2011 DVONN players: one move per line, a placement 'D3', a stack move 'E3F3', 'PASS'.

def codecup_to_move(line: str) -> str:
    """'E3F3' -> 'E3-F3', 'D3' -> 'D3', 'PASS' -> 'pass' (ValueError if not a move)."""
    text = line.strip()
    if "-" in text or " " in text:
        raise ValueError(f"{line!r} is not a CodeCup move (D3, E3F3 or PASS)")
    try:
        return dvonn_canonical(text)
    except RecordError as e:
        raise ValueError(f"{line!r} is not a CodeCup move: {e}") from None


def move_to_codecup(move: str) -> str:
    """'E3-F3' -> 'E3F3', 'D3' -> 'D3', 'pass' -> 'PASS'."""
    return dvonn_canonical(move).replace("-", "").upper()
