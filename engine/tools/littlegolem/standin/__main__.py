"""python3 -m engine.tools.littlegolem.standin: a stand-in LittleGolem site on 127.0.0.1 with
DVONN and TZAAR games waiting for the account's move and invitations, whose opponent answers
every move; it prints its address and account, then serves until Ctrl-C or SIGTERM."""
from __future__ import annotations

import argparse
import signal
import sys
import threading

from .server import serve
from .site import PASSWORD, USER


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m engine.tools.littlegolem.standin",
                                     description=__doc__)
    parser.add_argument("--port", type=int, default=0, help="the port (default: a free one)")
    parser.add_argument("--games", type=int, default=2, help="games of each kind (default 2)")
    parser.add_argument("--invitations", type=int, default=3, help="invitations (default 3)")
    args = parser.parse_args(argv)
    if not 0 <= args.port < 65536 or not 0 <= args.games <= 50 or not 0 <= args.invitations <= 50:
        parser.error("--port is 0-65535, --games and --invitations 0-50")
    try:
        site, server = serve(args.port)
    except OSError as e:
        print(f"standin: cannot serve on port {args.port}: {e.strerror or e}", file=sys.stderr)
        return 1
    for n in range(args.games):
        site.add(2601100 + 2 * n, "dvonn", moves=12 + 2 * n, ours=0, seed=n, opponent="Xander")
        site.add(2601101 + 2 * n, "tzaar", moves=3 + 2 * n, ours=1, seed=n, opponent="SlowBrain")
    games = ("Dvonn", "Tzaar", "Chess")
    for n in range(args.invitations):
        site.invite(81200 + n, f"player{n + 1}", games[n % len(games)])
    print(f"a stand-in LittleGolem site at {site.url}: user {USER}, password {PASSWORD}",
          flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    server.shutdown()
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
