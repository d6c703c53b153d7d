"""Referee one DVONN game between two CodeCup 2011 players (one move per line).

Sends 'Start' to White, then relays every move to the other player, checking
each with engine/games/dvonn/rules.py (White's 49th placement and first stack move are two
lines in a row).  At the end both players get 'Quit'.  Prints the moves and
the result on stdout; exit status 0 if the game was completed legally, 1 if a
player made an illegal or unreadable move, timed out or died (that player
loses; the reason goes to stderr).

Example:
  gipf-codecup-referee --white "gipf-codecup --gametime 3000" \\
      --black "gipf-codecup --gametime 3000 --setup 'option player random'"
"""
from __future__ import annotations

import sys

from ...client import EngineError
from ...rules import IllegalMove
from ...tools import cli
from .line_player import LinePlayer
from .notation import codecup_to_move
from .rules import DvonnGame


def referee(white: str, black: str, timeout: float, out=sys.stdout) -> tuple[int, str]:
    """(exit status, result text) of one game."""
    players: list[LinePlayer] = []
    game = DvonnGame()
    moves: list[str] = []
    try:
        try:
            players.append(LinePlayer(white, "White", stderr=None))
            players.append(LinePlayer(black, "Black", stderr=None))
        except EngineError as e:
            print(f"codecup_referee: {e}", file=sys.stderr)
            return 1, f"no game ({e})"
        side = 0
        try:
            players[0].send("Start")
            while not game.over:
                side = game.side
                line = players[side].receive(timeout)
                move = codecup_to_move(line)
                game.play_text(move)
                moves.append(line)
                side = 1 - side  # a failure to hear the move is the listener's
                players[side].send(line)
        except (EngineError, ValueError, IllegalMove) as e:
            name = ("White", "Black")[side]
            print(f"move {game.ply + 1}: {name}: {e}", file=sys.stderr)
            return 1, f"{'BW'[side]}+ ({name} forfeits: {e})"
        result = game.result()
        assert result is not None, "the game is over"
        white_score, black_score = game.scores()
        print(" ".join(moves), file=out)
        print(f"result {result} (white {white_score}, black {black_score}), {len(moves)} moves", file=out)
        return 0, result
    finally:
        for player in players:  # a player that timed out is not waited for much longer
            player.close(timeout=min(timeout, 10))
            try:  # a player that had exited: closing sent it nothing, and its pipe is ours to close
                player.into.close()
            except OSError:
                pass


def main(argv=None) -> int:
    return cli.guarded(run, argv, "codecup_referee")


def run(argv=None) -> int:
    parser = cli.parser("codecup_referee", __doc__)
    parser.add_argument("--white", required=True, type=cli.command, help="command starting White's player")
    parser.add_argument("--black", required=True, type=cli.command, help="command starting Black's player")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds to wait for any one move (default 30)")
    args = parser.parse_args(argv)
    if not 0 < args.timeout < 1e6:
        parser.error("--timeout is a number of seconds above 0")
    status, _ = referee(args.white, args.black, args.timeout)
    return status


if __name__ == "__main__":
    sys.exit(main())
