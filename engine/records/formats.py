"""Any record: format detection, reading, writing in the game's own format, replaying.

The top layer of engine/records; the game registry (engine/registry.py) says which game reads and
writes which format (GameSpec.record_formats) and how a game writes LittleGolem records.
"""
from __future__ import annotations

from typing import Callable, Optional, Sequence, Union

from .. import registry
from ..rules import BadPosition, IllegalMove
from .base import SIDES, GameRecord, RecordError, RecordFormat, decode_text, side_name
from .sgf import SgfNode, parse_sgf


def record_formats() -> list[RecordFormat]:
    """Every registered game's formats, in registration and detection order."""
    return [fmt for spec in registry.SPECS.values() for fmt in spec.record_formats]


def _format(source: str) -> Optional[RecordFormat]:
    return next((fmt for fmt in record_formats() if fmt.source == source), None)


def _detect(text: str) -> tuple[RecordFormat, Optional[list[SgfNode]]]:
    """The format of a record's text, and its SGF nodes when it is SGF."""
    stripped = text.lstrip()
    formats = record_formats()
    if stripped.startswith("("):
        root = parse_sgf(stripped)
        sgf = [fmt for fmt in formats if fmt.sgf]
        for fmt in sgf:
            if fmt.detect(stripped, root):
                return fmt, root
        raise RecordError(f"an SGF record that is neither {' nor '.join(fmt.name for fmt in sgf)}")
    plain = [fmt for fmt in formats if not fmt.sgf]
    for fmt in plain:
        if fmt.detect(stripped, None):
            return fmt, None
    raise RecordError("not a game record: expected an SGF '(;'"
                      + "".join(f" or {fmt.hint}" for fmt in plain))


def detect_format(text: str) -> str:
    """The source name (RecordFormat.source) of a record's format, from its text."""
    return _detect(text)[0].source


def identify(data: Union[str, bytes]) -> tuple[str, Callable[[], GameRecord]]:
    """A record's format (its RecordFormat.source) and a reader of that text, which reads it
    without detecting or parsing it again; RecordError when no format knows the text."""
    text = decode_text(data)
    fmt, nodes = _detect(text)
    return fmt.source, lambda: fmt.read(text, nodes)


def format_title(source: str) -> str:
    """How a report names a format ("LittleGolem TZAAR SGF"); the name itself if unknown."""
    fmt = _format(source)
    return fmt.title if fmt is not None else source


def format_suffix(source: str) -> str:
    """The file suffix of a format's records (".sgf" if unknown)."""
    fmt = _format(source)
    return fmt.suffix if fmt is not None else ".sgf"


def format_game(source: str) -> Optional[str]:
    """The game whose records a format holds (None if no game reads it)."""
    for spec in registry.SPECS.values():
        if any(fmt.source == source for fmt in spec.record_formats):
            return spec.name
    return None


def read_record(data: Union[str, bytes]) -> GameRecord:
    """Read a record in any supported format (str or raw bytes)."""
    text = decode_text(data)
    fmt, nodes = _detect(text)
    return fmt.read(text, nodes)


def _spec(game: str) -> registry.GameSpec:
    found = registry.SPECS.get(game)
    if found is None:
        raise RecordError(f"unknown game {game!r}")
    return found


def write_littlegolem(record: GameRecord) -> str:
    """The record in the LittleGolem format of its game."""
    spec = _spec(record.game)
    if spec.write_littlegolem is None:
        raise RecordError(f"{spec.title} has no record format")
    return spec.write_littlegolem(record)


def writes_comments(source: str) -> bool:
    """Whether records of this format (a RecordFormat.source) can carry comments."""
    fmt = _format(source)
    return fmt is not None and fmt.comments


def write_record(record: GameRecord, comments: Optional[Sequence[str]] = None) -> str:
    """The record in its own format (``record.source``), comments[k] on move k where the
    format has comments; it reads back as the same record."""
    fmt = _format(record.source)
    if fmt is None:
        raise RecordError(f"no writer for records of the format {record.source!r}")
    return fmt.write(record, comments)


def move_to_source_notation(record: GameRecord, move: str) -> str:
    """A move (our notation) as the record's source writes it."""
    spec = _spec(record.game)
    if spec.source_notation is None:
        raise RecordError(f"{spec.title} has no record format")
    return spec.source_notation(record, move)


def new_game(record: GameRecord):
    """A rules object at the record's starting position."""
    cls = _spec(record.game).rules
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
