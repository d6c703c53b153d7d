"""engine/tools/stats.py against fishtest's own statistics.

The reference values are fishtest's LLRcalc (official-stockfish/fishtest,
server/fishtest/stats/LLRcalc.py at commit 0753fcc6222e70a11a7e9a90a4fd549654338a45):
LLR_logistic(elo0, elo1, results) for the generalised SPRT, with results as fishtest orders
them (L, D, W; or the pairs LL, LD+DL, LW+DD+WL, DW+WD, WW), and LLR_alt2 (the normal
approximation of https://www.cantate.be/Fishtest/GSPRT_approximation.pdf) times N, each
computed by that code for the counts below."""
from __future__ import annotations

import math

import pytest

from engine.tools import stats

# (pairs LL..WW, elo0, elo1, fishtest's LLR_logistic)
PENTANOMIAL = [
    ((10, 20, 40, 20, 10), 0, 5, -0.03450685095168987),
    ((2, 8, 20, 30, 40), 0, 20, 5.075977753709384),
    ((0, 0, 3, 5, 12), -5, 15, 1.134691718982101),     # zeros: fishtest's 1e-3 prior
    ((30, 20, 10, 4, 1), 0, 10, -1.7981986490648514),
    ((120, 40, 10, 0, 0), 0, 10, -4.963391403752239),
    ((138, 6070, 13268, 6304, 124), 0, 2, 1.2638312194945691),
]

# (L, D, W, elo0, elo1, fishtest's LLR_logistic, N x LLR_alt2)
TRINOMIAL = [
    (20, 20, 60, 0, 10, 1.3898221639392805, 1.7337133119290997),
    (13193, 25090, 13525, 0, 2, 2.041435970044828, 2.041547029254206),
    (30, 40, 50, -10, 10, 1.7264923073452114, 1.8015256694815742),
    (5, 0, 0, 0, 10, -0.14598315349536042, None),       # one outcome only: regularised
]


@pytest.mark.parametrize("pairs, elo0, elo1, expected", PENTANOMIAL)
def test_pentanomial_llr_is_fishtests(pairs, elo0, elo1, expected):
    assert stats.pentanomial_llr(list(pairs), elo0, elo1) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("losses, draws, wins, elo0, elo1, expected, approximation", TRINOMIAL)
def test_trinomial_llr_is_fishtests_and_sprt_llr_its_normal_approximation(
        losses, draws, wins, elo0, elo1, expected, approximation):
    assert stats.trinomial_llr(wins, draws, losses, elo0, elo1) == pytest.approx(expected, abs=1e-9)
    if approximation is not None:
        assert stats.sprt_llr(wins, draws, losses, elo0, elo1) == pytest.approx(approximation,
                                                                                abs=1e-9)


def test_no_games_no_evidence_and_mirrored_results_mirror_the_ratio():
    assert stats.pentanomial_llr([0] * 5, 0, 5) == 0 == stats.trinomial_llr(0, 0, 0, 0, 5)
    assert stats.pentanomial_llr([1, 5, 10, 3, 2], -5, 5) == pytest.approx(
        -stats.pentanomial_llr([2, 3, 10, 5, 1], -5, 5), abs=1e-9)


def test_fishtests_bounds_and_the_logistic_model():
    assert stats.sprt_bounds(0.05, 0.05) == pytest.approx((-2.944439, 2.944439), abs=1e-6)
    assert stats.expected_score(400) == pytest.approx(10 / 11)
    # the Elo of a 75 % score, and its interval widening as the draws fall
    assert stats.elo(0.75, 100, 0)[0] == pytest.approx(400 * math.log10(3))
    assert stats.elo(0.75, 100, 0)[1] > stats.elo(0.75, 100, 40)[1] > 0
