"""Game records: reading, writing and replaying what no one game owns.

Each game's formats and notations live in its folder (engine/games/<game>/: DVONN's
Boardspace SGF and LittleGolem text, TZAAR's LittleGolem SGF) and are named by its GameSpec;
this package detects a record's format by asking the registry, reads and writes any record
through it, and replays one through the game's rules.  Every reader raises RecordError with
a one-line message naming the SGF action or the move number at fault.

Layers, each importing only those above it in this list: base (RecordError, GameRecord,
RecordFormat, text decoding), sgf, the games' record modules, formats (detection, any
record, replay), replayed (a record replayed once, and `ended`, the one test of a game's end).
"""
from __future__ import annotations

from .base import (
    GAME_FIELDS,
    LITTLEGOLEM_SGF_SOURCE,
    LITTLEGOLEM_SITE,
    MAX_RECORD_BYTES,
    SIDES,
    GameRecord,
    RecordError,
    RecordFormat,
    decode_text,
)
from .formats import (  # noqa: I001 - after base and sgf: the games' record modules import those
    detect_format,
    format_game,
    format_suffix,
    format_title,
    identify,
    move_to_source_notation,
    new_game,
    read_record,
    record_formats,
    replay,
    write_littlegolem,
    write_record,
    writes_comments,
)
from .replayed import Played, ended, played, result_text, side_to_move_name
from .sgf import SgfNode, parse_sgf

__all__ = [
    "GAME_FIELDS",
    "LITTLEGOLEM_SGF_SOURCE",
    "LITTLEGOLEM_SITE",
    "MAX_RECORD_BYTES",
    "SIDES",
    "GameRecord",
    "RecordError",
    "RecordFormat",
    "decode_text",
    "SgfNode",
    "parse_sgf",
    "detect_format",
    "format_game",
    "format_suffix",
    "format_title",
    "identify",
    "move_to_source_notation",
    "new_game",
    "read_record",
    "record_formats",
    "replay",
    "write_littlegolem",
    "write_record",
    "writes_comments",
    "Played",
    "ended",
    "played",
    "result_text",
    "side_to_move_name",
]
