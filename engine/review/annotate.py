"""The reviewed game written back as a record in its own format, with the analysis of each
move as a comment where the format has comments (SGF: ``C[...]`` on the move's node).

LittleGolem's DVONN text (``1. d3 e3 2. ...``) has no comment syntax, so that record is
written with its moves only.  Every annotated record reads back (``loadrecord``) as the
same game."""
from __future__ import annotations

from .. import records
from .game import GameReview

NO_COMMENTS = ("LittleGolem DVONN text has no comments: the annotated record holds the moves "
               "only; the analysis is in the report")


def annotated_record(review: GameReview, suffix: str = "") -> tuple[str, str, str]:
    """(record text, file suffix, a note for the user or '')."""
    record = review.record
    comments = [review.comment(move) for move in review.moves]
    if record.source == records.SOURCE_LITTLEGOLEM_DVONN:
        return records.write_littlegolem_dvonn(record), suffix or ".txt", NO_COMMENTS
    if record.source == records.SOURCE_BOARDSPACE:
        return write_boardspace_dvonn(record, comments), suffix or ".sgf", ""
    return write_littlegolem_tzaar(record, comments), suffix or ".sgf", ""


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def write_littlegolem_tzaar(record: records.GameRecord, comments: list[str]) -> str:
    import dataclasses
    root = records.write_littlegolem_tzaar(dataclasses.replace(record, moves=[],
                                                               resigned_by=None))
    nodes = []
    for k, turn in enumerate(record.moves):
        comment = f"C[{_escape(comments[k])}]" if k < len(comments) and comments[k] else ""
        nodes.append(f";{'WB'[k % 2]}[{records.tzaar_to_littlegolem(turn)}]{comment}")
    if record.resigned_by is not None:
        nodes.append(f";{record.resigned_by.upper()}[resign]")
    return root[:-1] + "".join(nodes) + ")"


def write_boardspace_dvonn(record: records.GameRecord, comments: list[str]) -> str:
    """A Boardspace DVONN SGF: each move one action node (``dropb D 3``, ``move E 3 F 3``,
    ``pass``) carrying its comment, then ``done``."""
    head = ["GM[Dvonn]VV[1]"]
    if record.date is not None:
        head.append(f"DT[{_escape(record.date)}]")
    for ident, name in (("P0", record.white), ("P1", record.black)):
        if name is not None:
            head.append(f'{ident}[id "{_escape(name)}"]')
    if record.result_text is not None:
        head.append(f"RE[{_escape(record.result_text)}]")
    nodes = ["; P0[0 Start P0]"]
    seq = 1
    for k, move in enumerate(record.moves):
        player = "P" + str(records.SIDES.index(records.dvonn_mover(k)))
        comment = f"C[{_escape(comments[k])}]" if k < len(comments) and comments[k] else ""
        nodes.append(f"; {player}[{seq} {records.dvonn_to_boardspace(move)}]{comment}")
        nodes.append(f"; {player}[{seq + 1} done]")
        seq += 2
    if record.resigned_by is not None:
        nodes.append(f"; P{records.SIDES.index(record.resigned_by)}[{seq} resign]")
    return "(;\n" + "\n".join(head) + "\n" + "\n".join(nodes) + "\n)\n"
