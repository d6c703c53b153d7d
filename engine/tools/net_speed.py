"""Nodes per second of DVONN searches with and without a network, where the network values positions.

  python3 -m engine.tools.net_speed NET COUNT FILE...
      COUNT unproven positions of 24-28 stacks from the gipf-selfplay files' lines, each searched
      100,000 nodes from an empty table without and with NET, in turn (the order swapped in the
      second round); the CPU-time nodes per second of each, and their ratio

The fixed-depth bench's positions have more stacks than an endgame network values, so it cannot
see the network's cost.
"""
from __future__ import annotations

import json
import sys
import time

from engine import core, network
from engine.games import GAMES
from engine.tools.decisions import stacks
from engine.tools.tune import PROVEN

NODES = 100_000


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0], "rb") as f:
        net = network.parse(f.read())
    count = int(argv[1])
    found = []
    for path in argv[2:]:
        with open(path) as f:
            for line in f:
                row = json.loads(line)
                text = row["position"]
                if not row.get("sideline") and abs(row["score"]) < PROVEN and text.split()[2] == "move" \
                        and 24 <= stacks(text) <= 28:
                    found.append(text)
    chosen = found[::max(1, len(found) // count)][:count]
    totals = {False: [0, 0.0], True: [0, 0.0]}
    for order in ((False, True), (True, False)):
        for text in chosen:
            game = GAMES["dvonn"].from_position(text)
            for with_net in order:
                network.unload("dvonn")
                if with_net:
                    network.install(net, "speed")
                core.clear_hash()
                start = time.process_time()
                result = core.search("dvonn", list(game.cells), game.side, 1, nodes=NODES, seed=1)
                totals[with_net][0] += result.nodes
                totals[with_net][1] += time.process_time() - start
    plain, netted = (totals[k][0] / totals[k][1] for k in (False, True))
    print(f"{len(chosen)} positions: no network {plain:,.0f} nodes/s, with the network {netted:,.0f} "
          f"nodes/s, ratio {netted / plain:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
