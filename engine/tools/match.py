"""Play two engines against each other over pipes: Elo estimate, SPRT, openings, parallel games.

A referee in this process keeps the authoritative game (the engine's own rules
module), asks the side to act for `genmove` and tells the other side `play`.
Colours alternate every game.  Openings: a game's seeded random layouts
(TZAAR's, `--openings random`) come in seed pairs (each layout once with each
colour); for a game without them, `--random-openings N` makes N random prefixes
of P moves (`--opening-plies P`; in DVONN placements) from --seed, each also
played twice with colours swapped.  `--concurrency N` plays N games at once,
each worker with its own pair of engine processes (`--pin`: on a CPU of its
own).  Games 2k and 2k+1 are a pair: the same opening, colours swapped.
`--sprt elo0 elo1 alpha beta` stops once the log-likelihood ratio leaves
[log(beta/(1-alpha)), log((1-beta)/alpha)]; it is fishtest's generalised SPRT
on the pentanomial model (the distribution of the pair scores 0, 1/2, 1, 3/2, 2
over finished pairs; logistic Elo).  Engines run in their own process groups,
so Ctrl-C reaches only the referee: the first stops starting games and lets
those in progress finish, a second abandons them (unfinished games are never
counted).  Engine B may instead speak a CodeCup protocol (`--b-codecup CMD`,
one process per game; the CodeCup 2011 DVONN protocol, for a game whose
CodeCup notation is in LINE_NOTATIONS).  Prints a running score, the final
score with an Elo estimate and its 95 % error, and writes one record line per
game when --records is given: each as its game ends, so a match that is killed
keeps every finished game, and all sorted by game when the match ends.

Examples:
  gipf-match --game dvonn --games 100 --movetime 1000 \\
      --a "python3 -m engine" --b "python3 -m engine" --b-setup "option player random"
  gipf-match --game dvonn --random-openings 50 --concurrency 4 --sprt 0 20 0.05 0.05 \\
      --a "python3 -m engine" --b "/path/to/old/engine" --gametime 20000
  gipf-match --game dvonn --games 10 --a "python3 -m engine" \\
      --b-codecup "gipf-codecup --gametime 5000"
"""
from __future__ import annotations

import csv
import io
import queue
import sys
import threading
import time
from pathlib import Path
from typing import Optional, TextIO

from engine.games import GAMES
from engine.games.dvonn.codecup_notation import LINE_NOTATIONS
from engine.tools import cli
from engine.tools.clock_profile import FIELDS as THINK_FIELDS
from engine.tools.referee import Played, codecup_games, make_seats, play_game, random_prefixes, usable_cpus
from engine.tools.stats import elo_text, pentanomial_llr, sprt_bounds

REPO = Path(__file__).resolve().parents[2]


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


class Tally:
    """Results as they come in, from any worker; decides the SPRT stop."""

    def __init__(self, args) -> None:
        self.args = args
        self.lock = threading.Lock()
        self.wins = self.draws = self.losses = 0
        self.pair_half: dict[int, float] = {}  # pair -> A's score in its first finished game
        self.pairs = [0] * 5                    # finished pairs by A's points x 2
        self.records: dict[int, str] = {}
        self.time_losses = {"A": 0, "B": 0}
        self.think_rows: list[tuple] = []
        self.stop = threading.Event()
        self.decision: Optional[str] = None
        # Each game's lines go out as it ends, so a match killed or lost keeps every finished
        # game; the end of the match rewrites the files sorted by game.  Opened at the first
        # finished game: a match that plays none leaves its targets as they were.
        self.live: dict[Path, Optional[TextIO]] = {}

    def write_live(self, path: Optional[Path], text: str, header: str = "") -> None:
        if path is None:
            return
        if path not in self.live:
            try:
                opened = open(path, "w", encoding="utf-8", newline="")  # as the final file: csv ends its own lines
                opened.write(header)
                self.live[path] = opened
            except OSError:
                self.live[path] = None  # the match's end names the problem when it writes
        f = self.live[path]
        if f is not None:
            f.write(text)
            f.flush()

    def close_live(self) -> None:
        for f in self.live.values():
            if f is not None:
                f.close()

    def add(self, index: int, white: int, played: Played) -> None:
        a_score = played.white_score if white == 0 else 1 - played.white_score
        engine = lambda side: "A" if side == white else "B"  # noqa: E731 - a one-line key, as a def it reads worse
        with self.lock:
            if played.lost_on_time is not None:
                self.time_losses[engine(played.lost_on_time)] += 1
            thinks = [(index + 1, engine(side), "wb"[side], ply, f"{ms:.1f}", move,
                       "" if depth is None else depth)
                      for ply, side, ms, move, depth in played.thinks]
            self.think_rows += thinks
            self.wins += a_score == 1.0
            self.draws += a_score == 0.5
            self.losses += a_score == 0.0
            pair = index // 2
            if pair in self.pair_half:
                self.pairs[round(2 * (self.pair_half.pop(pair) + a_score))] += 1
            else:
                self.pair_half[pair] = a_score
            self.records[index] = f"{index + 1} A={'wb'[white]} {played.record}"
            # The think times first: a game on record has its think times.
            self.write_live(self.args.think_times, csv_text(thinks), csv_text([THINK_FIELDS]))
            self.write_live(self.args.records, self.records[index] + "\n")
            line = (f"game {index + 1}: A as {'White' if white == 0 else 'Black'} "
                    f"{'won' if a_score == 1 else 'drew' if a_score == 0.5 else 'lost'} "
                    f"(A {self.wins}-{self.draws}-{self.losses})")
            if self.args.sprt:
                elo0, elo1, alpha, beta = self.args.sprt
                llr = pentanomial_llr(self.pairs, elo0, elo1)
                lower, upper = sprt_bounds(alpha, beta)
                line += f" LLR {llr:.2f} [{lower:.2f}, {upper:.2f}]"
                if self.decision is None and (llr >= upper or llr <= lower):
                    verdict = "H1 accepted" if llr >= upper else "H0 accepted"
                    self.decision = (f"SPRT: {verdict} after {plural(sum(self.pairs), 'pair')} "
                                     f"(LLR {llr:.2f}, bounds {lower:.2f} {upper:.2f})")
                    self.stop.set()
            print(line, flush=True)


def csv_text(rows) -> str:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


def ray_seats(args, openings):
    """A Ray actor holding one pair of engines (`--ray`): it plays the games its worker
    thread hands it, on this machine or on the cluster RAY_ADDRESS names."""
    import ray

    class Seats:
        def __init__(self) -> None:
            self.seats = make_seats(args)

        def play(self, index: int, white: int):
            return play_game(args, self.seats, white, index, openings)

        def close(self) -> None:
            for seat in self.seats:
                seat.close()

    actor = ray.remote(num_cpus=1)(Seats).remote()
    return actor, lambda index, white: ray.get(actor.play.remote(index, white))


def worker(args, indices: "queue.Queue[int]", tally: Tally, openings, errors: list,
           done: threading.Event, cpus: Optional[set[int]] = None) -> None:
    seats: list = []
    actor = None
    try:
        if args.ray:
            actor, play = ray_seats(args, openings)
        else:
            seats = make_seats(args, cpus)
            play = lambda index, white: play_game(args, seats, white, index, openings)  # noqa: E731 - bound here, called by the pool
        while not tally.stop.is_set():
            try:
                index = indices.get_nowait()
            except queue.Empty:
                return
            white = index % 2  # A is White in even games
            tally.add(index, white, play(index, white))
    except BrokenPipeError:  # our stdout closed (`| head -1`): stop quietly
        tally.stop.set()
    except Exception as e:  # noqa: BLE001 - reported, and the match stops
        errors.append(f"{type(e).__name__}: {e}")
        tally.stop.set()
    finally:
        for seat in seats:
            seat.close()
        try:
            if actor is not None:
                import ray
                ray.get(actor.close.remote())
        finally:
            done.set()


def contest(game: str) -> str:
    """The contest whose protocol the game's CodeCup players speak ("CodeCup 2011")."""
    return LINE_NOTATIONS[game].contest  # game: one of codecup_games()


def parse_args(argv=None):
    parser = cli.parser("match", __doc__)
    parser.add_argument("--a", required=True, type=cli.command, help="command starting engine A")
    parser.add_argument("--b", type=cli.command, help="command starting engine B (our protocol)")
    codecup = codecup_games()
    parser.add_argument("--b-codecup", metavar="CMD", type=cli.command,
                        help="command starting a " + " or ".join(f"{contest(g)} {GAMES[g].title}" for g in codecup)
                             + " player as B (instead of --b)")
    parser.add_argument("--codecup-timeout", type=float, default=60.0,
                        help="seconds to wait for a CodeCup move (default 60)")
    parser.add_argument("--a-setup", default="", help="';'-separated commands for A at start")
    parser.add_argument("--b-setup", default="", help="';'-separated commands for B at start")
    parser.add_argument("--game", choices=list(GAMES), required=True, help="the game to play")
    parser.add_argument("--games", type=int, help="games to play (default 10, or two per "
                        "opening with --random-openings)")
    parser.add_argument("--movetime", type=int, default=1000, help="ms per move (default 1000)")
    parser.add_argument("--gametime", type=int, default=0, help="ms per side per game (overrides movetime)")
    parser.add_argument("--increment", type=int, default=0, help="ms added per move with --gametime")
    parser.add_argument("--openings", choices=["fixed", "random"], default="fixed",
                        help="a game with seeded layouts: the fixed layout or seeded random layouts in pairs")
    parser.add_argument("--random-openings", type=int, default=0, metavar="N",
                        help="a game without seeded layouts: N random opening prefixes, each played twice")
    parser.add_argument("--opening-plies", type=int, default=6, metavar="P",
                        help="moves in each random opening prefix (default 6)")
    parser.add_argument("--concurrency", type=int, default=1, help="games played at once")
    parser.add_argument("--pin", action="store_true", help="each game played at once keeps "
                        "its two players on a CPU of its own (CPUs taken in turn; Linux)")
    parser.add_argument("--sprt", nargs=4, type=float, metavar=("ELO0", "ELO1", "ALPHA", "BETA"),
                        help="stop when the SPRT of elo0 against elo1 is decided")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the openings and of the engines' seed options (default 1)")
    parser.add_argument("--ray", action="store_true", help="play the games on Ray actors "
                        "(pip extra `cluster`; this machine, or the cluster RAY_ADDRESS names)")
    parser.add_argument("--records", type=Path, help="file to write one line per game (each "
                        "as its game ends, sorted by game when the match ends)")
    parser.add_argument("--think-times", type=Path, metavar="FILE", help="CSV file to write one "
                        "line per genmove: game,engine,colour,ply,ms,move,depth (the depth its "
                        "search completed, empty if it reported none; gipf-clock-profile); "
                        "written as each game ends, sorted by game when the match ends")
    parser.add_argument("--move-timeout", type=int, default=10000, metavar="MS",
                        help="ms a genmove may run beyond its budget (the move time, or the "
                        "side's clock) before that side loses the game (default 10000)")
    parser.add_argument("--allow-python-player", action="store_true", help=cli.ALLOW_PYTHON_HELP)
    args = parser.parse_args(argv)
    if (args.b is None) == (args.b_codecup is None):
        parser.error("give exactly one of --b and --b-codecup")
    if args.b_codecup and args.game not in codecup:
        parser.error("--b-codecup plays " + " or ".join(GAMES[g].title for g in codecup) + " only ("
                     + ", ".join(f"the {contest(g)} game" for g in codecup) + ")")
    if args.b_codecup and args.random_openings:
        parser.error("--b-codecup cannot start from an opening prefix: the CodeCup protocol "
                     "has no set-up command")
    if args.random_openings and GAMES[args.game].has_openings:
        parser.error("--random-openings is for games without seeded layouts; "
                     f"{GAMES[args.game].title} has --openings random")
    if args.concurrency < 1:
        parser.error("--concurrency must be at least 1")
    if args.pin and args.ray:
        parser.error("--pin places the engines on this machine's CPUs; with --ray, Ray places them")
    if args.pin and not usable_cpus():
        parser.error("--pin needs CPU affinity, which this system does not offer")
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if args.random_openings < 0:
        parser.error("--random-openings must not be negative")
    if not 0 <= args.opening_plies <= 40:
        parser.error("--opening-plies is 0 to 40")
    if args.movetime < 0 or args.gametime < 0 or args.increment < 0 or args.move_timeout < 0:
        parser.error("times must not be negative")
    if not 0 < args.codecup_timeout < 1e6:
        parser.error("--codecup-timeout is a number of seconds above 0")
    if args.sprt:
        elo0, elo1, alpha, beta = args.sprt
        if elo0 >= elo1 or not (0 < alpha < 1 and 0 < beta < 1):
            parser.error("--sprt needs elo0 < elo1 and 0 < alpha, beta < 1")
    if args.games is None:
        args.games = 2 * args.random_openings if args.random_openings else 10
    return args


def main(argv=None) -> int:
    return cli.guarded(run, argv, "match")


def run(argv=None) -> int:
    args = parse_args(argv)
    for path, option in ((args.records, "--records"), (args.think_times, "--think-times")):
        if path is not None:
            cli.check_writable(path, option)  # before the games, not after them
    openings = (random_prefixes(GAMES[args.game], args.random_openings, args.opening_plies,
                                args.seed) if args.random_openings else [])
    if args.ray:
        cli.ray_init("match", runtime_env={"env_vars": {"PYTHONPATH": str(REPO)}})
    indices: "queue.Queue[int]" = queue.Queue()
    for index in range(args.games):
        indices.put(index)
    tally = Tally(args)
    errors: list[str] = []
    started = time.monotonic()
    # Daemon workers: after a second Ctrl-C the referee leaves without them (the engines,
    # in their own process groups, then see their input close and exit).
    # (Events, not Thread.join: a join interrupted by Ctrl-C may not wait again.)
    done = [threading.Event() for _ in range(min(args.concurrency, args.games))]
    cpus = usable_cpus() if args.pin else []
    for number, event in enumerate(done):
        pinned = {cpus[number % len(cpus)]} if cpus else None
        threading.Thread(target=worker, args=(args, indices, tally, openings, errors, event, pinned),
                         daemon=True).start()
    try:
        try:
            for event in done:
                event.wait()
        except KeyboardInterrupt:
            tally.stop.set()
            print("interrupted: finishing the games in progress (Ctrl-C again abandons them)",
                  file=sys.stderr, flush=True)
            for event in done:
                event.wait()
    except KeyboardInterrupt:
        print("abandoned the games in progress; they are not counted", file=sys.stderr)
    with tally.lock:
        wins, draws, losses = tally.wins, tally.draws, tally.losses
        pairs = list(tally.pairs)
    games = wins + draws + losses
    errors = list(dict.fromkeys(errors))  # every worker may fail alike: each reason once
    if games == 0 and errors:  # nothing was played: only the reason matters
        for e in errors:
            print(f"match: {e}", file=sys.stderr)
        return 1
    score = (wins + 0.5 * draws) / games if games else 0.0
    print(f"\nA vs B, {args.game}, {plural(games, 'game')}: +{wins} ={draws} -{losses}, "
          f"score {100 * score:.1f} %, {elo_text(wins, draws, losses)}, "
          f"{time.monotonic() - started:.0f} s")
    if args.sprt:
        elo0, elo1, alpha, beta = args.sprt
        lower, upper = sprt_bounds(alpha, beta)
        llr = pentanomial_llr(pairs, elo0, elo1)
        print(tally.decision or f"SPRT: undecided after {plural(sum(pairs), 'pair')} "
                                f"(LLR {llr:.2f}, bounds {lower:.2f} {upper:.2f})")
    if args.gametime:
        print(f"lost on time: A {tally.time_losses['A']}, B {tally.time_losses['B']}")
    tally.close_live()
    if args.think_times:
        with cli.atomic_output(args.think_times, "--think-times", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(THINK_FIELDS)
            writer.writerows(sorted(tally.think_rows))
    if args.records:
        cli.write_atomically(args.records,
                             "\n".join(tally.records[i] for i in sorted(tally.records)) + "\n",
                             "--records")
    for e in errors:
        print(f"match: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
