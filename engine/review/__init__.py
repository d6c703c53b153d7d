"""Game review: analyse a recorded game move by move through the engine's protocol.

analysis.py drives engines over pipes (replay, then `setposition` + `analyze` per position,
N processes at once); judge.py says what a score means per game and marks moves;
game.py puts both together into a GameReview; report.py writes text and JSON, html.py the
page with the evaluation graph, annotate.py the record with the analysis as comments.
"""
from .analysis import Limits, ReviewError
from .game import GameReview, MoveReview, read_record, review_record

__all__ = ["GameReview", "Limits", "MoveReview", "ReviewError", "read_record", "review_record"]
