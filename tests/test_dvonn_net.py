"""The DVONN network: scripts/train_net's fit, and csrc/dvonn/dvonn_net.c against its numpy twin."""
from __future__ import annotations

import contextlib
import json
import random

import pytest
from conftest import REPO

from engine import core
from engine.games.dvonn import train_net
from engine.games.dvonn.rules import DvonnGame
from engine.tools import tune

np = pytest.importorskip("numpy")
pytest.importorskip("scipy")
pytestmark = pytest.mark.skipif(not core.AVAILABLE, reason=core.UNAVAILABLE_REASON or "no core")


def movement_positions(seed: int, games: int):
    rng = random.Random(seed)
    for _ in range(games):
        g = DvonnGame()
        while not g.over:
            if g.phase == "movement":
                yield DvonnGame.from_position(g.position())
            g.push(rng.choice(g.legal_moves()))


@contextlib.contextmanager
def net_weight(value: int):
    old = next(w.value for w in core.eval_weights("dvonn") if w.name == "net")
    core.set_weight("dvonn", "net", value)
    try:
        yield
    finally:
        core.set_weight("dvonn", "net", old)


def test_the_trainer_recovers_a_network_it_did_not_start_from():
    """Targets made by a random teacher network whose first layer weighs each category alike on
    every point (its output only, no evaluation): the student, from other initial weights and with
    twice its units, predicts held-out positions far better than a constant."""
    rng = np.random.default_rng(4)
    n = 12000
    cats = rng.integers(0, train_net.CATEGORIES + 1, (n, 49)) * (rng.random((n, 49)) < 0.4)
    sides = rng.integers(0, 2, n)
    own, other = train_net.views(np, cats, sides)
    teacher = train_net.Net(np, 4, own.shape[1], seed=11)
    parts = teacher.unpack(teacher.x)
    parts[0][:] = np.tile(rng.normal(0, 0.1, (train_net.CATEGORIES, 4)), (49, 1))
    parts[2][:], parts[3][:] = rng.normal(0, 2, 4), rng.normal(0, 2, 4)
    k = 1.0
    c = np.log(10) * k / 400
    from scipy.special import expit
    targets = expit(c * train_net.SCALE * train_net.forward(np, parts, own, other)[4])
    fit, test = slice(0, 10000), slice(10000, n)
    student = train_net.train(np, train_net.Net(np, 8, own.shape[1], seed=2), own[fit], other[fit],
                              np.zeros(10000), targets[fit], k, 1e-6, 300)
    predicted = expit(c * train_net.SCALE * train_net.forward(np, student.unpack(student.x), own[test], other[test])[4])
    assert np.mean((predicted - targets[test]) ** 2) < 0.2 * np.var(targets[test])


def test_the_core_network_is_the_numpy_forward_pass_of_the_header_exactly():
    weights = train_net.read_header(np, REPO / "csrc" / "generated" / "dvonn_net_weights.h")
    assert np.abs(weights["out"]).sum() > 0  # a trained network, not zeros
    positions = list(movement_positions(7, games=4))
    cats = [train_net.cell_categories(g.cells) for g in positions]
    sides = [g.side for g in positions]
    for percent in (100, 37, -250):
        expected = train_net.int_output(np, weights, cats, sides, percent)
        with net_weight(percent):
            got = []
            for g in positions:
                _, terms = core.eval_terms("dvonn", g.cells, g.side, core.phase(g))
                got.append(dict((name, (w, b)) for name, w, b in terms)["net"][g.side])
        assert got == [int(x) for x in expected]
    assert len(positions) > 100 and len(set(got)) > 20


def test_the_network_only_adds_its_term_and_at_zero_is_not_there():
    for g in movement_positions(8, games=3):
        args = ("dvonn", g.cells, g.side, core.phase(g))
        base, base_terms = core.eval_terms(*args)
        with net_weight(100):
            value, terms = core.eval_terms(*args)
        shares = dict((name, (w, b)) for name, w, b in terms)
        assert dict((name, (w, b)) for name, w, b in base_terms)["net"] == (0, 0)
        assert [t for t in terms if t[0] != "net"] == [t for t in base_terms if t[0] != "net"]
        if abs(base) < 250_000:
            assert value == base + shares["net"][g.side]


def test_the_categories_agree_with_the_rules_layer_on_moves():
    """A stack's category says it can move exactly when the rules layer has a move for it."""
    for g in movement_positions(9, games=2):
        movers = {m.src for side in (0, 1) for m in g.stack_moves(side)}
        for point, cat in enumerate(train_net.cell_categories(g.cells)):
            assert (cat >= 2 and (cat - 2) % 2 == 1) == (point in movers)
            if cat >= 2:
                assert (cat - 2) // 20 == "WB".index(g.cells[point][-1])


def test_tune_measures_the_network_term_at_weight_0_at_its_full_resolution(tmp_path):
    """scripts/tune probes a zero weight: `net` is in percent, so a probe of 1 would round each
    position's share to a few points; the column it fits must be the term at net 100 over 100."""
    games = list(movement_positions(8, 2))[::7]
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps({"game": "dvonn", "position": g.position(), "score": 0,
                                        "result": 1.0, "index": 0}) + "\n" for g in games))
    with net_weight(0):
        features, _, _, _, names, _ = tune.load_data("dvonn", [str(data)])
    column = features[:, names.index("net")]
    expected = []
    with net_weight(100):
        for g in games:
            value, terms = core.eval_terms("dvonn", g.cells, g.side, core.phase(g))
            if abs(value) >= tune.DECIDED:
                continue
            white, black = next((w, b) for name, w, b in terms if name == "net")
            expected.append((1.0 if g.side == 0 else -1.0) * (white - black) / 100)
    assert len(expected) == len(column) > 5
    assert np.abs(column - np.round(column)).max() > 0.05  # finer than whole points per percent
    assert np.allclose(column, expected)
