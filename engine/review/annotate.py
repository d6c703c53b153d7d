"""The reviewed game written back as a record in its own format, with the analysis of each
move as a comment where the format has comments (SGF: ``C[...]`` on the move's node; see
records.write_record).

LittleGolem's DVONN text (``1. d3 e3 2. ...``) has no comment syntax, so that record is
written with its moves only.  Every annotated record reads back (``loadrecord``) as the
same game."""
from __future__ import annotations

from .. import records
from .analysis import ReviewError
from .game import GameReview


def annotated_record(review: GameReview, suffix: str = "") -> tuple[str, str, str]:
    """(record text, file suffix, a note for the user or '')."""
    record = review.record
    comments = [review.comment(move) for move in review.moves]
    try:
        text = records.write_record(record, comments)
    except records.RecordError as e:
        raise ReviewError(f"cannot write the annotated record: {e}") from None
    note = "" if records.writes_comments(record.source) else (
        "this record format has no comments: the annotated record holds the moves only; "
        "the analysis is in the report")
    return text, suffix or records.format_suffix(record.source), note
