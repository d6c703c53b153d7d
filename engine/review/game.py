"""A reviewed game: every move with the evaluation before it, the best move, what the played
move kept, and its mark.  Built from a record by asking the engine (see analysis.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from .. import records
from ..client import DEFAULT_ENGINE, EngineError
from .analysis import (
    SIDE_NAMES,
    Analysis,
    EnginePool,
    GameLine,
    Limits,
    ReviewError,
    Task,
    replay_line,
    start_engine,
)
from .judge import MARK_SYMBOLS, MARKS, Judge, judge_for, terminal_score


@dataclass
class MoveReview:
    """One move; scores from the mover's view."""
    number: int                  # 1-based, DVONN plies / TZAAR turns
    side: str                    # 'w' | 'b'
    move: str                    # the engine's notation
    notation: str                # the record's notation
    before: int                  # the position before the move (= the best move's score)
    best: str
    after: int                   # the position after the played move
    best_depth: Optional[int]
    loss: float
    mark: Optional[str]
    forced: bool

    @property
    def is_best(self) -> bool:
        return self.best == self.move

    def depth_limited(self, judge: Judge) -> bool:
        """The played move scored higher than the engine's choice: the two searches end at
        different horizons, so at this depth the review cannot tell which is better."""
        return not (self.is_best or self.forced) and judge.value(self.after) > judge.value(self.before)


@dataclass
class GameReview:
    record: records.GameRecord
    line: GameLine
    judge: Judge
    limits: Limits
    moves: list[MoveReview]
    white_scores: list[int]      # every position, White's view (the graph)

    @property
    def result_text(self) -> str:
        if self.record.resigned_by is not None:
            return f"{SIDE_NAMES[self.record.resigned_by]} resigned"
        if not self.line.over:
            return "unfinished"
        return f"{self.line.result} ({self.line.reason})" if self.line.reason else self.line.result

    def players(self) -> str:
        return f"{self.record.white or 'White'} – {self.record.black or 'Black'}"

    def counts(self, side: str) -> dict[str, int]:
        tally = dict.fromkeys(MARKS, 0)
        for move in self.moves:
            if move.side == side and move.mark:
                tally[move.mark] += 1
        return tally

    def comment(self, move: MoveReview) -> str:
        """The analysis of one move as a record comment."""
        judge = self.judge
        parts = [f"eval {judge.score_text(move.before)}"]
        if move.forced:
            parts.append("forced")
        elif move.is_best:
            parts.append("best move")
        else:
            parts.append(f"best {move.best}, played {judge.score_text(move.after)}")
            if move.mark:
                parts.append(f"{move.mark} {MARK_SYMBOLS[move.mark]} "
                             f"(loss {judge.loss_text(move.loss)})")
        return "; ".join(parts)


def read_record(data: bytes) -> records.GameRecord:
    try:
        record = records.read_record(data)
    except records.RecordError as e:
        raise ReviewError(f"bad record: {e}") from None
    if not record.moves:
        raise ReviewError("nothing to review: the record has no moves")
    return record


def review_record(record: records.GameRecord, *, engine: str = DEFAULT_ENGINE,
                  limits: Optional[Limits] = None, jobs: int = 1,
                  progress: Callable[[int, int], None] = lambda done, total: None) -> GameReview:
    """Replay the record in the engine, analyse every position, judge every move (at the
    default Limits when none are given)."""
    limits = limits if limits is not None else Limits()
    judge = judge_for(record.game)
    start = records.new_game(record).position()
    setup = start_engine(engine, limits)
    try:
        line = replay_line(setup, record.game, start, record.moves)
    except EngineError as e:
        raise ReviewError(f"engine: {e}") from None
    finally:
        setup.close()
    analyses, played = analyse_line(line, engine, limits, jobs, progress)
    white = []
    for k in range(len(line.positions)):
        analysis = analyses[k]
        score = _score(analysis) if analysis is not None else _final_score(line, k)
        white.append(score if line.mover(k) == "w" else -score)
    moves = []
    for k, move in enumerate(line.moves):
        side, analysis = line.mover(k), analyses[k]
        assert analysis is not None, "only a finished game's last position goes unanalysed"
        before = _score(analysis)
        if analysis.best == move:
            after = before
        else:
            check = played.get(k)
            after_side = line.mover(k + 1)
            after = _score(check) if check is not None else _final_score(line, k + 1)
            after = after if after_side == side else -after
        judged = not (analysis.best == move or analysis.forced)
        moves.append(MoveReview(
            number=k + 1, side=side, move=move,
            notation=records.move_to_source_notation(record, move), before=before,
            best=analysis.best, after=after, best_depth=analysis.depth,
            loss=judge.loss(before, after) if judged else 0.0,
            mark=judge.mark(before, after) if judged else None, forced=analysis.forced))
    return GameReview(record=record, line=line, judge=judge, limits=limits, moves=moves,
                      white_scores=white)


def analyse_line(line: GameLine, engine: str, limits: Limits, jobs: int,
                 progress: Callable[[int, int], None]
                 ) -> tuple[list[Optional[Analysis]], dict[int, Analysis]]:
    """(analysis of every position, None for a finished game's last one;
    {move index: search of the position after a move that was not the best}).

    The played move is searched at the depth the best move got inside the search of the
    position before (that depth less the move's actions): both are then judged at the same
    horizon.  Comparing two searches of equal depth from consecutive positions would instead
    compare different horizons, and the evaluation's bias towards the side that moved last
    (large in DVONN) would make nearly every move look like a mistake."""
    moves = line.moves
    count = len(line.positions) - (1 if line.over else 0)
    tasks = [Task(("position", k), line.positions[k], played=moves[k] if k < len(moves) else None)
             for k in range(count)]

    def follow_up(task: Task, analysis: Analysis) -> Optional[Task]:
        kind, k = task.key
        if kind != "position" or k >= len(moves) or analysis.best == moves[k]:
            return None
        if line.over and k + 1 == len(moves):
            return None                  # the game ended with this move: its score is exact
        depth = max(1, (analysis.depth or 1) - len(moves[k].split()))
        return Task(("played", k), line.positions[k + 1], depth=depth)

    pool = EnginePool(engine, limits, jobs)
    try:
        found = pool.run(tasks, follow_up, progress)
    except BaseException:
        pool.close(kill=True)
        raise
    pool.close()
    analyses = [found.get(("position", k)) for k in range(len(line.positions))]
    played = {k: a for (kind, k), a in found.items() if kind == "played"}
    return analyses, played


def _score(analysis: Analysis) -> int:
    assert analysis.score is not None, "Worker.run gives every analysis a score or raises"
    return analysis.score


def _final_score(line: GameLine, index: int) -> int:
    """A finished game's score from the view of the side its last position string names."""
    return terminal_score(line.result, line.mover(index))
