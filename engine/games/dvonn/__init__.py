"""DVONN: rules, board, core codec, record formats, levels and book as one GameSpec (the registry loads it)."""
from __future__ import annotations

from ...records.base import RecordFormat
from ...registry import GameSpec
from .boardspace import SOURCE_BOARDSPACE, boardspace_player, read_boardspace_dvonn, write_boardspace_dvonn
from .codec import CODEC
from .levels import LEVELS
from .littlegolem import (
    SOURCE_LITTLEGOLEM_DVONN,
    _read_tags,
    read_littlegolem_dvonn,
    source_notation,
    write_littlegolem_dvonn,
)
from .rules import DvonnGame


def _is_boardspace(text, nodes) -> bool:
    games = {(n.get("GM") or "").strip().lower() for n in nodes}
    return "dvonn" in games or any(boardspace_player(n) for n in nodes)


def _write_littlegolem(record, comments=None) -> str:
    return write_littlegolem_dvonn(record)


def _is_littlegolem(text, nodes) -> bool:
    tags, movetext = _read_tags(text)
    return bool(tags) or movetext.startswith("1.")


BOARDSPACE = RecordFormat(
    source=SOURCE_BOARDSPACE, name="Boardspace DVONN", sgf=True, detect=_is_boardspace,
    read=lambda text, nodes: read_boardspace_dvonn(text, nodes=nodes),
    write=write_boardspace_dvonn, comments=True)
LITTLEGOLEM = RecordFormat(  # LittleGolem's DVONN text has no comment syntax
    source=SOURCE_LITTLEGOLEM_DVONN, name="LittleGolem DVONN", sgf=False, detect=_is_littlegolem,
    read=lambda text, nodes: read_littlegolem_dvonn(text),
    write=_write_littlegolem, comments=False,
    suffix=".txt", hint="LittleGolem 'Event [..] ... 1.'")

SPEC = GameSpec(rules=DvonnGame, core=CODEC, record_formats=(BOARDSPACE, LITTLEGOLEM),
                write_littlegolem=write_littlegolem_dvonn, source_notation=source_notation,
                book_file="dvonn-book.txt",  # the first placements (scripts/book)
                example_record="dvonn-demo.txt",
                levels=LEVELS)
