"""TZAAR: rules, board, openings, core codec, record format and levels as one GameSpec (the registry loads it)."""
from __future__ import annotations

from ...records.base import RecordFormat
from ...registry import GameSpec
from .codec import CODEC
from .levels import LEVELS
from .littlegolem import SOURCE_LITTLEGOLEM_TZAAR, read_littlegolem_tzaar, source_notation, write_littlegolem_tzaar
from .rules import TzaarGame


def _is_littlegolem(text, nodes) -> bool:
    first = nodes[0] if nodes else None
    return first is not None and (first.get("FF") or "").strip().lower() == "tzaar"


LITTLEGOLEM = RecordFormat(
    source=SOURCE_LITTLEGOLEM_TZAAR, name="LittleGolem TZAAR", sgf=True, detect=_is_littlegolem,
    read=lambda text, nodes: read_littlegolem_tzaar(text, nodes=nodes),
    write=write_littlegolem_tzaar, comments=True)

SPEC = GameSpec(rules=TzaarGame, core=CODEC, record_formats=(LITTLEGOLEM,),
                write_littlegolem=write_littlegolem_tzaar, source_notation=source_notation,
                example_record="game2552914.txt", levels=LEVELS)
