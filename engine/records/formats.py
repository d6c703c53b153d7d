"""Any record: format detection, reading, writing in the game's own format, replaying.

The top layer of engine/records; the game registry names each game's record
codec (GameBase.record_codec: a module with `write` and `source_notation`).
"""
from __future__ import annotations

import importlib
from typing import Optional, Sequence, Union

from ..games import GAMES
from ..rules import BadPosition, IllegalMove
from .base import (
    SIDES,
    SOURCE_BOARDSPACE,
    SOURCE_LITTLEGOLEM_DVONN,
    SOURCE_LITTLEGOLEM_TZAAR,
    GameRecord,
    RecordError,
    decode_text,
    side_name,
)
from .boardspace import boardspace_player, read_boardspace_dvonn, write_boardspace_dvonn
from .littlegolem_dvonn import _read_tags, read_littlegolem_dvonn, write_littlegolem_dvonn
from .littlegolem_tzaar import read_littlegolem_tzaar, write_littlegolem_tzaar
from .sgf import SgfNode, parse_sgf


def _detect(text: str) -> tuple[str, Optional[list[SgfNode]]]:
    """(SOURCE_* name, the SGF nodes when it is SGF) of a record's text."""
    stripped = text.lstrip()
    if stripped.startswith("("):
        root = parse_sgf(stripped)
        first = root[0] if root else SgfNode()
        if (first.get("FF") or "").strip().lower() == "tzaar":
            return SOURCE_LITTLEGOLEM_TZAAR, root
        games = {(n.get("GM") or "").strip().lower() for n in root}
        if "dvonn" in games or any(boardspace_player(n) for n in root):
            return SOURCE_BOARDSPACE, root
        raise RecordError("an SGF record that is neither Boardspace DVONN nor LittleGolem TZAAR")
    tags, movetext = _read_tags(stripped)
    if tags or movetext.startswith("1."):
        return SOURCE_LITTLEGOLEM_DVONN, None
    raise RecordError("not a game record: expected an SGF '(;' or LittleGolem 'Event [..] ... 1.'")


def detect_format(text: str) -> str:
    """SOURCE_* name of a record's format, from its text."""
    return _detect(text)[0]


def read_record(data: Union[str, bytes]) -> GameRecord:
    """Read a record in any supported format (str or raw bytes)."""
    text = decode_text(data)
    source, nodes = _detect(text)
    if source == SOURCE_LITTLEGOLEM_DVONN:
        return read_littlegolem_dvonn(text)
    reader = read_boardspace_dvonn if source == SOURCE_BOARDSPACE else read_littlegolem_tzaar
    return reader(text, nodes=nodes)


def _codec(game: str):
    cls = GAMES.get(game)
    if cls is None:
        raise RecordError(f"unknown game {game!r}")
    if cls.record_codec is None:
        raise RecordError(f"{cls.title} has no record format")
    return importlib.import_module(cls.record_codec)


def write_littlegolem(record: GameRecord) -> str:
    """The record in the LittleGolem format of its game."""
    return _codec(record.game).write(record)


# Each format's writer, and whether it can carry a comment per move (SGF's C[]; LittleGolem's
# DVONN text has no comment syntax).
_OWN_WRITERS = {
    SOURCE_BOARDSPACE: (write_boardspace_dvonn, True),
    SOURCE_LITTLEGOLEM_TZAAR: (write_littlegolem_tzaar, True),
    SOURCE_LITTLEGOLEM_DVONN: (lambda record, comments=None: write_littlegolem_dvonn(record),
                               False),
}


def writes_comments(source: str) -> bool:
    """Whether records of this format (a SOURCE_* name) can carry comments."""
    return _OWN_WRITERS.get(source, (None, False))[1]


def write_record(record: GameRecord, comments: Optional[Sequence[str]] = None) -> str:
    """The record in its own format (``record.source``), comments[k] on move k where the
    format has comments; it reads back as the same record."""
    writer = _OWN_WRITERS.get(record.source)
    if writer is None:
        raise RecordError(f"no writer for records of the format {record.source!r}")
    return writer[0](record, comments)


def move_to_source_notation(record: GameRecord, move: str) -> str:
    """A move (our notation) as the record's source writes it."""
    return _codec(record.game).source_notation(record, move)


def new_game(record: GameRecord):
    """A rules object at the record's starting position."""
    cls = GAMES.get(record.game)
    if cls is None:
        raise RecordError(f"unknown game {record.game!r}")
    try:
        return cls.from_opening(record.opening)
    except BadPosition as e:
        raise RecordError(str(e)) from None


def replay(record: GameRecord, upto: Optional[int] = None):
    """Play the first `upto` moves (all by default); return the game object.

    An illegal move raises RecordError naming the move number, the move and
    the rules' reason.
    """
    game = new_game(record)
    moves = record.moves if upto is None else record.moves[:upto]
    for number, move in enumerate(moves, 1):
        try:
            game.play_text(move)
        except IllegalMove as e:
            mover = side_name(SIDES[game.side])
            raise RecordError(f"move {number} ({move}, {mover}): {e}",
                              move_number=number) from None
    return game
