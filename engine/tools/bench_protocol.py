"""Protocol benchmarks through a real pipe (subprocess with stdin/stdout pipes, no pty).

  (a) round trips: `play` + `undo` pairs in each game's scenarios (engine/tools/bench_data.py: DVONN
      placement, DVONN movement and TZAAR),
      pipelined in batches and strictly one request at a time -> commands/s (median of runs)
  (b) start-up: spawn to the first reply (`name`), median over N starts, next to a bare
      Python interpreter doing the same read/reply
  (c) `legal_moves` on big positions (bench_data.BIG_TURN_AFTER; TZAAR): Black's first
      turn after a White opening capture (fixed layout, ~6,000 turns) and random openings with
      more than 10,000 turns

Targets: >= 10,000 commands/s, <= 150 ms start-up.

  gipf-bench-protocol                 # everything, prints a table
  gipf-bench-protocol --quick         # fewer runs
  gipf-bench-protocol --profile       # also cProfile the server in process where time goes
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Optional

from engine.games import SPECS
from engine.tools import cli
from engine.tools.bench_data import BIG_TURN_AFTER, PROTOCOL_SCENARIOS

REPO = Path(__file__).resolve().parents[2]
ENGINE = [sys.executable, "-m", "engine"]
TARGET_CPS = 10_000
TARGET_STARTUP_MS = 150



def scenarios() -> dict:
    """name -> (setup commands, the move pair's play line, None: found at run time), from each
    registered game's PROTOCOL_SCENARIOS (engine/tools/bench_data.py)."""
    found = {}
    for name in SPECS:
        for scenario in PROTOCOL_SCENARIOS.get(name, ()):
            setup = [f"newgame {name}"] + ([f"replay {scenario.moves}"] if scenario.moves else [])
            found[f"{name} {scenario.label}"] = (setup, scenario.play)
    return found


class Engine:
    """One engine process over plain pipes."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(ENGINE, cwd=str(REPO), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert self.proc.stdin is not None and self.proc.stdout is not None, "both are pipes"
        self.into = self.proc.stdin
        self.out = self.proc.stdout

    def read_reply(self) -> tuple[bool, str]:
        head = self.out.readline()
        if not head:
            raise RuntimeError("engine closed stdout")
        lines = [head[1:].decode().rstrip("\n")]
        while True:
            line = self.out.readline()
            if line in (b"\n", b""):
                break
            lines.append(line.decode().rstrip("\n"))
        first = re.sub(r"^[0-9]* ?", "", lines[0])
        text = "\n".join(([first] if first else []) + lines[1:])
        return head[:1] == b"=", text

    def send(self, data: bytes) -> None:
        self.into.write(data)
        self.into.flush()

    def ask(self, line: str) -> str:
        self.send(line.encode() + b"\n")
        ok, text = self.read_reply()
        if not ok:
            raise RuntimeError(f"{line!r} failed: {text}")
        return text

    def pipelined(self, lines: list[bytes]) -> list[tuple[bool, str]]:
        data = b"".join(line + b"\n" for line in lines)
        writer = threading.Thread(target=self.send, args=(data,))
        writer.start()
        replies = [self.read_reply() for _ in lines]
        writer.join()
        return replies

    def close(self) -> None:
        self.into.close()
        self.proc.wait(timeout=30)
        self.out.close()


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


# --- (a) round trips ----------------------------------------------------------------------------

def scenario_pair(engine: Engine, setup: list[str], play: Optional[str]) -> list[bytes]:
    for line in setup:
        engine.ask(line)
    if play is None:
        play = "play b " + engine.ask("legal_moves").split("\n")[0]
    engine.ask(play)  # check it is legal here, then take it back
    engine.ask("undo")
    return [play.encode(), b"undo"]


def bench_round_trips(runs: int, pairs: int) -> dict:
    results = {}
    engine = Engine()
    try:
        for name, (setup, play) in scenarios().items():
            pair = scenario_pair(engine, setup, play)
            before = engine.ask("position")
            batch = pair * pairs
            piped, single = [], []
            for _ in range(runs):
                start = time.perf_counter()
                replies = engine.pipelined(batch)
                piped.append(len(batch) / (time.perf_counter() - start))
                assert all(ok for ok, _ in replies), [t for ok, t in replies if not ok][:3]
                start = time.perf_counter()
                for line in batch[: len(batch) // 2]:
                    engine.send(line + b"\n")
                    ok, text = engine.read_reply()
                    assert ok, text
                single.append((len(batch) // 2) / (time.perf_counter() - start))
            assert engine.ask("position") == before
            results[name] = (statistics.median(piped), statistics.median(single), pair[0].decode())
    finally:
        engine.close()
    return results


# --- (b) start-up ---------------------------------------------------------------------------------

BARE = [sys.executable, "-c", "import sys; sys.stdin.readline(); sys.stdout.write('= x\\n\\n'); sys.stdout.flush()"]


def time_first_reply(argv: list[str]) -> float:
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=str(REPO), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None, "both are pipes"
    proc.stdin.write(b"name\n")
    proc.stdin.flush()
    head = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    assert head.startswith(b"="), head
    proc.stdin.close()
    proc.wait(timeout=30)
    proc.stdout.close()
    return elapsed


def bench_startup(starts: int) -> dict:
    engine = [time_first_reply(ENGINE) for _ in range(starts)]
    bare = [time_first_reply(BARE) for _ in range(starts)]
    nosite = [time_first_reply([sys.executable, "-S", *BARE[1:]]) for _ in range(max(5, starts // 4))]
    return {"engine": engine, "bare": bare, "bare -S": nosite}


def import_profile(top: int = 12) -> list[tuple[int, str]]:
    """-X importtime of the engine: (cumulative µs, module), biggest first."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import engine.protocol.server"],
                          cwd=str(REPO), capture_output=True, text=True)
    rows = []
    for line in done.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
        if m and len(m.group(3)) <= 3:  # top-level imports and their direct children
            rows.append((int(m.group(2)), m.group(4)))
    return sorted(rows, reverse=True)[:top]


# --- (c) legal_moves on big positions ---------------------------------------------------------------

def big_turn_games() -> list[str]:
    """The registered games whose BIG_TURN_AFTER names a first move with a long reply list."""
    return [name for name in SPECS if name in BIG_TURN_AFTER]


def find_big_openings(engine: Engine, game: str, wanted: int, seeds: range) -> list[tuple[int, str, int]]:
    """(seed, White's first move, Black's turn count) with more than 10,000 turns, in seeded
    random layouts."""
    found = []
    have_perft = engine.ask("known_command perft") == "true"
    for seed in seeds:
        engine.ask(f"newgame {game} random {seed}")
        best = (0, "")
        for capture in engine.ask("legal_moves").split("\n"):
            engine.ask(f"play w {capture}")
            if have_perft:
                count = int(engine.ask("perft 1"))
            else:
                count = engine.ask("legal_moves").count("\n") + 1
            engine.ask("undo")
            best = max(best, (count, capture))
        if best[0] > 10_000:
            found.append((seed, best[1], best[0]))
            if len(found) == wanted:
                break
    return found


def bench_legal_moves(game: str, runs: int, openings: int) -> list[tuple[str, int, float, str]]:
    engine = Engine()
    rows = []
    try:
        first = BIG_TURN_AFTER[game]
        positions = [(f"{game} fixed, after {first}", f"newgame {game}", first)]
        if SPECS[game].rules.has_openings:
            for seed, capture, _ in find_big_openings(engine, game, openings, range(1, 400)):
                positions.append((f"{game} random {seed}, after {capture}", f"newgame {game} random {seed}",
                                  capture))
        for label, setup, capture in positions:
            engine.ask(setup)
            engine.ask(f"play w {capture}")
            times, count = [], 0
            for _ in range(runs):
                start = time.perf_counter()
                text = engine.ask("legal_moves")
                times.append(time.perf_counter() - start)
                count = text.count("\n") + 1
            rows.append((label, count, median_ms(times), f"{setup}; play w {capture}; legal_moves"))
    finally:
        engine.close()
    return rows


# --- profiling in process -----------------------------------------------------------------------------

def profile_in_process(lines: list[bytes], label: str, top: int = 14) -> None:
    from engine.protocol.server import Server

    server = Server()
    data = b"".join(line + b"\n" for line in lines)
    out = io.StringIO()
    prof = cProfile.Profile()
    start = time.perf_counter()
    prof.enable()
    server.serve(io.BytesIO(data), out)
    prof.disable()
    elapsed = time.perf_counter() - start
    print(f"\n--- cProfile, in process: {label} ({len(lines)} commands, {elapsed * 1000:.0f} ms "
          f"under the profiler)")
    stream = io.StringIO()
    pstats.Stats(prof, stream=stream).sort_stats("tottime").print_stats(top)
    text = stream.getvalue()
    print(text[text.find("   ncalls"):].rstrip())


def main(argv=None) -> int:
    return cli.guarded(run, argv, "bench_protocol")


def run(argv=None) -> int:
    parser = cli.ArgumentParser(prog="gipf-bench-protocol", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer runs (a smoke run)")
    parser.add_argument("--profile", action="store_true", help="cProfile the server in process too")
    parser.add_argument("--runs", type=int, default=None, help="runs per round-trip measurement (default 7)")
    parser.add_argument("--starts", type=int, default=None, help="process starts (default 20)")
    args = parser.parse_args(argv)
    runs = args.runs or (3 if args.quick else 7)
    starts = args.starts or (6 if args.quick else 20)
    pairs = 500 if args.quick else 2000

    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    engine = Engine()
    print("engine:", engine.ask("name"), engine.ask("version"))
    engine.close()

    trips = bench_round_trips(runs, pairs)
    print(f"\n(a) play+undo round trips, commands/s (median of {runs} runs; pipelined batches of "
          f"{2 * pairs} commands, one-at-a-time {pairs} commands); target >= {TARGET_CPS:,}")
    print(f"  {'scenario':<18} {'pipelined':>10} {'one-at-a-time':>14}  {'move':<20} verdict")
    for name, (piped, single, move) in trips.items():
        verdict = "ok" if min(piped, single) >= TARGET_CPS else (
            "pipelined ok, single MISSES" if piped >= TARGET_CPS else "MISSES")
        print(f"  {name:<18} {piped:>10,.0f} {single:>14,.0f}  {move:<20} {verdict}")

    boot = bench_startup(starts)
    print(f"\n(b) start-up to the first reply (`name`), ms; target <= {TARGET_STARTUP_MS}")
    print(f"  {'what':<34} {'median':>7} {'min':>7} {'max':>7}  n")
    labels = {"engine": "python3 -m engine", "bare": "bare python3 (read line, reply)",
              "bare -S": "bare python3 -S (no site)"}
    for key, samples in boot.items():
        ms = [s * 1000 for s in samples]
        print(f"  {labels[key]:<34} {statistics.median(ms):>7.1f} {min(ms):>7.1f} {max(ms):>7.1f}  {len(ms)}")
    engine_ms = median_ms(boot["engine"])
    print(f"  verdict: {'ok' if engine_ms <= TARGET_STARTUP_MS else 'MISSES'}; engine's own share "
          f"(median minus bare interpreter) {engine_ms - median_ms(boot['bare']):.0f} ms")
    print("  biggest imports of engine.protocol.server (cumulative ms, python -X importtime):")
    for micros, module in import_profile():
        print(f"    {micros / 1000:7.1f}  {module}")

    rows = []
    for game in big_turn_games():
        found = bench_legal_moves(game, runs=3 if args.quick else 7, openings=2 if args.quick else 3)
        print(f"\n(c) legal_moves on Black's first {SPECS[game].title} turn (request to last byte of the reply), ms")
        print(f"  {'position':<38} {'turns':>7} {'median ms':>10} {'µs/turn':>8}")
        for label, count, median, _ in found:
            print(f"  {label:<38} {count:>7,} {median:>10.1f} {median * 1000 / count:>8.2f}")
        rows += found

    print("\nrerun:")
    print("  gipf-bench-protocol            # this table")
    print("  gipf-bench-protocol --profile  # plus cProfile of where the server's time goes")
    for label, _, _, how in rows:
        commands = how.replace("; ", r"\n")
        print(f"  printf '{commands}\\n' | python3 -m engine   # {label}")

    if args.profile:
        for name, (setup, _) in scenarios().items():
            play = trips[name][2]
            lines = [line.encode() for line in setup] + [play.encode(), b"undo"] * 2000
            profile_in_process(lines, f"{name}: {play} / undo")
        if rows:
            label, _, _, how = rows[-1]
            lines = [line.encode() for line in how.split("; ")] * 1
            lines = lines[:-1] + [b"legal_moves"] * 3
            profile_in_process(lines, f"legal_moves x3, {label}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
