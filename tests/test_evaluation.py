"""The named evaluation: term-by-term `eval`, run-time `weights` (core and protocol)."""
from __future__ import annotations

import contextlib
import random

import pytest

from engine import core
from engine.games.dvonn.rules import DvonnGame
from engine.games.tzaar.rules import TzaarGame

pytestmark = pytest.mark.skipif(not core.AVAILABLE, reason=core.UNAVAILABLE_REASON or "no core")


def positions_along_random_games(make, seed: int, games: int = 3):
    rng = random.Random(seed)
    for _ in range(games):
        g = make()
        while not g.over:
            yield g
            g.push(rng.choice(g.legal_moves()))


@pytest.mark.parametrize("make", [DvonnGame, TzaarGame])
def test_the_terms_add_up_to_the_evaluation_the_search_uses(make):
    checked = 0
    for g in positions_along_random_games(make, seed=5):
        args = (g.name, list(g.cells), g.side, core.phase(g))
        value, terms = core.eval_terms(*args)
        assert value == core.evaluate(*args)
        diff = sum(white - black for _, white, black in terms)
        if abs(value) < 250_000:  # not a decided TZAAR position
            assert abs((diff if g.side == 0 else -diff) - value) < 1, (g.position(), terms)
            checked += 1
    assert checked > 50


def stacking_position() -> str:
    rng = random.Random(3)
    g = DvonnGame()
    while g.phase == "placement":
        g.push(rng.choice(g.legal_moves()))
    return g.position()


def eval_rows(text: str) -> dict[str, list[float]]:
    lines = text.splitlines()
    assert lines[0].split() == ["term", "white", "black", "white-black"]
    assert lines[-1].startswith("eval ")
    return {line.split()[0]: [float(x) for x in line.split()[1:]] for line in lines[1:-1]}


def test_eval_prints_every_weight_for_both_colours_and_the_value(engine):
    engine.ok(f"setposition {stacking_position()}")
    text = engine.ok("eval")
    rows = eval_rows(text)
    assert list(rows)[:-1] == [w.name for w in core.eval_weights("dvonn")]
    assert rows["field"][0] > 0 and rows["field"][1] > 0
    assert rows["place_edge"] == [0, 0, 0]  # placement terms are silent while stacking
    value = int(text.splitlines()[-1].split()[1])
    side_view = rows["sum"][2] if "side to act: white" in text else -rows["sum"][2]
    assert abs(side_view - value) < 1


def test_a_weight_set_at_run_time_changes_the_evaluation_until_reset(engine):
    engine.ok(f"setposition {stacking_position()}")
    before = engine.ok("eval")
    defaults = {w.name: w.default for w in core.weights("dvonn")}
    assert engine.ok(f"weights set field 0 dvonn.landing {2 * defaults['landing']}") == "2"
    rows = eval_rows(engine.ok("eval"))
    assert rows["field"] == [0, 0, 0]
    assert rows["landing"][0] == pytest.approx(2 * eval_rows(before)["landing"][0], abs=0.011)  # printed to 0.01
    assert f"dvonn.field 0  # default {defaults['field']}:" in engine.ok("weights")
    engine.ok("newgame tzaar")  # weights belong to the process, not to one game
    assert engine.ok("weights set dvonn.field 7") == "1"
    engine.ok("weights reset")
    engine.ok(f"setposition {stacking_position()}")
    assert engine.ok("eval") == before


def test_a_weights_file_is_what_weights_prints_and_loads_all_or_nothing(engine, tmp_path):
    listing = engine.ok("weights")
    good = tmp_path / "good.txt"
    cut_now = {w.name: w.default for w in core.weights("dvonn")}["cut_now"]
    assert cut_now != 45
    good.write_text(listing.replace(f"dvonn.cut_now {cut_now}", "dvonn.cut_now 45") + "\n# tuned\n\n")
    assert engine.ok(f"weights load {good}") == str(len(core.weights("dvonn")))
    assert "dvonn.cut_now 45  #" in engine.ok("weights")
    bad = tmp_path / "bad.txt"
    bad.write_text("dvonn.cut_now 1\ndvonn.field 1 2\n")
    assert engine.error(f"weights load {bad}") == f"{bad}: line 2: expected '<game>.<name> <value>'"
    assert "dvonn.cut_now 45  #" in engine.ok("weights")


@pytest.mark.parametrize("line, message", [
    ("weights set nope 1", "unknown dvonn weight 'nope'; 'weights' lists them"),
    ("weights set chess.field 1", "unknown game 'chess' in weight name 'chess.field'"),
    ("weights set field x", "bad value 'x' for field: a whole number"),
    ("weights set field 1000001", "bad value '1000001' for field: from -1000000 to 1000000"),
    ("weights set field 1_0", "bad value '1_0' for field: a whole number"),
    ("weights set field", "wrong arguments; usage: weights [set <name> <value> ... | load <path> | reset]"),
    ("weights load", "wrong arguments; usage: weights [set <name> <value> ... | load <path> | reset]"),
    ("eval now", "wrong number of arguments; usage: eval"),
])
def test_bad_weights_and_eval_lines_are_refused_and_change_nothing(engine, line, message):
    listing = engine.ok("weights")
    assert engine.error(line) == message
    assert engine.ok("weights") == listing


def test_tzaar_start_position_is_symmetric_but_for_the_side_to_act(engine):
    engine.ok("newgame tzaar")
    rows = eval_rows(engine.ok("eval"))
    for name in ("type_count", "captures", "stackings"):
        assert rows[name][0] == rows[name][1] != 0


def test_dvonn_tempo_goes_to_the_side_to_act_and_placements_score_as_placements():
    g = DvonnGame.from_position(stacking_position())
    args = ("dvonn", list(g.cells), g.side, core.phase(g))
    tempo = core.weights("dvonn")[[w.name for w in core.weights("dvonn")].index("tempo")]
    base = core.evaluate(*args)
    try:
        core.set_weight("dvonn", "tempo", tempo.value + 100)
        assert core.evaluate(*args) == base + 100
    finally:
        core.set_weight("dvonn", "tempo", tempo.value)
    rng = random.Random(8)
    late = DvonnGame()
    while late.placed < 45:
        late.push(rng.choice(late.legal_moves()))
    args = ("dvonn", list(late.cells), late.side, core.phase(late))
    placement_terms = dict((n, (w, b)) for n, w, b in core.eval_terms(*args)[1])
    assert placement_terms["field"] == (0, 0) and placement_terms["place_edge"] != (0, 0)


def dvonn_position(side: str, phase: str, stacks: dict[str, str]) -> str:
    """A DVONN position string from {point name: stack bottom to top}; other points empty."""
    from engine.games.dvonn.board import DVONN_BOARD
    points = [stacks.get(name, "-") for name in DVONN_BOARD.names]
    rows, at = [], 0
    for size in (9, 10, 11, 10, 9):
        rows.append(",".join(points[at:at + size]))
        at += size
    return f"dvonn {side} {phase} {'/'.join(rows)}"


def shares(position: str, **weights: int) -> dict[str, tuple[float, float]]:
    """Each term's (White, Black) share in position with the given weights set."""
    g = DvonnGame.from_position(position)
    old = {w.name: w.value for w in core.weights("dvonn")}
    try:
        for name, value in weights.items():
            core.set_weight("dvonn", name, value)
        _, terms = core.eval_terms("dvonn", list(g.cells), g.side, core.phase(g))
    finally:
        for name in weights:
            core.set_weight("dvonn", name, old[name])
    return {name: (white, black) for name, white, black in terms}


def test_placement_own_neighbours_and_red_majorities():
    # Reds A1, E3, K5.  White D2 and D3 touch each other and E3; Black E4 touches E3,
    # Black B1 touches A1: White has the majority at E3, Black at A1, nobody at K5.
    position = dvonn_position("b", "place", {"A1": "R", "E3": "R", "K5": "R", "D2": "W",
                                             "D3": "W", "E4": "B", "B1": "B"})
    terms = shares(position, place_own_nbr=3, place_red_majority=10)
    assert terms["place_own_nbr"] == (2 * 3, 0)
    assert terms["place_red_majority"] == (10, 10)
    position_no_b1 = dvonn_position("b", "place", {"A1": "R", "E3": "R", "K5": "R", "D2": "W",
                                                   "D3": "W", "E4": "B", "I1": "B"})
    assert shares(position_no_b1, place_red_majority=10)["place_red_majority"] == (10, 0)


def test_height_far_from_reds_and_the_tallest_enemy_stack_in_reach():
    # Row 1: reds A1-C1, White D1 (next to a red), Black BB on E1 and White WWWW on F1 (fields
    # 69 and 65: far from the reds), Black G1 (far).  White's D1 can land on E1 (2 pieces);
    # Black's G1 on F1 (4 pieces).
    stacks = {"A1": "R", "B1": "R", "C1": "R", "D1": "W", "E1": "BB", "F1": "WWWW", "G1": "B"}
    for side, mover in (("w", 0), ("b", 1)):
        terms = shares(dvonn_position(side, "move", stacks),
                       height_far=64, capture_now=10, capture_next=3)
        assert terms["height_far"] == (4, 3)
        reach = (2, 4)  # White's best target, Black's
        now, next_ = [0, 0], [0, 0]
        now[mover] = 10 * reach[mover]
        next_[1 - mover] = 3 * reach[1 - mover]
        assert terms["capture_now"] == tuple(now) and terms["capture_next"] == tuple(next_)


@contextlib.contextmanager
def random_weights(game: str, names, seed: int):
    """The game's weights named set to random values (-50 .. 50) for the block, then restored."""
    saved = {w.name: w.value for w in core.weights(game)}
    rng = random.Random(seed)
    values = {name: rng.randint(-50, 50) for name in names}
    try:
        for name, value in values.items():
            core.set_weight(game, name, value)
        yield values
    finally:
        for name in names:
            core.set_weight(game, name, saved[name])


def test_the_placement_table_values_each_piece_by_red_distance_edge_and_own_neighbours():
    """Each own piece counts once during placement, in the entry of its distance to the nearest
    red (1, 2, more), whether it stands on the edge and its own neighbours (3 = 3 or more); along
    random games, under random table weights."""
    from engine.games.dvonn.rules import _NEIGHBOURS, _distance
    names = [w.name for w in core.eval_weights("dvonn") if w.name.endswith(("_own0", "_own1", "_own2", "_own3"))]
    assert len(names) == 24
    checked = 0
    with random_weights("dvonn", names, 7) as table:
        for g in positions_along_random_games(DvonnGame, 29, games=4):
            if g.phase != "placement" or g.placed < 3:
                continue
            value, terms = core.eval_terms("dvonn", g.cells, g.side, core.phase(g))
            reds = [i for i, s in enumerate(g.cells) if s == "R"]
            expected = {name: [0, 0] for name in names}
            for point, piece in enumerate(g.cells):
                if piece not in ("W", "B"):
                    continue
                distance = min(_distance(point, r) for r in reds)
                where = "adj" if distance == 1 else "near" if distance == 2 else "far"
                edge = "edge" if len(_NEIGHBOURS[point]) < 6 else "inner"
                own = min(sum(1 for n in _NEIGHBOURS[point] if g.cells[n] == piece), 3)
                name = f"place_{where}_{edge}_own{own}"
                expected[name]["WB".index(piece)] += table[name]
            shares = {name: (white, black) for name, white, black in terms}
            assert all(shares[name] == tuple(expected[name]) for name in names), g.position()
            checked += 1
    assert checked > 100


def test_the_stack_table_values_each_piece_by_height_place_and_mobility():
    """Each own stack's pieces count once, in the entry of its height (6 = 6 or more), where it
    stands (holding a red, next to one, two steps from one, farther) and whether the rules layer
    lets it move now; along random games, under random table weights."""
    from engine.games.dvonn.rules import _distance
    names = [w.name for w in core.eval_weights("dvonn") if w.name.startswith("stack_h")]
    assert len(names) == 48
    checked = 0
    with random_weights("dvonn", names, 5) as table:
        for g in positions_along_random_games(DvonnGame, 23, games=6):
            if g.phase != "movement":
                continue
            value, terms = core.eval_terms("dvonn", g.cells, g.side, core.phase(g))
            if abs(value) >= 250_000:
                continue  # decided: no terms
            reds = [i for i, s in enumerate(g.cells) if "R" in s]
            movers = {m.src for side in (0, 1) for m in g.stack_moves(side)}
            expected = {name: [0, 0] for name in names}
            for point, stack in enumerate(g.cells):
                if not stack or stack[-1] == "R":
                    continue
                distance = min(_distance(point, r) for r in reds)
                where = ("red" if "R" in stack else "adj" if distance == 1 else
                         "near" if distance == 2 else "far")
                name = f"stack_h{min(len(stack), 6)}_{where}_{'mobile' if point in movers else 'still'}"
                expected[name]["WB".index(stack[-1])] += table[name] * len(stack)
            shares = {name: (white, black) for name, white, black in terms}
            assert all(shares[name] == tuple(expected[name]) for name in names), g.position()
            checked += 1
    assert checked > 100


def test_the_tzaar_stack_table_values_each_stack_by_count_height_and_exposure():
    """Each own stack counts once, in the entry of its type's visible count (1, 2, 3, 4 = 4 to
    6, 7 = 7 or more), its height (4 = 4 or more) and whether an enemy stack may capture it now
    (the Python rules say which); along random games, under random table weights."""
    names = [w.name for w in core.eval_weights("tzaar") if w.name.startswith("stack_n")]
    assert len(names) == 40
    checked = 0
    with random_weights("tzaar", names, 13) as table:
        for g in positions_along_random_games(TzaarGame, 31, games=8):
            value, terms = core.eval_terms(g.name, list(g.cells), g.side, core.phase(g))
            if abs(value) >= 250_000:
                continue  # decided: no terms
            counts = g.visible_counts()
            exposed = {a.dst for colour in (0, 1) for a in g.captures(colour)}
            expected = {name: [0, 0] for name in names}
            for point, stack in enumerate(g.cells):
                if not stack:
                    continue
                n = counts[stack[-1]]
                bucket = n if n <= 3 else 4 if n <= 6 else 7
                name = f"stack_n{bucket}_h{min(len(stack), 4)}_{'exposed' if point in exposed else 'safe'}"
                expected[name][0 if stack[-1].islower() else 1] += table[name]
            shares = {name: (white, black) for name, white, black in terms}
            assert all(shares[name] == tuple(expected[name]) for name in names), g.position()
            checked += 1
    assert checked > 100


TZAAR_MARGINAL = (0, 400, 200, 133, 100, 80, 67, 57, 50, 44, 40, 36, 33, 31, 29, 27)  # tzaar_eval.c


def test_tzaar_exposure_and_central_height_terms_follow_the_rules_layer():
    """exposed_*: minus, per own stack some enemy stack may capture (the Python rules say
    which), the marginal value of its type's visible count, weighted by whether the side to
    act has a whole turn (phase 1) or one action (phases 0, 2) and by side; exposed_height_*:
    minus its pieces under the top; exposed_twice: minus if two enemy stacks can; central_tall: per
    own stack of height >= 2, the rings between it and the board edge."""
    from engine.games.tzaar.board import TZAAR_BOARD
    weights = {"exposed_to_act": 100, "exposed_waiting": 40, "exposed_last_to_act": 150,
               "exposed_last_waiting": 20, "exposed_height_to_act": 7, "exposed_height_waiting": 3,
               "exposed_twice": 5, "central_tall": 10}
    saved = {w.name: w.value for w in core.weights("tzaar")}
    for name, value in weights.items():
        core.set_weight("tzaar", name, value)
    try:
        checked = set()
        for g in positions_along_random_games(TzaarGame, seed=11):
            counts = g.visible_counts()
            for phase in {core.phase(g), 2}:
                value, terms = core.eval_terms(g.name, list(g.cells), g.side, phase)
                if abs(value) >= 250_000:
                    continue  # decided: no terms
                shares = {name: (white, black) for name, white, black in terms}
                for colour in (0, 1):
                    targets = {a.dst for a in g.captures(1 - colour)}
                    marginal = sum(TZAAR_MARGINAL[min(counts[g.cells[t][-1]], 15)] for t in targets)
                    name = ("exposed_" if phase == 1 else "exposed_last_") + \
                        ("to_act" if colour == g.side else "waiting")
                    assert shares[name][colour] == -(marginal * weights[name] // 100), g.position()
                    name = "exposed_height_" + ("to_act" if colour == g.side else "waiting")
                    buried = sum(len(g.cells[t]) - 1 for t in targets)
                    assert shares[name][colour] == -weights[name] * buried, g.position()
                    attackers = [a.dst for a in g.captures(1 - colour)]
                    twice = sum(1 for t in targets if attackers.count(t) >= 2)
                    assert shares["exposed_twice"][colour] == -5 * twice, g.position()
                    rings = sum(4 - max(abs(x), abs(y), abs(x + y))
                                for (x, y), stack in zip(TZAAR_BOARD.coords, g.cells)
                                if len(stack) >= 2 and stack[-1].islower() == (colour == 0))
                    assert shares["central_tall"][colour] == 10 * rings, g.position()
                checked.add(phase)
        assert checked == {0, 1, 2}
    finally:
        for name, value in saved.items():
            core.set_weight("tzaar", name, value)


def test_dvonn_evaluation_values_stay_the_same():
    """Speed work must not change one value: a checksum of the evaluations along four random
    games (the weights below, the defaults until 2026-12-01, with no tables), taken from the build before the
    evaluation was restructured."""
    import hashlib
    pinned = dict(place_red_adjacent=15, place_red_near=7, place_red_distance=3, place_clump=5,
                  place_edge=2, place_own_nbr=0, place_red_majority=0, field=100, height_on_red=1024,
                  height_near_red=256, height_far=0, landing=25,
                  landing_on_red=20, landing_on_enemy=20, enemy_height_in_reach=256, cut_now=30,
                  cut_next=10, tempo=0, mobile_stacks=0, stuck_pieces=0, capture_now=0, capture_next=0)
    pinned.update({w.name: 0 for w in core.eval_weights("dvonn")
                   if w.name.startswith("stack_h") or w.name.endswith(("_own0", "_own1", "_own2", "_own3"))})
    saved = {w.name: w.value for w in core.weights("dvonn")}
    rng = random.Random(17)
    values = []
    try:
        for name, value in pinned.items():
            core.set_weight("dvonn", name, value)
        for _ in range(4):
            g = DvonnGame()
            while not g.over:
                values.append(core.evaluate(g.name, list(g.cells), g.side, core.phase(g)))
                g.push(rng.choice(g.legal_moves()))
    finally:
        for name in pinned:
            core.set_weight("dvonn", name, saved[name])
    assert len(values) == 321
    assert hashlib.sha256(" ".join(map(str, values)).encode()).hexdigest()[:16] == "f349f71a619b26db"
