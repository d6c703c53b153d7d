"""Correspondence bridge: the engine's next move for a game record, in the record's notation.

Reads a record (a file, or '-' for stdin) in any format engine/records/ reads
(Boardspace DVONN SGF, LittleGolem DVONN text, LittleGolem TZAAR SGF with or
without POS), sets the game up in the engine (DVONN and fixed TZAAR: newgame;
a TZAAR POS opening: setposition of that layout), replays the moves, asks
genmove within the time budget, and prints that one move on stdout in the
record's own notation:

  LittleGolem DVONN   d3 | e3f3 | pass
  LittleGolem TZAAR   qmrl (White's opening capture) | prqq-kplp | osoq-pass
  Boardspace DVONN    dropb D 3 | move E 3 F 3 | pass   (the record's action form)

Nothing else goes to stdout.  Errors (unreadable or illegal record, game over
or resigned, not our turn with --side, engine failure) go to stderr and the
exit status is 1.

Example:
  gipf-bridge --movetime 5000 game2552914.txt
  fetch-my-game | gipf-bridge --gametime 60000 --side b -
"""
from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from typing import Optional

from engine import records
from engine.bounded_read import InputError, read_bytes
from engine.client import DEFAULT_ENGINE, EngineError, EngineProcess, Limit
from engine.games import GAMES
from engine.tools import cli
from engine.tools.cli import require_compiled


@dataclass(frozen=True)
class Thinking:
    """How long the engine thinks for the move: a time per move, or a clock for the game."""
    movetime_ms: int = 0
    clock_ms: Optional[int] = None


class BridgeError(Exception):
    pass


def setup_commands(record: records.GameRecord) -> list[str]:
    """The commands that put the engine at the record's last position."""
    commands = [f"newgame {record.game}"]
    if record.opening is not None:
        commands.append("setposition " + GAMES[record.game].from_opening(record.opening).position())
    if record.moves:
        commands.append("replay " + " , ".join(record.moves))
    return commands


def next_move(played: records.Played, engine: EngineProcess, time: Thinking,
              side: str | None = None) -> str:
    """The engine's move at the replayed record's last position, in the record's notation."""
    prepare_engine(played, engine, time, side)
    move = engine.ask("genmove")
    played.game.play_text(move)  # never print a move our own rules reject
    return records.move_to_source_notation(played.record, move)


def prepare_engine(played: records.Played, engine: EngineProcess, time: Thinking,
                   side: str | None = None) -> None:
    """Set the engine at the replayed record's last position with its clock; BridgeError when
    the game is over or (side) not ours to move."""
    record = played.record
    if played.ended:
        raise BridgeError(f"the game is over: {played.result_text()}")
    if side is not None and "wb"[played.side] != side:
        raise BridgeError(f"it is {records.side_to_move_name(played.side)}'s turn, not ours")
    for line in setup_commands(record):
        engine.ask(line)
    if time.clock_ms is None:
        engine.set_limit(Limit(time_ms=time.movetime_ms))
    else:
        engine.set_clock(time.clock_ms)


def main(argv=None) -> int:
    return cli.guarded(run, argv, "bridge")


def run(argv=None) -> int:
    parser = cli.parser("bridge", __doc__)
    parser.add_argument("record", help="record file, or - for stdin")
    budget = parser.add_mutually_exclusive_group(required=True)
    budget.add_argument("--movetime", type=int, metavar="MS", help="thinking time for this move")
    budget.add_argument("--gametime", type=int, metavar="MS",
                        help="a whole-game budget; the engine takes its usual share of it")
    parser.add_argument("--engine", type=cli.command, default=DEFAULT_ENGINE, help="command starting the engine")
    parser.add_argument("--side", choices=["w", "b"], help="refuse unless this side is to move")
    parser.add_argument("--setup", default="", help="';'-separated engine commands sent first "
                        "(e.g. 'option threads 4')")
    parser.add_argument("--verbose", action="store_true", help="pass the engine's stderr through")
    parser.add_argument("--allow-python-player", action="store_true", help=cli.ALLOW_PYTHON_HELP)
    args = parser.parse_args(argv)
    budget_ms = args.movetime if args.movetime is not None else args.gametime
    if budget_ms <= 0:
        parser.error("the time budget must be positive")
    time = Thinking(movetime_ms=args.movetime) if args.movetime is not None else Thinking(clock_ms=args.gametime)
    try:
        data = read_bytes(args.record, records.MAX_RECORD_BYTES, allow_stdin=True)
        record = records.read_record(data)
    except (InputError, records.RecordError) as e:
        print(f"bridge: cannot read the record: {e}", file=sys.stderr)
        return 1
    engine = None
    try:
        engine = EngineProcess(args.engine, "engine", stderr=None if args.verbose else
                               subprocess.DEVNULL)
        if not args.allow_python_player:
            require_compiled(engine)
        for line in filter(None, (s.strip() for s in args.setup.split(";"))):
            engine.ask(line)
        move = next_move(records.played(record), engine, time, args.side)
    except records.RecordError as e:
        print(f"bridge: illegal record: {e}", file=sys.stderr)
        return 1
    except (BridgeError, EngineError, OSError, ValueError) as e:
        print(f"bridge: {e}", file=sys.stderr)
        return 1
    finally:
        if engine is not None:
            engine.close()
    print(move, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
