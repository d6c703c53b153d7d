"""`python3 -m engine.gui.review_worker`: one game review (engine.review) in a process of its
own, so that the GUI can end it, and every engine it started, at once.

The record comes on stdin; JSON lines go to stdout: `review_progress` while it runs, then one
`review_result` or `review_error`. SIGTERM (a cancel, a
closed tab) kills the review's engines before this process ends: a search in C does not stop
before its limit, and an engine whose input closes would finish its search first.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from pathlib import Path

from ..bounded_read import InputError, read_bytes
from .messages import MAX_RECORD_BYTES, REVIEW_DEPTH, REVIEW_MOVETIME_MS

_write_lock = threading.Lock()


def emit(message: dict) -> None:
    with _write_lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def child_pids() -> list[int]:
    """This process's children (Linux /proc; elsewhere none are found and the engines end when
    their searches do, their input being closed)."""
    pids = []
    for path in Path("/proc/self/task").glob("*/children"):
        try:
            pids += [int(word) for word in path.read_text().split()]
        except (OSError, ValueError):
            continue
    return pids


def kill_children_and_exit(signum, frame) -> None:
    for pid in child_pids():
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)  # reaped here: no zombie is left to whoever adopts it
        except (ProcessLookupError, ChildProcessError):
            pass
    os._exit(128 + signum)


def bounded(low: int, high: int):
    def parse(text: str) -> int:
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"a whole number from {low} to {high}")
        return value
    return parse


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="review_worker", description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="engine command")
    limit = parser.add_mutually_exclusive_group(required=True)
    limit.add_argument("--depth", type=bounded(*REVIEW_DEPTH))
    limit.add_argument("--movetime", type=bounded(*REVIEW_MOVETIME_MS))
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, kill_children_and_exit)

    from ..review import Limits, ReviewError, read_record, review_record
    from ..review.report import json_report
    try:
        record = read_record(read_bytes("-", MAX_RECORD_BYTES, allow_stdin=True))
        review = review_record(
            record, engine=args.engine, jobs=1,
            progress=lambda done, total: emit({"type": "review_progress", "done": done,
                                               "total": total}),
            limits=Limits(depth=args.depth, movetime=args.movetime))
    except (ReviewError, InputError) as e:
        emit({"type": "review_error", "message": f"review failed: {e}"})
        return 1
    emit({"type": "review_result", "report": json.loads(json_report(review))})
    return 0


if __name__ == "__main__":
    sys.exit(main())
