"""Analysis lines, written and read in this one module (protocol.md §6.5, §6.6).

The search hands over data (search.Progress for each iteration, search.Thought for the answer,
the book's entry); the protocol layer turns them into text only here, and whoever reads that
text back (the GUI's live analysis, the review's `analyze` replies) reads it only here, so
writer and reader cannot drift apart.  The lines:

* `analyze`'s reply: the move, then `score`, `depth`, `nodes`, `time`, `pv` lines, then with
  multi-PV one `multipv k move m score s depth d pv ...` line per candidate;
* `analyze live`: `info multipv k move m score s depth d nodes n nps x time t pv ...` per
  candidate of each report, `info string ...` when the Python player answered instead, and
  `bestmove <move>` last;
* on stderr with `option info on`: `info depth d score s nodes n nps x time t pv ...` per
  iteration (the exact solver's proof too), and `info book <move> games n score f` for a move
  from the opening book.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

# --- writing ----------------------------------------------------------------------------------


def progress_line(progress) -> str:
    """The one `info` line of an iteration's progress, for stderr (§6.6)."""
    return (f"info depth {progress.depth} score {progress.score} nodes {progress.nodes} "
            f"nps {progress.nps} time {int(progress.time_ms)} pv {' '.join(progress.pv)}").rstrip()


def live_lines(progress) -> list[str]:
    """One `info multipv k move m score ...` line per candidate of a search report (§6.5)."""
    return [f"info multipv {k} move {pv[0]} score {score} depth {progress.depth} "
            f"nodes {progress.nodes} nps {progress.nps} time {int(progress.time_ms)} pv {' '.join(pv)}"
            for k, (score, pv) in enumerate(progress.lines or [(progress.score, progress.pv)], 1) if pv]


def candidate_lines(thought) -> list[str]:
    """`multipv k move m score s depth d pv ...` for each multi-PV candidate, best first."""
    return [f"multipv {k} move {pv[0]} score {score} depth {thought.depth} pv {' '.join(pv)}"
            for k, (score, pv) in enumerate(thought.lines, 1) if pv]


def analyze_reply(move_text: str, thought, multipv: int) -> str:
    """The reply of `analyze`: the best move, then its search figures (§6.5)."""
    lines = [move_text]
    if thought.score is not None:
        lines += [f"score {thought.score}", f"depth {thought.depth}", f"nodes {thought.nodes}"]
    lines += [f"time {int(thought.time_ms)}", "pv " + " ".join(thought.pv or [move_text])]
    if multipv > 1 and thought.score is not None:
        lines += candidate_lines(thought)
    return "\n".join(lines)


def book_line(move_text: str, games: int, score: float) -> str:
    """The stderr line of a move played from the opening book."""
    return f"info book {move_text} games {games} score {score:.3f}"


def fallback_line(warning: str) -> str:
    """The live analysis' word that the core failed and the Python player answers."""
    return f"info string {warning}; bestmove from the Python player"


def bestmove_line(move_text: str) -> str:
    return f"bestmove {move_text}"


# --- reading ----------------------------------------------------------------------------------

def _number(text: str):
    return int(text) if text.lstrip("-").isdigit() else text


def _fields(words: Sequence[str]) -> dict:
    """`key value` pairs up to `pv`, which takes the rest as a list; whole numbers as ints."""
    found: dict = {}
    i = 0
    while i < len(words):
        key = words[i]
        if key == "pv":
            found["pv"] = list(words[i + 1:])
            break
        if i + 1 < len(words):
            found[key] = _number(words[i + 1])
        i += 2
    return found


def read_info(line: str) -> Optional[dict]:
    """An `info` or `bestmove` line as a dict (None for any other line): its fields (`pv` a
    list of actions, whole numbers as ints), {"string": text} for `info string`, or
    {"bestmove": move}."""
    words = line.split()
    if not words:
        return None
    if words[0] == "bestmove":
        return {"bestmove": " ".join(words[1:])}
    if words[0] != "info":
        return None
    if len(words) > 1 and words[1] == "string":
        return {"string": line.split("string", 1)[1].strip()}
    return _fields(words[1:])


@dataclass
class AnalyzeReply:
    """`analyze`'s reply read back; score, depth and nodes are None when no search scored it
    (the Python player, a forced move)."""
    best: str
    score: Optional[int] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    time_ms: Optional[int] = None
    pv: list[str] = field(default_factory=list)
    candidates: list[dict] = field(default_factory=list)  # multi-PV: each line's fields, best first


def read_analyze(text: str) -> AnalyzeReply:
    lines = text.splitlines()
    reply = AnalyzeReply(best=lines[0].strip() if lines else "")
    for entry in lines[1:]:
        key, _, value = entry.partition(" ")
        if key == "score":
            reply.score = int(value)
        elif key == "depth":
            reply.depth = int(value)
        elif key == "nodes":
            reply.nodes = int(value)
        elif key == "time":
            reply.time_ms = int(value)
        elif key == "pv":
            reply.pv = value.split()
        elif key == "multipv":
            reply.candidates.append(_fields(entry.split()))
    return reply
