"""LittleGolem TZAAR SGF: ``(;FF[TZAAR]...POS[..];W[qmrl];B[okol-popn];...)`` (read and write)."""
from __future__ import annotations

import re
from typing import Optional, Sequence, Union

from ...records.base import (
    LITTLEGOLEM_SGF_SOURCE,
    SIDES,
    GameRecord,
    RecordError,
    check_resigner,
    clip,
    decode_text,
    require_game,
    side_name,
)
from ...records.sgf import SgfNode, parse_sgf, sgf_comment, sgf_escape
from ...rules import IllegalMove
from .notation import (
    littlegolem_turn,
    tzaar_opening_from_pos,
    tzaar_opening_to_pos,
    tzaar_to_littlegolem,
)
from .rules import TzaarGame

SOURCE_LITTLEGOLEM_TZAAR = "littlegolem-tzaar"  # GameRecord.source of a LittleGolem TZAAR SGF record

def read_littlegolem_tzaar(data: Union[str, bytes], nodes: Optional[list[SgfNode]] = None) -> GameRecord:
    """A LittleGolem TZAAR record; turns are replayed to tell captures from stackings."""
    if nodes is None:
        nodes = parse_sgf(decode_text(data))
    root = nodes[0] if nodes else SgfNode()
    if (root.get("FF") or "").strip().upper() != "TZAAR":
        raise RecordError("not a LittleGolem TZAAR record: the root has no FF[TZAAR]")
    pos = root.get("POS")
    record = GameRecord(game="tzaar", source=SOURCE_LITTLEGOLEM_TZAAR,
                        white=root.get("PW"), black=root.get("PB"), event=root.get("EV"),
                        date=root.get("DT"),
                        opening=tzaar_opening_from_pos(pos) if pos is not None else None)
    game = TzaarGame(opening=record.opening)
    for node in nodes[1:]:
        side, value = _tzaar_node_move(node, len(record.moves))
        if value is None:
            continue
        number = len(record.moves) + 1
        if record.resigned_by is not None:
            raise RecordError(f"turn {number}: a move after the resignation", move_number=number)
        if value.strip().lower() == "resign":
            record.resigned_by = side
            continue
        try:  # the rules decide whether a second action captures or stacks
            turn = game.move_text(game.play_text(littlegolem_turn(value)))
        except (RecordError, IllegalMove) as e:
            raise RecordError(f"turn {number} ({side_name(side)}, {clip(value)}): {e}",
                              move_number=number) from None
        record.moves.append(turn)
    return record


def _tzaar_node_move(node: SgfNode, turns_before: int) -> tuple[str, Optional[str]]:
    """(side, value) of a W[..]/B[..] node, checking that the sides alternate from White."""
    expected = SIDES[turns_before % 2]
    for ident, side in (("W", "w"), ("B", "b")):
        value = node.get(ident)
        if value is not None:
            if side != expected:
                raise RecordError(f"SGF line {node.line}: {ident}[{clip(value)}] but turn "
                                  f"{turns_before + 1} is {side_name(expected)}'s",
                                  move_number=turns_before + 1)
            return side, value
    return expected, None


def write_littlegolem_tzaar(record: GameRecord, comments: Optional[Sequence[str]] = None) -> str:
    """The LittleGolem SGF-like text; POS for a non-standard opening.  ``comments[k]`` (if
    given and not empty) becomes a ``C[...]`` on turn k's node."""
    require_game(record, "tzaar")
    root: list[tuple[str, Optional[str]]] = [("FF", "TZAAR")]
    if record.opening is not None:
        root.append(("VA", "RANDOM"))
    root += [("EV", record.event), ("PB", record.black), ("PW", record.white),
             ("DT", record.date)]
    if record.opening is not None:
        root.append(("POS", tzaar_opening_to_pos(record.opening)))
    root.append(("SO", LITTLEGOLEM_SGF_SOURCE))
    head = "".join(f"{k}[{sgf_escape(v)}]" for k, v in root if v is not None)
    nodes = [f"{'WB'[i % 2]}[{tzaar_to_littlegolem(turn)}]" + sgf_comment(comments, i)
             for i, turn in enumerate(record.moves)]
    if record.resigned_by is not None:
        check_resigner(record.resigned_by, SIDES[len(record.moves) % 2], len(record.moves))
        nodes.append(f"{record.resigned_by.upper()}[resign]")
    return "(;" + head + "".join(";" + n for n in nodes) + ")"




def source_notation(record: GameRecord, move: str) -> str:
    """A turn (our notation) as LittleGolem writes it."""
    return tzaar_to_littlegolem(move)


_SITE_MOVE = re.compile(r"[k-s]{4}(?:-(?:[k-s]{4}|pass))?")


def site_move(move: str) -> str:
    """A move in its record's notation as LittleGolem's move form takes it: the record
    notation itself ('qmrl', 'prqq-kplp', 'osoq-pass').  ValueError for anything else."""
    text = move.strip().lower()
    if not _SITE_MOVE.fullmatch(text):
        raise ValueError(f"{move!r} is not a LittleGolem TZAAR move")
    return text
