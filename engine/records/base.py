"""The bottom layer of engine/records: record errors, the record type, text decoding.

Every other records module builds on this one; it imports nothing from them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence, Union

LITTLEGOLEM_SITE = "www.littlegolem.net"
LITTLEGOLEM_SGF_SOURCE = "https://www.littlegolem.net"

SIDES = ("w", "b")

# What a LittleGolem record can carry; GameRecord.same_game compares these.
GAME_FIELDS = ("game", "white", "black", "opening", "moves", "resigned_by")


class RecordError(ValueError):
    """A record that cannot be read, written or replayed; the message says where and why.

    ``move_number`` (1-based index into ``GameRecord.moves``) and ``action``
    (the Boardspace action sequence number) are set when known.
    """

    def __init__(self, message: str, *, move_number: Optional[int] = None,
                 action: Optional[int] = None) -> None:
        super().__init__(message)
        self.move_number = move_number
        self.action = action


@dataclass(frozen=True)
class RecordFormat:
    """One record format a game reads and writes (a game's GameSpec lists its own)."""
    source: str        # GameRecord.source of records of it ("littlegolem-tzaar")
    name: str          # "LittleGolem TZAAR": in messages
    sgf: bool          # an SGF format (detected from the parsed nodes) or plain text
    detect: Callable[[str, Optional[list[Any]]], bool]  # (text, SGF nodes or None): is it one?
    read: Callable[[str, Optional[list[Any]]], "GameRecord"]  # (text, SGF nodes or None)
    write: Callable[["GameRecord", Optional[Sequence[str]]], str]  # (record, comments)
    comments: bool     # can it carry a comment per move
    suffix: str = ".sgf"  # a file of it ends so
    hint: str = ""     # a text format: what its start looks like, for the message on no match

    @property
    def title(self) -> str:
        return f"{self.name} {'SGF' if self.sgf else 'text'}"


@dataclass
class GameRecord:
    """One game: who played, the opening, and every move in the engine's notation.

    ``moves`` holds DVONN moves (49 placements, then stack moves and passes;
    White makes both the 49th placement and the first stack move) or TZAAR
    whole turns.  ``opening`` is None for the standard layout (and always for
    DVONN), else the 60 TZAAR stacks in canonical point order.  The result is
    never stored: :func:`replay` computes it.
    """

    game: str                                   # 'dvonn' | 'tzaar'
    moves: list[str] = field(default_factory=list)
    white: Optional[str] = None
    black: Optional[str] = None
    opening: Optional[list[str]] = None
    resigned_by: Optional[str] = None           # 'w' | 'b' | None
    source: str = ""                            # its format: a RecordFormat.source
    date: Optional[str] = None
    event: Optional[str] = None
    result_text: Optional[str] = None           # free text as saved (Boardspace RE)

    def same_game(self, other: "GameRecord") -> bool:
        """Equal in everything that a LittleGolem record can carry over."""
        return all(getattr(self, f) == getattr(other, f) for f in GAME_FIELDS)



def decode_text(data: Union[str, bytes]) -> str:
    """Text of a record file: UTF-8 if it is valid UTF-8, else Latin-1.

    Boardspace also writes some characters as byte 0xF0 and two hex digits
    (Cyrillic: U+04xx); those are turned back into characters.  Moves are
    always ASCII, so a wrong guess can only garble free text.
    """
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    try:
        return data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError:
        return _unescape_boardspace(data.decode("latin-1"))


def _unescape_boardspace(text: str) -> str:
    """Byte 0xF0 (read as Latin-1 'ð') + two hex digits -> U+04xx."""
    head, *rest = text.split("\xf0")
    out = [head]
    for piece in rest:
        code = piece[:2]
        if len(code) == 2 and _is_hex(code):
            out.append(chr(0x400 + int(code, 16)) + piece[2:])
        else:
            out.append("\xf0" + piece)
    return "".join(out)


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in text)




QUOTE_LIMIT = 40  # a record error quotes at most this much of the file
MAX_RECORD_BYTES = 4 << 20  # the largest record file read (loadrecord, the tools, the GUI); a real one is a few kB


def quote(text: str) -> str:
    """repr() of a piece of a record, cut short: errors never echo whole files."""
    if len(text) <= QUOTE_LIMIT:
        return repr(text)
    return repr(text[:QUOTE_LIMIT]) + f"... ({len(text)} characters)"


def clip(text: str) -> str:
    """A piece of a record as it stands (no quotes), cut short like quote()."""
    return text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT] + "..."


def point_name(board, text: str, game: str, names: str) -> str:
    """Canonical point name on a board ('d3' -> 'D3'); RecordError if there is none."""
    name = text.strip().upper()
    if name not in board.by_name:
        raise RecordError(f"{quote(text)} is not a {game} point ({names})")
    return name


def side_name(side: str) -> str:
    return "White" if side == "w" else "Black"


def require_game(record: GameRecord, game: str) -> None:
    if record.game != game:
        raise RecordError(f"a {record.game} record cannot be written as {game}")


def check_resigner(resigned_by: str, to_move: str, moves: int) -> None:
    if resigned_by not in SIDES:
        raise RecordError(f"resigned_by must be 'w' or 'b', not {resigned_by!r}")
    if resigned_by != to_move:
        raise RecordError(f"{side_name(resigned_by)} resigns after move {moves}, but it is "
                          f"{side_name(to_move)}'s turn: LittleGolem writes a resignation "
                          "in the resigner's turn")
