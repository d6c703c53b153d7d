"""LittleGolem DVONN text: ``Event [..] White [..] Black [..] 1. g2 c1 ...`` (read and write)."""
from __future__ import annotations

import re
from typing import Union

from ...records.base import (
    LITTLEGOLEM_SITE,
    SIDES,
    GameRecord,
    RecordError,
    check_resigner,
    clip,
    decode_text,
    quote,
    require_game,
)
from .board import DVONN_BOARD
from .boardspace import SOURCE_BOARDSPACE
from .notation import (
    DVONN_POINTS,
    dvonn_canonical,
    dvonn_from_littlegolem,
    dvonn_to_boardspace,
    dvonn_to_littlegolem,
    is_placement,
)

SOURCE_LITTLEGOLEM_DVONN = "littlegolem-dvonn"  # GameRecord.source of a LittleGolem DVONN text record
_TAG_START = re.compile(r"\s*([^\W\d_]+)\s*\[")
MAX_TAGS = 1_000  # LittleGolem writes four
MAX_MOVES = 10_000  # a DVONN game has at most about 150


def _read_tags(text: str) -> tuple[dict[str, str], str]:
    """Leading 'Name [value]' pairs, and the rest of the text (the moves)."""
    tags: dict[str, str] = {}
    pos = count = 0
    while True:
        m = _TAG_START.match(text, pos)
        if not m:
            return tags, text[pos:].strip()
        end = text.find("]", m.end())
        if end < 0:
            raise RecordError(f"tag {quote(m.group(1))} is not closed with ']'")
        tags[m.group(1)] = text[m.end():end].strip()
        pos = end + 1
        count += 1
        if count > MAX_TAGS:
            raise RecordError(f"more than {MAX_TAGS} tags: not a game record")


def _numbered_tokens(movetext: str) -> list[str]:
    """Moves of 'N. white black N+1. ...' in order, checking the numbers."""
    tokens: list[str] = []
    number = 0
    in_pair = 0
    for word in movetext.split():
        if word.endswith(".") and word[:-1].isascii() and word[:-1].isdigit():
            if number and in_pair != 2:
                raise RecordError(f"move pair {number}. has {in_pair} move(s): "
                                  "only the last pair may have fewer than two")
            number += 1
            if len(word) > 12 or int(word[:-1]) != number:
                raise RecordError(f"move pair {clip(word)} found where {number}. was expected")
            in_pair = 0
            continue
        if number == 0:
            raise RecordError(f"{quote(word)} before the first move number '1.'")
        in_pair += 1
        if len(tokens) >= MAX_MOVES:
            raise RecordError(f"more than {MAX_MOVES} moves: not a game record")
        if in_pair > 2:
            raise RecordError(f"more than two moves after {number}.")
        tokens.append(word)
    if number and in_pair == 0:
        raise RecordError(f"no move after the last move number {number}.")
    return tokens


def read_littlegolem_dvonn(data: Union[str, bytes]) -> GameRecord:
    """A LittleGolem DVONN record; the forced 49th placement (omitted there) is put back."""
    tags, movetext = _read_tags(decode_text(data))
    record = GameRecord(game="dvonn", source=SOURCE_LITTLEGOLEM_DVONN,
                        white=tags.get("White"), black=tags.get("Black"),
                        event=tags.get("Event"))
    tokens = _numbered_tokens(movetext)
    for position, token in enumerate(tokens):
        where = f"LittleGolem move {position // 2 + 1}{'ab'[position % 2]} ({clip(token)})"
        if record.resigned_by is not None:
            raise RecordError(f"{where}: a move after the resignation")
        if token.lower() == "resign":
            record.resigned_by = SIDES[position % 2]
            continue
        number = len(record.moves) + 1
        try:
            move = dvonn_from_littlegolem(token)
        except RecordError as e:
            raise RecordError(f"{where}: {e}", move_number=number) from None
        placing = len(record.moves) < DVONN_POINTS - 1
        if is_placement(move) != placing:
            expected = ("a placement" if placing else "a stack move or pass "
                        "(LittleGolem never writes the forced 49th placement)")
            raise RecordError(f"{where}: expected {expected}", move_number=number)
        record.moves.append(move)
        if len(record.moves) == DVONN_POINTS - 1:
            record.moves.append(_forced_last_placement(record.moves))
    return record


def _forced_last_placement(placements: list[str]) -> str:
    seen: set[str] = set()
    for number, point in enumerate(placements, 1):
        if point in seen:
            raise RecordError(f"move {number}: {point} is placed on twice", move_number=number)
        seen.add(point)
    (empty,) = [p for p in DVONN_BOARD.names if p not in seen]
    return empty


def write_littlegolem_dvonn(record: GameRecord) -> str:
    """The LittleGolem one-line text; the 49th placement is left out, as there.  The format
    has no comment syntax (only `Name [value]` tags and numbered moves)."""
    require_game(record, "dvonn")
    moves = [dvonn_canonical(m) for m in record.moves]
    if len(moves) >= DVONN_POINTS:
        if not is_placement(moves[DVONN_POINTS - 1]):
            raise RecordError(f"move {DVONN_POINTS} must be the last placement",
                              move_number=DVONN_POINTS)
        del moves[DVONN_POINTS - 1]
    tokens = [dvonn_to_littlegolem(m) for m in moves]
    if record.resigned_by is not None:
        check_resigner(record.resigned_by, SIDES[len(tokens) % 2], len(record.moves))
        tokens.append("resign")
    pairs = [f"{i // 2 + 1}. {' '.join(tokens[i:i + 2])}" for i in range(0, len(tokens), 2)]
    header = _littlegolem_tags(record)
    return " ".join(header + pairs)


def _littlegolem_tags(record: GameRecord) -> list[str]:
    tags = [("Event", record.event), ("Site", LITTLEGOLEM_SITE),
            ("White", record.white), ("Black", record.black)]
    out = []
    for name, value in tags:
        if value is None:
            continue
        if "]" in value or "[" in value:
            raise RecordError(f"{name} [{clip(value)}]: brackets cannot be written in a tag")
        out.append(f"{name} [{value}]")
    return out




def source_notation(record: GameRecord, move: str) -> str:
    """A move (our notation) as the record's source writes it."""
    if record.source == SOURCE_BOARDSPACE:
        return dvonn_to_boardspace(move)
    return dvonn_to_littlegolem(move)


_SITE_ROWS = "edcba"  # the move form counts rows from the top: row 1 = 'e' ... row 5 = 'a'


def site_move(move: str) -> str:
    """A move in its record's notation as LittleGolem's move form takes it: two letters per
    point, the column and the row counted from the top: 'g2' -> 'gd', 'a2b2' -> 'adbd',
    'pass' -> 'pass'.  ValueError for anything else."""
    try:
        canonical = dvonn_canonical(move.strip().lower())
    except RecordError as e:
        raise ValueError(f"{move!r} is not a DVONN move: {e}") from None
    if canonical == "pass":
        return "pass"
    return "".join(point[0].lower() + _SITE_ROWS[int(point[1]) - 1] for point in canonical.split("-"))
