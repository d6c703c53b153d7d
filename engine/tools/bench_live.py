"""How fast the engine stops and starts, through real pipes (protocol.md 6.7, 6.8, 6.1).

  (a) stop latency: from the stop request to the first byte of the reply, for SIGINT and
      `# interrupt` during `analyze 100000000`, and for the line that ends `analyze live`
  (b) the first genmove of a fresh process after `option hash 2048` and `option movetime 200`
      (the table is set up by the option, not inside the search), and after start-up alone
      with `option movetime 200`

  gipf-bench-live            # 7 runs of each
  gipf-bench-live --runs 3
"""
from __future__ import annotations

import argparse
import os
import shlex
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

from engine.tools import cli

REPO = Path(__file__).resolve().parents[2]


class Engine:
    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(command, cwd=str(REPO), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert self.proc.stdin is not None and self.proc.stdout is not None, "both are pipes"
        self.into = self.proc.stdin
        self.out = self.proc.stdout

    def send(self, line: str) -> None:
        self.into.write(line.encode() + b"\n")
        self.into.flush()

    def line(self) -> str:
        text = self.out.readline()
        if not text:
            raise RuntimeError("the engine closed its output")
        return text.decode().rstrip("\n")

    def rest_of_reply(self) -> None:
        while self.line():
            pass

    def ask(self, line: str) -> float:
        """Seconds from sending the line to the end of its reply."""
        start = time.perf_counter()
        self.send(line)
        head = self.line()
        if head.startswith("?"):
            raise RuntimeError(f"{line!r} failed: {head}")
        self.rest_of_reply()
        return time.perf_counter() - start

    def close(self) -> None:
        self.into.close()
        self.proc.wait(timeout=30)
        self.out.close()


def stop_latencies(command: list[str], runs: int) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {"SIGINT during analyze": [], "# interrupt during analyze": [],
             "next line during analyze live": []}
    engine = Engine(command)
    try:
        engine.ask("option info off")
        for _ in range(runs):
            for how in found:
                if how.endswith("analyze live"):
                    engine.send("analyze live")
                    engine.line()  # the `=` comes at once
                else:
                    engine.send("analyze 100000000")
                time.sleep(0.3)
                start = time.perf_counter()
                if how.startswith("SIGINT"):
                    engine.proc.send_signal(signal.SIGINT)
                elif how.startswith("#"):
                    engine.send("# interrupt")
                else:
                    engine.send("name")
                engine.line()
                found[how].append(time.perf_counter() - start)
                engine.rest_of_reply()
                if how.endswith("analyze live"):
                    engine.line()  # the reply to `name`
                    engine.rest_of_reply()
    finally:
        engine.close()
    return found


def first_genmoves(command: list[str], runs: int) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {"option hash 2048 (the option itself)": [],
             "first genmove after hash 2048, movetime 200": [],
             "first genmove after start-up, movetime 200": []}
    for _ in range(runs):
        engine = Engine(command)
        found["option hash 2048 (the option itself)"].append(engine.ask("option hash 2048"))
        engine.ask("option movetime 200")
        found["first genmove after hash 2048, movetime 200"].append(engine.ask("genmove"))
        engine.close()
        engine = Engine(command)
        engine.ask("option movetime 200")
        time.sleep(0.3)  # a client rarely asks for a move within 0.3 s of starting the engine
        found["first genmove after start-up, movetime 200"].append(engine.ask("genmove"))
        engine.close()
    return found


def show(title: str, rows: dict[str, list[float]]) -> None:
    print(title)
    for what, samples in rows.items():
        ms = [s * 1000 for s in samples]
        print(f"  {what:<46} median {statistics.median(ms):8.1f} ms  "
              f"(min {min(ms):.1f}, max {max(ms):.1f}, n {len(ms)})")


def main(argv=None) -> int:
    return cli.guarded(run, argv, "bench_live")


def run(argv=None) -> int:
    parser = cli.ArgumentParser(prog="gipf-bench-live", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="runs of each measurement (default 7)")
    parser.add_argument("--engine", type=cli.command, default=f"{sys.executable} -m engine",
                        help="engine command (default: this package's engine, run by this Python)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    try:
        command = shlex.split(args.engine)
    except ValueError as e:
        raise cli.ToolError(f"--engine {args.engine!r}: {e}") from None
    print(f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    try:
        show("(a) stop request to the first byte of the reply", stop_latencies(command, args.runs))
        show("(b) set-up outside the clock", first_genmoves(command, args.runs))
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as e:  # the engine failed
        raise cli.ToolError(f"the engine ({args.engine}): {e}") from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
