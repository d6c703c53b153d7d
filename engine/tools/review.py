"""Review a played game: every move's evaluation, the better move where one was missed,
inaccuracies, mistakes and blunders, an evaluation graph, and an annotated record.

Reads a record (a file, or '-' for stdin) in any format `loadrecord` reads, replays it in
the engine and analyses every position through the protocol (`setposition`, `analyze`),
in --jobs engine processes at once.  The report goes to stdout (--format text, json or
html); with --out DIR it is written into DIR instead, together with the record annotated
in its own format (SGF: the analysis as C[] comments; LittleGolem DVONN text has no
comments, so it holds the moves only).  --example GAME reviews a real game record that ships
with the engine (in the folder `gipf-engine --examples` prints).

A move is marked by what it loses against the best move, at least:
{marks}

Examples:
  gipf-review --depth 3 --example tzaar
  gipf-review --movetime 200 --jobs 2 --format html --out reviews --example dvonn
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from engine.bounded_read import InputError, read_bytes
from engine.client import DEFAULT_ENGINE, EngineError, EngineProcess
from engine.examples import example_records
from engine.games import GAMES
from engine.records import MAX_RECORD_BYTES
from engine.review import Limits, ReviewError, read_record, review_record
from engine.review.judge import MARKS, judge_for
from engine.review.progress import ProgressBar
from engine.tools import cli
from engine.tools.cli import require_compiled

EXTENSIONS = {"text": "txt", "json": "json", "html": "html"}


def thresholds() -> str:
    """The marks' thresholds of each game, as the judges hold them."""
    parts = []
    for game in sorted(GAMES):
        judge = judge_for(game)
        limits = ", ".join(f"{mark} {value:g}" for mark, value in zip(MARKS, judge.thresholds))
        parts.append(f"  {GAMES[game].title}: {limits} {judge.unit}")
    return "\n".join(parts)


def parse_args(argv):
    doc = __doc__.replace("{marks}", thresholds())
    parser = cli.parser("review", doc, formatter_class=argparse.RawDescriptionHelpFormatter,
                        epilog="\n\n".join(doc.split("\n\n")[1:]))
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("record", nargs="?", help="record file, or - for stdin")
    source.add_argument("--example", choices=sorted(example_records()),
                        help="review the shipped example record of this game")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--movetime", type=cli.positive, metavar="MS",
                       help="search time per position (default 1000)")
    limit.add_argument("--depth", type=cli.positive, metavar="N",
                       help="fixed search depth per position (reproducible)")
    parser.add_argument("--jobs", type=cli.positive, default=os.cpu_count() or 1, metavar="N",
                        help="engine processes at once (default: the number of cores)")
    parser.add_argument("--format", choices=sorted(EXTENSIONS), default="text",
                        help="the report: a text table, JSON, or an HTML page with the graph")
    parser.add_argument("--out", metavar="DIR", help="write the report and the annotated "
                        "record into DIR (created if needed) instead of printing the report")
    parser.add_argument("--engine", type=cli.command, default=DEFAULT_ENGINE, metavar="CMD",
                        help="command starting the engine")
    parser.add_argument("--allow-python-player", action="store_true", help=cli.ALLOW_PYTHON_HELP)
    args = parser.parse_args(argv)
    if args.example:
        args.record = str(example_records()[args.example])
    return args


def read_input(name: str) -> bytes:
    try:
        return read_bytes(name, MAX_RECORD_BYTES, allow_stdin=True)
    except InputError as e:
        raise ReviewError(str(e)) from None


def check_engine(command: str, compiled_only: bool) -> None:
    """Start the engine once before the review: a command that cannot start, or an engine
    without the compiled core, is one clear line before any work."""
    try:
        engine = EngineProcess(command, "the engine")
    except EngineError as e:
        raise ReviewError(str(e)) from None
    try:
        if compiled_only:
            require_compiled(engine)
    except EngineError as e:
        raise ReviewError(str(e)) from None
    finally:
        engine.close()


def check_out_dir(out: str) -> Path:
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise ReviewError(f"--out {out}: not a directory")
    parent = path if path.exists() else next((p for p in path.parents if p.exists()), Path("."))
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ReviewError(f"--out {out}: cannot write there")
    return path


def render(review, fmt: str) -> str:
    if fmt == "html":
        from engine.review.html import html_report
        return html_report(review)
    from engine.review.report import json_report, text_report
    return json_report(review) if fmt == "json" else text_report(review)


def run(args) -> int:
    if args.format == "html":
        from engine.review.html import require_matplotlib
        try:
            require_matplotlib()
        except ImportError as e:
            raise ReviewError(str(e)) from None
    out = check_out_dir(args.out) if args.out else None
    record = read_record(read_input(args.record))
    check_engine(args.engine, not args.allow_python_player)
    limits = Limits(depth=args.depth, movetime=args.movetime)
    bar = ProgressBar("review")
    try:
        review = review_record(record, engine=args.engine, limits=limits, jobs=args.jobs,
                               progress=bar)
    finally:
        bar.close()
    report = render(review, args.format)
    if out is None:
        sys.stdout.write(report)
        sys.stdout.flush()
        return 0
    from engine.review.annotate import annotated_record
    stem = "stdin" if args.record == "-" else Path(args.record).stem
    annotated, suffix, note = annotated_record(review, Path(args.record).suffix)
    report_path = out / f"{stem}-review.{EXTENSIONS[args.format]}"
    record_path = out / f"{stem}-annotated{suffix}"
    try:
        out.mkdir(parents=True, exist_ok=True)
        cli.write_atomically(report_path, report)
        cli.write_atomically(record_path, annotated)
    except OSError as e:
        raise ReviewError(f"cannot write into {out}: {e.strerror or e}") from None
    if note:
        print(f"review: {note}", file=sys.stderr)
    print(report_path)
    print(record_path, flush=True)
    return 0


def main(argv=None) -> int:
    return cli.guarded(_main, argv, "review")


def _main(argv=None) -> int:
    args = parse_args(argv)
    try:
        return run(args)
    except ReviewError as e:
        raise cli.ToolError(str(e)) from None


if __name__ == "__main__":
    sys.exit(main())
