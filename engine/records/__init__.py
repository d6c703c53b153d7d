"""Game records: read and write DVONN and TZAAR games played elsewhere.

Formats (see records/README.md in the shared data for every quirk):

* Boardspace DVONN SGF: a stream of user-interface actions, one per node
  (``; P0[17 dropb D 3]``), which engine/records/boardspace.py turns into whole moves.
* LittleGolem DVONN text: ``Event [..] White [..] Black [..] 1. g2 c1 ...``.
* LittleGolem TZAAR SGF: ``(;FF[TZAAR]...POS[..];W[qmrl];B[okol-popn];...)``.

Every reader returns a :class:`GameRecord` whose moves are in the engine's
notation (DVONN ``D3`` / ``E3-F3`` / ``pass``; TZAAR whole turns such as
``G4xC6 F2+F1``).  The writers produce the LittleGolem formats and Boardspace
SGF (:func:`write_record`: a record in its own format, with a comment per move
where the format has comments), and :func:`replay` plays a record through the
rules modules.

A malformed record raises :class:`RecordError`, naming the SGF action or the
move number at fault.

Layers, each importing only those above it in this list: base (RecordError,
GameRecord, text decoding), sgf, dvonn_notation (also CodeCup's) /
tzaar_notation, boardspace / littlegolem_dvonn / littlegolem_tzaar, formats
(detection, any record, replay; each game's codec is named by the game class).
"""
from __future__ import annotations

from .base import (
    GAME_FIELDS,
    LITTLEGOLEM_SGF_SOURCE,
    LITTLEGOLEM_SITE,
    SIDES,
    SOURCE_BOARDSPACE,
    SOURCE_LITTLEGOLEM_DVONN,
    SOURCE_LITTLEGOLEM_TZAAR,
    GameRecord,
    RecordError,
    decode_text,
)
from .boardspace import read_boardspace_dvonn, write_boardspace_dvonn
from .dvonn_notation import (
    CODECUP_GAME,
    DVONN_POINTS,
    codecup_to_move,
    dvonn_canonical,
    dvonn_from_boardspace,
    dvonn_from_littlegolem,
    dvonn_mover,
    dvonn_point,
    dvonn_to_boardspace,
    dvonn_to_littlegolem,
    move_to_codecup,
)
from .formats import (
    detect_format,
    move_to_source_notation,
    new_game,
    read_record,
    replay,
    write_littlegolem,
    write_record,
    writes_comments,
)
from .littlegolem_dvonn import read_littlegolem_dvonn, write_littlegolem_dvonn
from .littlegolem_tzaar import read_littlegolem_tzaar, write_littlegolem_tzaar
from .sgf import SgfNode, parse_sgf
from .tzaar_notation import (
    littlegolem_turn,
    tzaar_canonical,
    tzaar_from_littlegolem,
    tzaar_opening_from_pos,
    tzaar_opening_to_pos,
    tzaar_point,
    tzaar_point_from_littlegolem,
    tzaar_point_to_littlegolem,
    tzaar_to_littlegolem,
)

__all__ = [
    "GAME_FIELDS",
    "LITTLEGOLEM_SGF_SOURCE",
    "LITTLEGOLEM_SITE",
    "SIDES",
    "SOURCE_BOARDSPACE",
    "SOURCE_LITTLEGOLEM_DVONN",
    "SOURCE_LITTLEGOLEM_TZAAR",
    "GameRecord",
    "RecordError",
    "decode_text",
    "read_boardspace_dvonn",
    "CODECUP_GAME",
    "DVONN_POINTS",
    "codecup_to_move",
    "dvonn_canonical",
    "dvonn_from_boardspace",
    "dvonn_from_littlegolem",
    "dvonn_mover",
    "dvonn_point",
    "dvonn_to_boardspace",
    "dvonn_to_littlegolem",
    "move_to_codecup",
    "detect_format",
    "move_to_source_notation",
    "new_game",
    "read_record",
    "replay",
    "write_boardspace_dvonn",
    "write_littlegolem",
    "write_record",
    "writes_comments",
    "read_littlegolem_dvonn",
    "write_littlegolem_dvonn",
    "read_littlegolem_tzaar",
    "write_littlegolem_tzaar",
    "SgfNode",
    "parse_sgf",
    "littlegolem_turn",
    "tzaar_canonical",
    "tzaar_from_littlegolem",
    "tzaar_opening_from_pos",
    "tzaar_opening_to_pos",
    "tzaar_point",
    "tzaar_point_from_littlegolem",
    "tzaar_point_to_littlegolem",
    "tzaar_to_littlegolem",
]
