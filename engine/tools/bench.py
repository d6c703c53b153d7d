"""Benchmark of the compiled core (engine/core.py); one run, medians printed.

Positions (fixed, reproducible; each game's GameSpec.tools.bench): random games
played with random.Random(seed) by the Python rules.  DVONN: seeds 11..14, cut after 20 (placement), 49
(first stack move), 58 and 66 plies.  TZAAR: seeds 21..24 (fixed opening),
cut after 3, 6, 9 and 12 turns.

Reports: C perft vs Python perft speed ratio, nodes/s, depth reached in a
fixed time, and the time-to-depth speed-up of 2 threads (ABDADA) over 1.
With --against TREE: the fixed-depth searches, each run alternately by this
tree's compiled core and TREE's (loaded into the same process), timed in CPU
time; per round the nodes/s of both and their ratio, medians printed.
Usage: gipf-bench [--time-ms 1000] [--quick] [--fixed-depth]
                     [--against TREE [--rounds 5]]
                     [--smp [--game G] [--smp-depth D]]
"""
from __future__ import annotations

import glob
import importlib.util
import os
import random
import statistics
import sys
import time

from engine import core
from engine.games import GAMES, SPECS
from engine.rules import perft
from engine.tools import cli


def plans() -> dict:
    """Each game's bench positions (its GameSpec.tools.bench), for the games that have them."""
    return {name: spec.tools.bench for name, spec in SPECS.items() if spec.tools.bench is not None}


def positions(game: str, seeds, cuts) -> list:
    out = []
    for seed in seeds:
        for plies in cuts:
            rng = random.Random(seed)
            g = GAMES[game].start()
            while g.ply < plies and not g.over:
                g.push(rng.choice(g.legal_moves()))
            if not g.over:
                out.append(g)
    return out


def progress(stage: str, done: int, total: int) -> None:
    """One line on stderr per position, so a long stage is never silent (stdout stays clean)."""
    print(f"  {stage}: {done}/{total}", file=sys.stderr, flush=True)


def timed(fn):
    t = time.perf_counter()
    r = fn()
    return r, time.perf_counter() - t


def bench_perft(game, positions, depth):
    ratios, c_rates = [], []
    for i, g in enumerate(positions, 1):
        progress(f"{game} perft({depth})", i, len(positions))
        args = (list(g.cells), g.side, core.phase(g))
        c_n, c_t = timed(lambda args=args: core.perft(game, *args, depth))
        p_n, p_t = timed(lambda g=g: perft(g, depth))
        assert c_n == p_n, (game, g.position(), c_n, p_n)
        c_rates.append(c_n / max(c_t, 1e-9))
        ratios.append(p_t / max(c_t, 1e-9))
    print(f"{game}: perft({depth}) over {len(positions)} positions: C {statistics.median(c_rates):,.0f} "
          f"leaves/s, C/Python speed ratio median {statistics.median(ratios):,.0f}x "
          f"(min {min(ratios):,.0f}x)")


def bench_search(game, positions, time_ms):
    nps, depths = [], []
    for i, g in enumerate(positions, 1):
        progress(f"{game} search {time_ms} ms", i, len(positions))
        core.clear_hash()
        r = core.search(game, list(g.cells), g.side, core.phase(g), time_ms=time_ms, hash_mb=64)
        nps.append(r.nps)
        depths.append(r.depth)
    print(f"{game}: search {time_ms} ms, 1 thread: nodes/s median {statistics.median(nps):,.0f} "
          f"(min {min(nps):,}, max {max(nps):,}); depth median {statistics.median(depths)} "
          f"(min {min(depths)}, max {max(depths)})")


def bench_smp(game, positions, depth):
    """Wall time to a depth with one thread and with two (ABDADA), each from an empty table;
    the ratios are one thread's time over two's."""
    ratios = []
    totals = [0.0, 0.0]
    for i, g in enumerate(positions, 1):
        progress(f"{game} 2 threads vs 1 to depth {depth}", i, len(positions))
        args = (list(g.cells), g.side, core.phase(g))
        times = []
        for threads in (1, 2):
            core.clear_hash()
            times.append(core.search(game, *args, depth=depth, threads=threads, hash_mb=64).time_ms)
        ratios.append(times[0] / max(times[1], 1e-3))
        totals = [t + x for t, x in zip(totals, times)]
    print(f"{game}: time to depth {depth} over {len(positions)} positions, 2 threads vs 1: "
          f"speed-up median {statistics.median(ratios):.2f}x (min {min(ratios):.2f}, max {max(ratios):.2f}), "
          f"total time {totals[0] / max(totals[1], 1e-3):.2f}x, on {os.cpu_count()} CPUs")


def bench_fixed_depth(game, positions, depth):
    """Same searches every run (same node count): the best of three times is robust to load."""
    nodes = ms = 0
    for g in positions:
        times = []
        for _ in range(3):
            core.clear_hash()
            r = core.search(game, list(g.cells), g.side, core.phase(g), depth=depth, hash_mb=64)
            times.append(r.time_ms)
        nodes += r.nodes
        ms += min(times)
    print(f"{game}: fixed depth {depth}, 1 thread, {len(positions)} positions: {nodes:,} nodes, "
          f"best-of-3 {nodes * 1000 / max(ms, 1e-3):,.0f} nodes/s")


def load_core(tree: str):
    """TREE's compiled core as a module of its own (its own table and weights), or None."""
    found = sorted(glob.glob(os.path.join(tree, "engine", "_core*.so")))
    if not found:
        return None
    spec = importlib.util.spec_from_file_location("engine._core", found[0])
    assert spec is not None, "a .so file is an extension module's"
    mine = sys.modules.get("engine._core")
    other = importlib.util.module_from_spec(spec)  # an extension module is ready once created
    if mine is not None:  # cffi's init registered the new module under the shared name
        sys.modules["engine._core"] = mine
    return other


def timed_search(core_mod, game_id, arrays, side, phase, depth):
    """One fixed-depth search by a compiled core module: (nodes, CPU seconds)."""
    ffi, lib = core_mod.ffi, core_mod.lib
    h, t, e = (ffi.from_buffer("uint8_t[]", a) for a in arrays)
    prm = ffi.new("SearchLimits *" if "SearchLimits" in ffi.list_types()[0] else "SearchParams *")
    prm.depth, prm.threads, prm.multipv = depth, 1, 1
    res, turn, turnlen = ffi.new("SearchResult *"), ffi.new("uint32_t[4]"), ffi.new("int *")
    lib.core_clear_hash()
    start = time.thread_time()
    if lib.core_search(game_id, h, t, e, side, phase, prm, 64, res, turn, turnlen) < 0:
        raise core.CoreError("search failed")
    return res.nodes, time.thread_time() - start


def bench_against(game, positions, depth, other, rounds):
    """CPU time is what a search costs whatever else runs; alternating the two builds search
    by search spreads the machine's other load over both."""
    mine = core._core  # this tree's module, whatever sys.modules holds
    game_id = core._game_id(game)
    jobs = [(bytearray(core._ffi.buffer(a)) for a in core._position(game, list(g.cells)))
            for g in positions]
    jobs = [(tuple(j), g.side, core.phase(g)) for j, g in zip(jobs, positions)]
    # Both tables allocated and their pages touched before timing: a fresh table's pages come
    # with its first search's writes; once written, each clear touches them all.
    for m in (mine, other):
        if m.lib.core_set_hash(64) < 0:
            raise core.CoreError("no memory for a 64 MB table")
        timed_search(m, game_id, *jobs[0], depth=1)
        m.lib.core_clear_hash()
    nodes, ratios, rates = [0, 0], [], ([], [])
    for r in range(rounds):
        progress(f"{game} fixed depth {depth}, this build vs --against", r + 1, rounds)
        cpu = [0.0, 0.0]
        for i, (arrays, side, phase) in enumerate(jobs):
            order = (0, 1) if (r + i) % 2 == 0 else (1, 0)
            for k in order:
                n, s = timed_search((mine, other)[k], game_id, arrays, side, phase, depth)
                cpu[k] += s
                if r == 0:
                    nodes[k] += n
        for k in (0, 1):
            rates[k].append(nodes[k] / max(cpu[k], 1e-9))
        ratios.append(rates[0][-1] / rates[1][-1])
    same = "same nodes" if nodes[0] == nodes[1] else f"NODES DIFFER: {nodes[1]:,} against"
    print(f"{game}: fixed depth {depth}, 1 thread, {len(positions)} positions, {rounds} rounds: "
          f"{nodes[0]:,} nodes ({same}); nodes/s median {statistics.median(rates[0]):,.0f} this build, "
          f"{statistics.median(rates[1]):,.0f} against; ratio median {statistics.median(ratios):.3f} "
          f"(min {min(ratios):.3f}, max {max(ratios):.3f})")


def main(argv=None) -> int:
    return cli.guarded(run, argv, "bench")


def run(argv=None) -> int:
    ap = cli.parser("bench", __doc__)
    ap.add_argument("--time-ms", type=int, default=1000,
                    help="search time per position in the nodes/s and depth stage (default 1000)")
    ap.add_argument("--quick", action="store_true", help="fewer positions, shorter searches")
    ap.add_argument("--fixed-depth", action="store_true",
                    help="only fixed-depth searches ("
                         + ", ".join(f"{GAMES[g].title} {plan.fixed[1]}" for g, plan in plans().items())
                         + "), timed best of three: comparable across builds on a loaded machine")
    ap.add_argument("--against", metavar="TREE",
                    help="with the fixed-depth searches: also run each with TREE's compiled core "
                         "(another source tree with engine/_core*.so built in place), alternately, in CPU time")
    ap.add_argument("--rounds", type=int, default=5,
                    help="with --against: how many times every search runs on each build (default 5)")
    ap.add_argument("--smp", action="store_true",
                    help="only the two-thread stage: time to depth with two threads against one")
    ap.add_argument("--smp-depth", type=int, metavar="D",
                    help="the two-thread stage's depth (default: each game's, "
                         + ", ".join(f"{GAMES[g].title} {plan.smp[1]}" for g, plan in plans().items()) + ")")
    ap.add_argument("--game", choices=sorted(plans()), help="only this game")
    ap.add_argument("--network", metavar="FILE",
                    help="search with this evaluation network (as `weights load FILE`) in this build")
    a = ap.parse_args(argv)
    if not core.AVAILABLE:
        print(f"bench: the compiled core is unavailable: {core.UNAVAILABLE_REASON}", file=sys.stderr)
        return 1
    if a.network:
        from engine import network
        try:
            print(f"network {network.load(a.network)}")
        except network.NetworkError as e:
            raise cli.ToolError(str(e)) from None
    other = None
    if a.against:
        other = load_core(a.against)
        if other is None:
            print(f"bench: no compiled core in {a.against}/engine (build it there: "
                  "python3 engine/_core_build.py)", file=sys.stderr)
            return 1
        a.fixed_depth = True
    if a.rounds < 1:
        print("bench: --rounds must be at least 1", file=sys.stderr)
        return 1
    if a.smp_depth is not None and not 1 <= a.smp_depth <= 30:
        print("bench: --smp-depth must be from 1 to 30", file=sys.stderr)
        return 1
    print(f"core {core.core_version()}")
    for game, plan in plans().items():
        if not core.has_game(game) or a.game not in (None, game):
            continue
        (perft_ply, perft_depth), (smp_ply, smp_depth), (fixed_ply, fixed_depth) = plan.perft, plan.smp, plan.fixed
        games = positions(game, plan.seeds, plan.cuts)
        smp_depth = a.smp_depth or smp_depth
        if a.smp:
            bench_smp(game, [g for g in games if g.ply >= smp_ply], smp_depth)
            continue
        if other is not None:
            bench_against(game, [g for g in games if g.ply >= fixed_ply], fixed_depth, other, a.rounds)
            continue
        if a.fixed_depth:
            bench_fixed_depth(game, [g for g in games if g.ply >= fixed_ply], fixed_depth)
            continue
        if a.quick:  # every third position: still covers late placements and movement
            games = games[::3]
        bench_perft(game, [g for g in games if g.ply >= perft_ply], perft_depth)
        bench_search(game, games, a.time_ms)
        bench_smp(game, [g for g in games if g.ply >= smp_ply], smp_depth)
    return 0


if __name__ == "__main__":
    sys.exit(main())
