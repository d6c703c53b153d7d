"""TZAAR openings: the fixed rings of the rule text and the seeded random layout."""
from __future__ import annotations

from collections import Counter

import pytest

from engine.games.tzaar.board import TZAAR_BOARD as BOARD
from engine.games.tzaar.openings import STOCK, fixed_opening, random_opening
from engine.games.tzaar.rules import TzaarGame
from engine.rules import BLACK, WHITE
from engine.splitmix64 import MASK64, SplitMix64

# Walking order of a ring: start at the corner k * (0, -1), then turn through the
# six directions in rotational order, k steps each.
_ROTATION = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def ring(k: int) -> list[int]:
    x, y = 0, -k
    points = []
    for dx, dy in _ROTATION:
        for _ in range(k):
            points.append(BOARD.index[(x, y)])
            x, y = x + dx, y + dy
    assert (x, y) == (0, -k)
    return points


def stock_counts(cells: list[str]) -> Counter:
    return Counter("".join(cells))


EXPECTED_STOCK = {"a": 6, "b": 9, "c": 15, "A": 6, "B": 9, "C": 15}

VECTORS = {
    0: "bBAcABCBBaCbccCbCABbBCcCcaCCcABcccbBAacBCbCcbcbcCaabCccCaACC",
    1: "CcBcaCBBCCcbAbccCCCaCacCCBAbccCbbBCcCacbCccAbBcCBBacAbcAAbBa",
    18446744073709551615: "BbBaCccBAaCbcccBBcCCcCcCCCbccCabacAbCBcbCAcACCABABaBbcacbCbC",
}


# ---------------------------------------------------------------------------
# Fixed opening
# ---------------------------------------------------------------------------

def test_tzaar_fixed_opening_fills_all_60_points_with_single_pieces():
    cells = fixed_opening()
    assert len(cells) == 60
    assert all(len(s) == 1 for s in cells)


def test_tzaar_fixed_opening_keeps_6_tzaars_9_tzarras_15_totts_per_side():
    assert stock_counts(fixed_opening()) == EXPECTED_STOCK


def test_tzaar_rings_cover_the_board():
    rings = [ring(k) for k in range(1, 5)]
    assert [len(r) for r in rings] == [6, 12, 18, 24]
    assert sorted(sum(rings, [])) == list(range(60))


@pytest.mark.parametrize("k, kind", [(1, "c"), (2, "a"), (3, "b"), (4, "c")])
def test_tzaar_fixed_opening_rings_are_totts_tzaars_tzarras_totts_outward(k, kind):
    cells = fixed_opening()
    assert {cells[p].lower() for p in ring(k)} == {kind}


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_tzaar_fixed_opening_colours_alternate_by_side_segment(k):
    cells = fixed_opening()
    colours = ["w" if cells[p].islower() else "b" for p in ring(k)]
    # A side of ring k has k points between two corners; a side may be counted from
    # either corner, so accept either alignment but require one that works everywhere.
    # Counted from the corner onward, sides start at 0, k, 2k...; counted towards the
    # corner, they start at 1, k + 1, ...
    for shift in (0, 1):
        rotated = colours[shift:] + colours[:shift]
        sides = [rotated[i * k:(i + 1) * k] for i in range(6)]
        if all(len(set(side)) == 1 for side in sides) and \
                all(sides[i][0] != sides[(i + 1) % 6][0] for i in range(6)):
            break
    else:
        pytest.fail(f"ring {k} colours {''.join(colours)} do not alternate by side")


def test_tzaar_fixed_opening_is_the_default_game():
    g = TzaarGame()
    assert g.cells == fixed_opening()
    assert g.side == WHITE and g.opening_turn


def test_tzaar_fixed_opening_gives_white_42_single_capture_turns():
    g = TzaarGame()
    turns = g.legal_moves()
    assert len(turns) == 42 and len(set(turns)) == 42
    assert all(len(t) == 1 and t[0].kind == "capture" for t in turns)


# ---------------------------------------------------------------------------
# Seeded random opening
# ---------------------------------------------------------------------------

def test_splitmix64_first_output_for_seed_zero():
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF


def test_splitmix64_outputs_are_64_bit_and_the_seed_is_taken_mod_2_64():
    a, b = SplitMix64(5), SplitMix64(5 + (1 << 64))
    for _ in range(50):
        x = a.next()
        assert 0 <= x <= MASK64 and x == b.next()


@pytest.mark.parametrize("seed", sorted(VECTORS))
def test_tzaar_random_opening_matches_the_published_test_vectors(seed):
    assert "".join(random_opening(seed)) == VECTORS[seed]


def test_tzaar_random_opening_is_fisher_yates_over_splitmix64_from_the_stock():
    """An independent transcription of the spec in engine/games/tzaar/openings.py and engine/splitmix64.py."""
    for seed in (2, 12345, 2 ** 63):
        state = seed
        stock = list("a" * 6 + "b" * 9 + "c" * 15 + "A" * 6 + "B" * 9 + "C" * 15)

        def nxt():
            nonlocal state
            state = (state + 0x9E3779B97F4A7C15) % 2 ** 64
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2 ** 64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2 ** 64
            return z ^ (z >> 31)

        for i in range(59, 0, -1):
            j = nxt() % (i + 1)
            stock[i], stock[j] = stock[j], stock[i]
        assert random_opening(seed) == stock


@pytest.mark.parametrize("seed", [0, 1, 7, 42, 99999, MASK64])
def test_tzaar_random_opening_keeps_6_9_15_per_side(seed):
    cells = random_opening(seed)
    assert len(cells) == 60 and all(len(s) == 1 for s in cells)
    assert stock_counts(cells) == EXPECTED_STOCK


def test_tzaar_random_opening_is_deterministic_for_a_seed():
    assert random_opening(7) == random_opening(7)
    assert random_opening(MASK64) == random_opening(MASK64)


def test_tzaar_random_opening_differs_between_seeds():
    layouts = {"".join(random_opening(s)) for s in range(20)}
    assert len(layouts) == 20
    assert "".join(fixed_opening()) not in layouts


def test_tzaar_stock_order_is_white_then_black_by_type():
    assert STOCK == "a" * 6 + "b" * 9 + "c" * 15 + "A" * 6 + "B" * 9 + "C" * 15


@pytest.mark.parametrize("seed", [-1, 2 ** 64, 2 ** 70])
def test_tzaar_random_opening_rejects_seeds_outside_64_bits(seed):
    with pytest.raises(ValueError):
        random_opening(seed)


def test_tzaar_random_opening_does_not_change_the_rules():
    g = TzaarGame(random_opening(3))
    assert g.side == WHITE and g.opening_turn and not g.over
    turns = g.legal_moves()
    assert turns and all(len(t) == 1 and t[0].kind == "capture" for t in turns)
    g.push(turns[0])
    assert g.side == BLACK
    assert all(len(t) == 2 for t in g.legal_moves())


def test_tzaar_random_opening_position_round_trips():
    g = TzaarGame(random_opening(11))
    text = g.position()
    assert text.startswith("tzaar w opening ")
    assert TzaarGame.from_position(text).cells == random_opening(11)
