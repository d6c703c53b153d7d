"""Play as a CodeCup 2011 DVONN player: the engine behind the one-move-per-line protocol.

Input (stdin), one line each: 'Start' (we are White and move first) or, as the
very first line, White's first move (we are Black); then the opponent's moves;
'Quit' ends the program.  Moves are upper case without a dash: a placement
'D3', a stack move 'E3F3', 'PASS'.  Output (stdout): our moves, one per line,
flushed.  White's 49th placement is followed at once by White's first stack
move, so White writes two lines in a row there (and Black reads two).  Moves
are checked with engine/games/dvonn/rules.py: an illegal opponent move is logged and the
program exits with status 1.  The engine thinks within a whole-game budget
(--gametime, sent as `time_control`).  Diagnostics go to stderr only.

Example:
  gipf-codecup --gametime 5000            # then type: Start
  gipf-codecup-referee --white "gipf-codecup" --black "gipf-codecup"
"""
from __future__ import annotations

import logging
import subprocess
import sys

from ...client import DEFAULT_ENGINE, EngineError, EngineProcess
from ...rules import IllegalMove
from ...tools import cli
from ...tools.cli import require_compiled
from .line_player import PLAYER_LINE_LIMIT
from .notation import codecup_to_move, move_to_codecup
from .rules import DvonnGame

log = logging.getLogger("codecup")


def play(engine: EngineProcess, stdin, stdout) -> int:
    game = DvonnGame()
    us = None
    for raw in cli.bounded_lines(stdin, limit=PLAYER_LINE_LIMIT):  # as the referee reads a player
        line = raw.strip()
        if not line:
            continue
        if line == "Quit":
            log.info("Quit after %d moves", game.ply)
            return 0
        if line == "Start":
            if us is not None or game.ply:
                log.error("'Start' in the middle of the game")
                return 1
            us = 0
        else:
            if us is None:
                us = 1
            if game.over or game.side == us:
                log.error("received %r but it is our turn or the game is over", line)
                return 1
            try:
                move = codecup_to_move(line)
                game.play_text(move)
            except (ValueError, IllegalMove) as e:
                log.error("illegal opponent move %r: %s", line, e)
                return 1
            engine.ask(f"play {'wb'[1 - us]} {move}")
            log.info("opponent: %s", line)
        while not game.over and game.side == us:
            move = engine.ask(f"genmove {'wb'[us]}")
            game.play_text(move)
            stdout.write(move_to_codecup(move) + "\n")
            stdout.flush()
            log.info("we: %s", move_to_codecup(move))
        if game.over:
            log.info("game over: %s", game.result())
    return 0


def main(argv=None) -> int:
    return cli.guarded(run, argv, "codecup")


def run(argv=None) -> int:
    parser = cli.parser("codecup", __doc__)
    parser.add_argument("--gametime", type=int, default=5000, metavar="MS",
                        help="thinking time for the whole game (default 5000)")
    parser.add_argument("--engine", type=cli.command, default=DEFAULT_ENGINE, help="command starting the engine")
    parser.add_argument("--setup", default="", help="';'-separated engine commands sent first")
    parser.add_argument("--log-level", default="warning",
                        choices=["debug", "info", "warning", "error"],
                        help="how much of this adapter's own logging goes to stderr (default warning)")
    parser.add_argument("--allow-python-player", action="store_true", help=cli.ALLOW_PYTHON_HELP)
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(),
                        format="codecup %(levelname)s: %(message)s")
    if args.gametime <= 0:
        parser.error("--gametime must be positive")
    try:
        engine = EngineProcess(args.engine, "engine",
                               stderr=None if args.log_level == "debug" else subprocess.DEVNULL)
    except EngineError as e:
        log.error("%s", e)
        return 1
    try:
        if not args.allow_python_player:
            require_compiled(engine)
        engine.ask("newgame dvonn")
        engine.ask("option info off")
        engine.set_clock(args.gametime)
        for line in filter(None, (s.strip() for s in args.setup.split(";"))):
            engine.ask(line)
        return play(engine, sys.stdin.buffer, sys.stdout)
    except (EngineError, cli.ToolError) as e:
        log.error("%s", e)
        return 1
    except BrokenPipeError:
        return 0
    finally:
        engine.close()


if __name__ == "__main__":
    sys.exit(main())
