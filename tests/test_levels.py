"""Strength levels (engine/levels.py): option level and option elo, the weighted choice,
level 20 unchanged, and weak levels that still play by the rules."""
from __future__ import annotations

import pytest

from engine import core, levels
from engine.clock import Clock
from engine.games.dvonn.rules import DvonnGame
from engine.games.tzaar.rules import TzaarGame
from engine.player import random_move
from engine.protocol import gtp
from engine.protocol.arguments import CommandError
from engine.protocol.options import Options
from engine.protocol.server import Server
from engine.search import Watch, think
from engine.splitmix64 import SplitMix64

needs_core = pytest.mark.skipif(not core.AVAILABLE, reason=core.UNAVAILABLE_REASON or "no core")


def start(name: str):
    return DvonnGame.start() if name == "dvonn" else TzaarGame.start(None)


def play_game(game, options: Options, max_moves: int = 400) -> list[str]:
    """A whole game of genmove-like choices at the options' level, each move vetted again."""
    texts = []
    core.clear_hash()  # as after newgame: the same game from the same seed
    while not game.over and len(texts) < max_moves:
        move = think(game, options, Clock(), watch=Watch(play=True)).move
        game.check_move(move)
        texts.append(game.move_text(move))
        game.push(move)
    return texts


# --- the options ------------------------------------------------------------------------

def test_level_and_elo_are_listed_with_full_strength_the_default():
    lines = Options().listing().splitlines()
    assert "level 20 int 1..20" in lines
    low, high = levels.ELO_RANGE
    assert f"elo 0 int {low}..{high}" in lines


def test_level_is_set_and_checked():
    options = Options()
    options.set("LEVEL", "7")
    assert options.level == 7 and options.elo == levels.ELO[7]
    for bad in ("0", "21", "-3", "x", "7.5"):
        with pytest.raises(CommandError, match="for level: a whole number from 1 to 20"):
            options.set("level", bad)
    assert options.level == 7


def test_elo_chooses_the_nearest_measured_level_and_shows_its_elo():
    options = Options()
    for n in (1, 9, 19):
        options.set("elo", str(levels.ELO[n] + 10))
        assert options.level == n and options.elo == levels.ELO[n]
    options.set("elo", "0")
    assert options.level == levels.FULL and options.elo == 0
    options.set("elo", str(levels.ELO_RANGE[0]))
    assert options.level == 1
    for bad in ("1", "-", "--5", str(levels.ELO_RANGE[0] - 1), "-1e3", "-" + "9" * 30):
        with pytest.raises(CommandError, match="for elo: a whole number from"):
            options.set("elo", bad)
    assert options.level == 1


def test_the_table_has_every_level_below_full_strength_and_elo_rises_with_the_level():
    assert sorted(levels.LEVELS) == list(range(1, levels.FULL))
    elos = [levels.ELO[n] for n in range(1, levels.FULL + 1)]
    assert elos == sorted(elos) and len(set(elos)) == len(elos) and elos[-1] == 0
    assert all(1 <= lv.multipv <= core.MAX_MULTIPV and lv.temperature > 0 and (lv.depth or lv.nodes)
               for lv in levels.LEVELS.values())


@pytest.mark.parametrize("elo, level", [(0, 20), (-1, 20), (-10 ** 6, 1)])
def test_nearest_level_at_the_ends(elo, level):
    assert levels.nearest_level(elo) == level


def test_search_limits_take_the_tighter_of_the_level_and_the_options():
    lv = levels.Level(depth=0, nodes=50_000, multipv=3, temperature=10.0, elo=-500)
    assert levels.search_limits(lv, 0, 0) == {"depth": None, "nodes": 50_000, "multipv": 3}
    assert levels.search_limits(lv, 20_000, 5) == {"depth": 5, "nodes": 20_000, "multipv": 3}
    assert levels.search_limits(lv, 90_000, 0)["nodes"] == 50_000
    shallow = levels.Level(depth=2, nodes=0, multipv=10, temperature=300.0, elo=-2800)
    assert levels.search_limits(shallow, 0, 1) == {"depth": 1, "nodes": None, "multipv": 10}


# --- the weighted choice ----------------------------------------------------------------

def test_uniform_is_in_the_unit_interval_and_reproducible():
    a, b = SplitMix64(9), SplitMix64(9)
    draws = [a.uniform() for _ in range(1000)]
    assert all(0.0 <= x < 1.0 for x in draws) and draws == [b.uniform() for _ in range(1000)]
    assert 0.45 < sum(draws) / len(draws) < 0.55


def test_weighted_choice_follows_the_weights():
    scores, temperature = [100, 100 - 69, 100 - 1000], 100.0  # weights 1, ~0.5, ~0.00005
    picks = [levels.weighted_choice(scores, temperature, seed) for seed in range(3000)]
    share = [picks.count(i) / len(picks) for i in range(3)]
    assert 0.6 < share[0] < 0.73 and 0.27 < share[1] < 0.4 and share[2] < 0.005


def test_weighted_choice_at_a_low_temperature_or_against_a_proven_win_takes_the_best():
    assert {levels.weighted_choice([5, 40, 39], 0.01, seed) for seed in range(200)} == {1}
    win = core.WIN + 10
    assert {levels.weighted_choice([win, 300, 299], 400.0, seed) for seed in range(200)} == {0}


# --- play ---------------------------------------------------------------------------------

@needs_core
@pytest.mark.parametrize("name", ["dvonn", "tzaar"])
def test_level_20_searches_and_plays_exactly_as_without_levels(name):
    game = start(name)
    for _ in range(8):
        core.clear_hash()  # each search from an empty table, as genmove after newgame
        plain = think(game, Options(depth=4), Clock())
        core.clear_hash()
        full = think(game, Options(depth=4, level=20), Clock(), watch=Watch(play=True))
        assert (full.move, full.nodes, full.depth, full.score, full.pv) == \
            (plain.move, plain.nodes, plain.depth, plain.score, plain.pv)
        game.push(full.move)


def genmoves(setup: list[str], count: int) -> list[str]:
    server = Server()
    for line in setup + ["newgame tzaar", "option depth 3", "option info off"]:
        assert server.handle(gtp.parse_line(line.encode()))[0], line
    return [server.handle(gtp.parse_line(b"genmove"))[1] for _ in range(count)]


@needs_core
def test_option_level_20_after_a_weaker_level_plays_the_same_game_as_never_setting_it():
    plain = genmoves([], 6)
    assert genmoves(["option level 3", "option elo -300", "option level 20"], 6) == plain
    assert genmoves(["option level 2"], 6) != plain


@needs_core
@pytest.mark.parametrize("name", ["dvonn", "tzaar"])
def test_level_1_plays_whole_legal_games_and_varies_with_the_seed(name):
    games = [play_game(start(name), Options(level=1, seed=seed)) for seed in range(4)]
    assert all(games) and len({tuple(g) for g in games}) == 4


@needs_core
@pytest.mark.parametrize("name", ["dvonn", "tzaar"])
def test_a_level_repeats_its_game_under_the_same_seed(name):
    first = play_game(start(name), Options(level=5, seed=11))
    assert play_game(start(name), Options(level=5, seed=11)) == first


@needs_core
def test_a_level_ignores_analysis_searches():
    """Only a move to play is weakened: analyze (no `play`) searches at full strength."""
    game = start("dvonn")
    core.clear_hash()
    plain = think(game, Options(depth=3), Clock())
    core.clear_hash()
    analysed = think(game, Options(depth=3, level=1), Clock(), watch=Watch())
    assert (analysed.move, analysed.nodes) == (plain.move, plain.nodes)


def winning_captures(game) -> set:
    """TZAAR turns whose first capture ends the game at once (the opponent's last piece of a
    kind), as move texts."""
    return {game.move_text(m) for m in game.legal_moves()
            if game.ends_game_at_once(game.move_text(m).split()[0])}


@needs_core
def test_level_1_takes_an_obvious_winning_capture_at_least_some_of_the_time():
    """In the positions of seeded random TZAAR games where a capture wins at once, how often
    level 1 takes one (each position asked with its own seed)."""
    chances = taken = 0
    for seed in range(6):
        game = start("tzaar")
        core.clear_hash()
        while not game.over:
            wins = winning_captures(game)
            if wins:
                move = think(game, Options(level=1, seed=seed), Clock(), watch=Watch(play=True)).move
                chances += 1
                taken += game.move_text(move) in wins
            game.push(random_move(game, seed))
    assert chances >= 10 and taken >= chances // 2


@needs_core
def test_a_level_never_ponders():
    from engine.ponder import Ponder
    game = start("dvonn")
    options = Options(depth=3, ponder="on", level=10)
    thought = think(game, options, Clock(), watch=Watch(play=True))
    game.push(thought.move)
    ponder = Ponder()
    ponder.start(game, options, thought)
    assert not ponder.running


def place(point: int) -> int:
    """A DVONN placement as the core encodes it (kind 1 = place, destination in bits 6-11)."""
    return 1 << 12 | point << 6


@pytest.mark.parametrize("seed", range(5))
def test_a_level_drops_the_candidates_the_rules_refuse(monkeypatch, seed):
    """A candidate the rules refuse (an off-board placement) is never played, whatever the draw;
    with none left, the Python player answers."""
    lines = [core.Line(9, [place(60)]), core.Line(8, [place(0)]), core.Line(7, [place(63)])]
    fake = core.SearchResult(moves=[("place", -1, 60)], score=9, depth=2, nodes=1, time_ms=1.0,
                             pv=[place(60)], lines=lines)
    monkeypatch.setattr(core, "AVAILABLE", True)
    monkeypatch.setattr(core, "search", lambda *a, **k: fake)
    game = start("dvonn")
    thought = think(game, Options(level=1, seed=seed), Clock(), watch=Watch(play=True))
    assert game.move_text(thought.move) == game.move_text(game.check_move(
        game.from_core([("place", -1, 0)])))
    fake.lines = [lines[0], lines[2]]
    assert think(game, Options(level=1, seed=seed), Clock(), watch=Watch(play=True)).source == "python"
