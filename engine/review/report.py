"""A review as a text table or as JSON."""
from __future__ import annotations

import json

from .. import records
from ..games import GAMES
from .analysis import SIDE_NAMES
from .game import GameReview, MoveReview
from .judge import MARK_SYMBOLS, MARKS, proof


def headline(review: GameReview) -> str:
    record = review.record
    source = records.format_title(record.source)
    return (f"{GAMES[record.game].title}: {review.players()} ({source}), "
            f"{len(review.moves)} moves, {review.result_text}")


def settings_line(review: GameReview) -> str:
    return (f"Engine: {review.limits.text()} per position; scores from the mover's view; "
            f"{review.judge.describe()}")


def summary_line(review: GameReview, side: str) -> str:
    counts = review.counts(side)
    name = review.record.white if side == "w" else review.record.black
    label = SIDE_NAMES[side] + (f" ({name})" if name else "")
    return f"{label}: " + ", ".join(_plural(counts[mark], mark) for mark in MARKS)


def _plural(count: int, mark: str) -> str:
    word = {"inaccuracy": "inaccuracies"}.get(mark, mark + "s") if count != 1 else mark
    return f"{count} {word}"


# The columns of a review, one meaning each, in the text table and on the GUI's page alike.
COLUMNS = [
    ("#", "the move's number"),
    ("side", "who moved"),
    ("move", "the move played"),
    ("played", "the score after the move played, from the mover's view"),
    ("best", "the engine's choice: (played) when it is the move played, (forced) when it was "
             "the only one, ' (depth-limited)' after it when the move played scored higher at "
             "this depth (the two searches end at different horizons)"),
    ("best's score", "the score after the engine's choice, from the mover's view"),
    ("loss", "what the move played gave away"),
    ("mark", "inaccuracy ?!, mistake ?, blunder ??"),
]
LIMITED = " (depth-limited)"


def move_cells(review: GameReview, move: MoveReview) -> list[str]:
    """One row, cell by cell as COLUMNS says."""
    judge = review.judge
    if move.forced:
        best, loss = "(forced)", ""
    elif move.is_best:
        best, loss = "(played)", ""
    else:
        best = move.best + (LIMITED if move.depth_limited(judge) else "")
        loss = judge.loss_text(move.loss)
    mark = f"{move.mark} {MARK_SYMBOLS[move.mark]}" if move.mark else ""
    return [str(move.number), SIDE_NAMES[move.side], move.move, judge.score_text(move.after),
            best, judge.score_text(move.before), loss, mark]


def text_report(review: GameReview) -> str:
    """A table of COLUMNS, a row per move."""
    names = [name for name, _ in COLUMNS]
    rows = [names] + [move_cells(review, m) for m in review.moves]
    widths = [max(len(row[i]) for row in rows) for i in range(len(names))]
    right = {0, 3, 5, 6}

    def fmt(row: list[str]) -> str:
        cells = [cell.rjust(w) if i in right else cell.ljust(w)
                 for i, (cell, w) in enumerate(zip(row, widths))]
        return "  ".join(cells).rstrip()

    lines = [headline(review), settings_line(review), "", fmt(rows[0])]
    lines += [fmt(row) for row in rows[1:]]
    if any(move.depth_limited(review.judge) for move in review.moves):
        lines += ["", f"{LIMITED.strip()}: the move played scored higher than the engine's choice "
                  "at this depth; a deeper review tells them apart"]
    lines += ["", summary_line(review, "w"), summary_line(review, "b")]
    return "\n".join(lines) + "\n"


def _score_json(review: GameReview, score: int) -> dict:
    found = proof(score)
    entry = {"score": score, "text": review.judge.score_text(score)}
    if found is not None:
        entry["proven"] = {"won": found.won, "plies": found.plies, "margin": found.margin}
    return entry


def json_report(review: GameReview) -> str:
    record, judge = review.record, review.judge
    moves = []
    for move in review.moves:
        entry = {
            "number": move.number, "side": move.side, "move": move.move,
            "notation": move.notation, "position": review.line.positions[move.number - 1],
            "eval": _score_json(review, move.before), "depth": move.best_depth,
            "best": move.best, "is_best": move.is_best, "forced": move.forced,
            "played": _score_json(review, move.after), "loss": round(move.loss, 2),
            "mark": move.mark, "depth_limited": move.depth_limited(judge),
            "cells": move_cells(review, move),
        }
        moves.append(entry)
    data = {
        "game": record.game, "format": record.source, "white": record.white,
        "black": record.black, "event": record.event, "date": record.date,
        "result": review.line.result or None, "reason": review.line.reason or None,
        "resigned_by": record.resigned_by,
        "limits": ({"depth": review.limits.depth} if review.limits.depth is not None
                   else {"movetime": review.limits.movetime_ms}),
        "marks": {"unit": judge.unit, **dict(zip(MARKS, judge.thresholds))},
        "scores": "the mover's view; white_scores: White's view of every position",
        "columns": [{"name": name, "meaning": meaning} for name, meaning in COLUMNS],
        "white_scores": review.white_scores,
        "moves": moves,
        "summary": {SIDE_NAMES[s].lower(): review.counts(s) for s in ("w", "b")},
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
