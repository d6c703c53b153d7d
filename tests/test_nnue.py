"""DVONN's evaluation network: the file's checks, the incrementally kept first layer, the output
against a reference computed here, and `weights load` / `version` / `weights reset`."""
from __future__ import annotations

import random
from array import array

import pytest

from engine import core, network
from engine.games.dvonn.rules import DvonnGame

pytestmark = pytest.mark.skipif(not core.AVAILABLE, reason=core.UNAVAILABLE_REASON or "no core")

KINDS, HIDDEN, BUCKETS = 50, 32, 4
FEATURES = 49 * KINDS


def random_network(seed: int, mode: int = 1, max_stacks: int = 49) -> network.Network:
    rng = random.Random(seed)
    return network.Network(
        "dvonn", FEATURES, HIDDEN, BUCKETS, 245, mode, max_stacks,
        array("h", [rng.randint(-40, 40) for _ in range(FEATURES * HIDDEN)]),
        array("h", [rng.randint(0, 80) for _ in range(HIDDEN)]),
        array("h", [rng.randint(-64, 64) for _ in range(BUCKETS * 2 * HIDDEN)]),
        array("i", [rng.randint(-20000, 20000) for _ in range(BUCKETS)]))


@pytest.fixture
def installed():
    """Install networks in this process; the weights' evaluation again afterwards."""
    yield lambda net: network.install(net, "test")
    network.unload("dvonn")


def stacking_positions(seed: int, count: int):
    """Positions of random games from the last placement on, the island removals included."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        g = DvonnGame()
        while not g.over:
            if g.phase != "placement" or g.ply == 48:
                found.append(DvonnGame.from_position(g.position()))
            g.push(rng.choice(g.legal_moves()))
    return found[:count]


def reference_eval(net: network.Network, cells, side: int) -> int:
    """The network's output for the side to act, computed from the file's arrays alone."""
    board = [(c, r) for r, n in enumerate((9, 10, 11, 10, 9)) for c in range(max(0, r - 2), max(0, r - 2) + n)]
    at = {cell: i for i, cell in enumerate(board)}

    def stuck(point):  # all six neighbours on the board and occupied
        c, r = board[point]
        around = [at.get((c + a, r + b)) for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))]
        return all(n is not None and cells[n] for n in around)

    def feature(point, stack, view):
        top = "WBR".index(stack[-1])
        hb = min(len(stack), 5) - 1
        kind = 20 + hb if top == 2 else (0 if top == view else 10) + 2 * hb + ("R" in stack)
        return point * KINDS + 25 * stuck(point) + kind

    acc = [[net.b1[j] for j in range(HIDDEN)] for _ in range(2)]
    for point, stack in enumerate(cells):
        for view in (0, 1):
            if stack:
                f = feature(point, stack, view)
                for j in range(HIDDEN):
                    acc[view][j] += net.w1[f * HIDDEN + j]
    stacks = sum(1 for stack in cells if stack)
    b = min(max((48 - stacks) // 10, 0), BUCKETS - 1)
    total = net.b2[b]
    for half, view in enumerate((side, 1 - side)):
        for j in range(HIDDEN):
            total += min(max(acc[view][j], 0), network.QA) * net.w2[b * 2 * HIDDEN + half * HIDDEN + j]
    return int(total * net.scale / (network.QA * network.QB))  # C's division: towards zero


@pytest.mark.parametrize("mode, max_stacks", [(1, 49), (2, 40)])
def test_the_first_layer_kept_through_moves_and_island_removals_equals_a_fresh_one(installed, mode, max_stacks):
    installed(random_network(1, mode, max_stacks))
    for g in stacking_positions(seed=2, count=12):
        assert network.check("dvonn", list(g.cells), g.side, core.phase(g), 2) == 0, g.position()


@pytest.mark.parametrize("mode, max_stacks", [(1, 49), (2, 49), (2, 30)])
def test_the_stacking_evaluation_is_the_network_alone_or_added_to_the_weights(installed, mode, max_stacks):
    positions = stacking_positions(seed=3, count=60)
    linear = [core.evaluate("dvonn", list(g.cells), g.side, core.phase(g)) for g in positions]
    net = random_network(4, mode, max_stacks)
    installed(net)
    valued = 0
    for g, base in zip(positions, linear):
        value = core.evaluate("dvonn", list(g.cells), g.side, core.phase(g))
        if g.phase == "placement" or sum(1 for c in g.cells if c) > max_stacks:
            assert value == base  # the weights' evaluation: placement, or more stacks than the limit
            continue
        valued += 1
        assert value == reference_eval(net, g.cells, g.side) + (base if mode == 2 else 0), g.position()
    assert valued > 10


def test_a_network_file_round_trips_and_every_damage_is_named():
    data = random_network(5).to_bytes()
    parsed = network.parse(data)
    assert parsed.to_bytes() == data
    flipped = bytearray(data)
    flipped[1000] ^= 1
    cases = {
        b"GIPFNNUX" + data[8:]: "not a network file",
        data[:-1]: "does not match its shape",
        bytes(flipped): "checksum mismatch",
        data[:8] + b"\x02" + data[9:]: "format version 2",
    }
    for bad, message in cases.items():
        with pytest.raises(network.NetworkError, match=message):
            network.parse(bad)


def test_weights_load_installs_a_network_version_names_it_and_reset_removes_it(engine, tmp_path):
    good = tmp_path / "net.bin"
    good.write_bytes(random_network(6).to_bytes())
    engine.ok("newgame dvonn")
    plain = engine.ok("version")
    reply = engine.ok(f"weights load {good}")
    assert reply.startswith("network net.bin ")
    name = reply.split(" ", 1)[1].replace(" ", ":")
    assert engine.ok("version") == f"{plain} dvonn-network={name}"
    narrow = tmp_path / "narrow.bin"
    small = random_network(7)
    small.hidden, small.b1 = 16, array("h", [0] * 16)
    small.w1, small.w2 = array("h", [0] * FEATURES * 16), array("h", [0] * BUCKETS * 32)
    narrow.write_bytes(small.to_bytes())
    damaged = tmp_path / "damaged.bin"
    damaged.write_bytes(good.read_bytes()[:-5] + b"xxxxx")
    assert engine.error(f"weights load {narrow}") == \
        f"network shape {FEATURES}x16x{BUCKETS}, the core's is {FEATURES}x{HIDDEN}x{BUCKETS}"
    assert engine.error(f"weights load {damaged}") == \
        f"{damaged}: network checksum mismatch (a damaged file)"
    assert engine.ok("version") == f"{plain} dvonn-network={name}"  # the good one still in place
    engine.ok("weights reset")
    assert engine.ok("version") == plain


def test_eval_shows_the_value_the_network_gives_and_says_so(engine, tmp_path):
    rng = random.Random(8)
    g = DvonnGame()
    while g.phase == "placement":
        g.push(rng.choice(g.legal_moves()))
    net = random_network(9)
    path = tmp_path / "n.bin"
    path.write_bytes(net.to_bytes())
    engine.ok(f"setposition {g.position()}")
    engine.ok(f"weights load {path}")
    last = engine.ok("eval").splitlines()[-1]
    side = "white" if g.side == 0 else "black"
    assert last.startswith(f"eval {reference_eval(net, g.cells, g.side)} (side to act: {side}); "
                           "the network n.bin ")
    assert last.endswith("values it (the terms are the weights' alone)")
