"""Match statistics: the Elo difference and its interval, and the SPRT log-likelihood ratios
of fishtest (server/fishtest/stats/LLRcalc.py): the generalised SPRT on trinomial (L, D, W)
and pentanomial (colour-swapped pair) results, and its normal approximation."""
from __future__ import annotations

import math
from statistics import NormalDist
from typing import Sequence

Z95 = NormalDist().inv_cdf(0.975)  # two-sided 95 %


def elo(score: float, games: int, draws: int) -> tuple[float, float]:
    """Elo difference and its 95 % error from a score fraction (normal approximation)."""
    if games == 0:
        return 0.0, 0.0
    s = min(max(score, 0.5 / games), 1 - 0.5 / games)  # keep 0 % and 100 % finite
    diff = -400 * math.log10(1 / s - 1)
    variance = max(s * (1 - s) - draws / games / 4, 1e-9) / games
    sd = math.sqrt(variance)
    high = min(s + Z95 * sd, 1 - 1e-9)
    low = max(s - Z95 * sd, 1e-9)
    return diff, (-400 * math.log10(1 / high - 1) + 400 * math.log10(1 / low - 1)) / 2


def one_sided_bound(games: int) -> float:
    """Elo lower bound (95 %, exact binomial) when all `games` were won: 0.05 ** (1/n) is the
    smallest win rate that still makes a clean sweep at least 5 % likely."""
    p = 0.05 ** (1 / games)
    return -400 * math.log10(1 / p - 1)


def elo_text(wins: int, draws: int, losses: int) -> str:
    games = wins + draws + losses
    if games and wins == games:
        return f"Elo ≥ {one_sided_bound(games):+.0f} (95 %, one-sided: every game won)"
    if games and losses == games:
        return f"Elo ≤ {-one_sided_bound(games):+.0f} (95 %, one-sided: every game lost)"
    diff, error = elo((wins + 0.5 * draws) / games if games else 0.0, games, draws)
    return f"Elo {round(diff):+d} ± {error:.0f} (95 %)"  # round(): no "-0"


def expected_score(elo_diff: float) -> float:
    """The logistic Elo model: expected score of the side elo_diff points stronger."""
    return 1 / (1 + 10 ** (-elo_diff / 400))


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper) LLR bounds: accept H0 below lower, H1 above upper."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (elo1) against H0 (elo0) from a W/D/L count, in the normal
    approximation of the GSPRT (fishtest's LLR_alt2, without a BayesElo draw model):
    LLR = N (s1 - s0) (2 mean - s0 - s1) / (2 var), s = expected score.
    While every game has had the same result the sample variance is 0; then it is
    taken from the counts plus half a win, half a draw and half a loss.
    """
    n = wins + draws + losses
    if n == 0:
        return 0.0
    mean = (wins + 0.5 * draws) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / n
    if var <= 0:  # every game had the same result: a half pseudo-game of each kind
        w, d, lost = wins + 0.5, draws + 0.5, losses + 0.5
        m = (w + 0.5 * d) / (n + 1.5)
        var = (w * (1 - m) ** 2 + d * (0.5 - m) ** 2 + lost * m ** 2) / (n + 1.5)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def _regularize(counts: Sequence[float]) -> list[float]:
    """fishtest's LLRcalc.regularize: an outcome never seen counts 1e-3 (a small prior)."""
    return [float(c) if c > 0 else 1e-3 for c in counts]


def _mle_multiplier(scores: list[float], probs: list[float], s: float) -> float:
    """x with sum p_i (a_i - s) / (1 + x (a_i - s)) = 0: the MLE of the outcome distribution
    whose expected score is s is then p_i / (1 + x (a_i - s)) (fishtest's MLE_expected)."""
    lo = -1 / (max(scores) - s) + 1e-12
    hi = -1 / (min(scores) - s) - 1e-12
    for _ in range(200):  # bisection: the sum falls as x grows
        mid = (lo + hi) / 2
        if sum(p * (a - s) / (1 + mid * (a - s)) for a, p in zip(scores, probs)) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def gsprt_llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """fishtest's LLR_logistic: the generalised log-likelihood ratio of H1 (elo1) against H0
    (elo0) for counts of equally spaced outcomes from worst to best (three: L, D, W; five:
    the colour-swapped pairs scoring 0, 1/2, 1, 3/2, 2)."""
    if sum(counts) == 0:
        return 0.0
    regular = _regularize(counts)
    total = sum(regular)
    scores = [k / (len(regular) - 1) for k in range(len(regular))]  # per game
    probs = [c / total for c in regular]
    s0, s1 = expected_score(elo0), expected_score(elo1)
    x0 = _mle_multiplier(scores, probs, s0)
    x1 = _mle_multiplier(scores, probs, s1)
    return total * sum(p * math.log((1 + x0 * (a - s0)) / (1 + x1 * (a - s1)))
                       for a, p in zip(scores, probs))


def trinomial_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """The GSPRT's log-likelihood ratio on single games (fishtest's LLR_logistic on L, D, W)."""
    return gsprt_llr([losses, draws, wins], elo0, elo1)


def pentanomial_llr(pairs: Sequence[int], elo0: float, elo1: float) -> float:
    """The GSPRT's log-likelihood ratio on colour-swapped game pairs: pairs[k] = how many pairs
    scored k/2 points (k = 0..4) for engine A (fishtest's LLR_logistic on pentanomial results)."""
    return gsprt_llr(pairs, elo0, elo1)
