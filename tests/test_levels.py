"""Strength levels (engine/levels.py): option level and option elo, the weighted choice,
level 20 unchanged, and weak levels that still play by the rules."""
from __future__ import annotations

import pytest

from engine import core, levels
from engine.clock import Clock
from engine.games import SPECS
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
DVONN_ELO = levels.elos("dvonn")  # Options() and a new server start with DVONN
TABLES = sorted(name for name, spec in SPECS.items() if spec.levels)


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
    low, high = levels.elo_range("dvonn")
    assert f"elo 0 int {low}..{high}" in lines and (low, high) == (DVONN_ELO[1], 0)


def test_level_is_set_and_checked():
    options = Options()
    options.set("LEVEL", "7")
    assert options.level == 7 and options.elo == DVONN_ELO[7]
    for bad in ("0", "21", "-3", "x", "7.5"):
        with pytest.raises(CommandError, match="for level: a whole number from 1 to 20"):
            options.set("level", bad)
    assert options.level == 7


def test_elo_chooses_the_nearest_measured_level_and_shows_its_elo():
    options = Options()
    for n in (1, 9, 19):
        options.set("elo", str(DVONN_ELO[n] + 10))
        assert options.level == n and options.elo == DVONN_ELO[n]
    options.set("elo", "0")
    assert options.level == levels.FULL and options.elo == 0
    options.set("elo", str(DVONN_ELO[1]))
    assert options.level == 1
    for bad in ("1", "-", "--5", str(DVONN_ELO[1] - 1), "-1e3", "-" + "9" * 30):
        with pytest.raises(CommandError, match="for elo: a whole number from"):
            options.set("elo", bad)
    assert options.level == 1


def test_both_built_in_games_own_a_table():
    assert TABLES == ["dvonn", "tzaar"]
    assert levels.table("dvonn") is not levels.table("tzaar")


@pytest.mark.parametrize("name", TABLES)
def test_each_games_table_has_every_level_below_full_strength_and_elo_rises_with_the_level(name):
    table = levels.table(name)
    assert sorted(table) == list(range(1, levels.FULL))
    elos = [levels.elos(name)[n] for n in range(1, levels.FULL + 1)]
    assert elos == sorted(elos) and len(set(elos)) == len(elos) and elos[-1] == 0
    assert all(1 <= lv.multipv <= core.MAX_MULTIPV and lv.temperature > 0 and (lv.depth or lv.nodes)
               and 0 <= lv.random <= 1 for lv in table.values())
    assert levels.elo_range(name) == (elos[0], 0)


def test_tzaar_depths_count_whole_turns():
    """A TZAAR ply is one action: a depth limit that stops inside a turn would score half turns."""
    assert all(lv.depth % 2 == 0 for lv in levels.table("tzaar").values())


def test_a_table_that_is_incomplete_or_not_rising_is_refused():
    table = dict(levels.table("dvonn"))
    levels.check_table(table)
    with pytest.raises(ValueError, match="the levels 1..19"):
        levels.check_table({n: lv for n, lv in table.items() if n != 7})
    with pytest.raises(ValueError, match="rises with the level"):
        levels.check_table({**table, 8: table[6]})
    with pytest.raises(ValueError, match="rises with the level"):
        levels.check_table({**table, 19: levels.Level(0, 1024, 2, 2.0, 0)})
    with pytest.raises(ValueError, match="a depth or node limit"):
        levels.check_table({**table, 3: levels.Level(0, 0, 10, 250.0, table[3].elo)})
    with pytest.raises(ValueError, match="a random share from 0 to 1"):
        levels.check_table({**table, 3: levels.Level(2, 0, 10, 250.0, table[3].elo, random=1.5)})


@pytest.mark.parametrize("name", TABLES)
@pytest.mark.parametrize("elo, level", [(0, 20), (-1, 20), (-10 ** 6, 1)])
def test_nearest_level_at_the_ends(name, elo, level):
    assert levels.nearest_level(name, elo) == level


def test_a_game_without_a_table_plays_every_level_at_full_strength(monkeypatch):
    monkeypatch.setattr(SPECS["tzaar"], "levels", None)
    assert levels.table("tzaar") == {} and levels.level_of("tzaar", 1) is None
    assert set(levels.elos("tzaar").values()) == {0} and levels.elo_range("tzaar") == (0, 0)
    assert levels.level_of("dvonn", 1) == levels.table("dvonn")[1] and levels.level_of("dvonn", 20) is None


def test_search_limits_take_the_tighter_of_the_level_and_the_options():
    lv = levels.Level(depth=0, nodes=50_000, multipv=3, temperature=10.0, elo=-500)
    assert levels.search_limits(lv, 0, 0) == {"depth": None, "nodes": 50_000, "multipv": 3}
    assert levels.search_limits(lv, 20_000, 5) == {"depth": 5, "nodes": 20_000, "multipv": 3}
    assert levels.search_limits(lv, 90_000, 0)["nodes"] == 50_000
    shallow = levels.Level(depth=2, nodes=0, multipv=10, temperature=300.0, elo=-2800)
    assert levels.search_limits(shallow, 0, 1) == {"depth": 1, "nodes": None, "multipv": 10}


def ask(server: Server, line: str) -> str:
    ok, reply = server.handle(gtp.parse_line(line.encode()))
    assert ok, (line, reply)
    return reply


def listed(server: Server, name: str) -> str:
    return next(line for line in ask(server, "option").splitlines() if line.split()[0] == name)


def test_option_elo_reads_the_current_games_table_and_newgame_keeps_the_level():
    server, dvonn, tzaar = Server(), levels.elos("dvonn"), levels.elos("tzaar")
    ask(server, "option level 9")
    assert listed(server, "elo") == f"elo {dvonn[9]} int {dvonn[1]}..0"
    ask(server, "newgame tzaar")
    assert listed(server, "level") == "level 9 int 1..20"
    assert listed(server, "elo") == f"elo {tzaar[9]} int {tzaar[1]}..0"
    ask(server, f"option elo {tzaar[14] + 5}")
    assert (server.options.level, server.options.elo) == (14, tzaar[14])
    ask(server, "newgame dvonn")
    assert (server.options.level, server.options.elo) == (14, dvonn[14])


def test_the_same_elo_picks_each_games_own_nearest_level():
    dvonn, tzaar = levels.elos("dvonn"), levels.elos("tzaar")
    low = max(dvonn[1], tzaar[1])
    elo = next(e for e in range(low, 0) if levels.nearest_level("dvonn", e) != levels.nearest_level("tzaar", e))
    for name, elos in (("dvonn", dvonn), ("tzaar", tzaar)):
        server = Server()
        ask(server, f"newgame {name}")
        ask(server, f"option elo {elo}")
        assert server.options.level == levels.nearest_level(name, elo)
        assert all(abs(elos[n] - elo) >= abs(server.options.elo - elo) for n in elos)


def test_an_elo_outside_the_current_games_range_is_refused_and_changes_nothing():
    server = Server()
    ask(server, "newgame tzaar")
    ask(server, "option level 12")
    low = levels.elo_range("tzaar")[0]
    ok, reply = server.handle(gtp.parse_line(f"option elo {low - 1}".encode()))
    assert not ok and reply == f"bad value '{low - 1}' for elo: a whole number from {low} to 0"
    assert (server.options.level, server.options.elo) == (12, levels.elos("tzaar")[12])


def test_a_game_without_a_table_accepts_a_level_and_shows_full_strengths_elo(monkeypatch):
    monkeypatch.setattr(SPECS["tzaar"], "levels", None)
    server = Server()
    ask(server, "option level 5")
    ask(server, "newgame tzaar")
    assert listed(server, "level") == "level 5 int 1..20" and listed(server, "elo") == "elo 0 int 0..0"
    ok, reply = server.handle(gtp.parse_line(b"option elo -300"))
    assert not ok and reply == "bad value '-300' for elo: a whole number from 0 to 0"
    ask(server, "option elo 0")
    assert server.options.level == levels.FULL


@needs_core
def test_a_game_without_a_table_plays_a_weak_level_as_full_strength(monkeypatch):
    plain = genmoves([], 4)
    monkeypatch.setattr(SPECS["tzaar"], "levels", None)
    assert genmoves(["option level 1"], 4) == plain


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
@pytest.mark.parametrize("level", [1, 4, 9])
def test_a_weak_tzaar_level_plays_legal_whole_turns_and_repeats_under_the_same_seed(level):
    first = play_game(start("tzaar"), Options(game="tzaar", level=level, seed=5))
    assert play_game(start("tzaar"), Options(game="tzaar", level=level, seed=5)) == first
    actions = [len(text.split()) for text in first]
    assert actions[0] == 1 and set(actions[1:-1]) == {2}  # White opens with a single capture


def found_at(game, score: int) -> list:
    move = game.legal_moves()[0]
    return [(score, move, core.Line(score, []))]


def test_a_levels_random_share_plays_legal_moves_as_often_as_it_says():
    game = start("tzaar")
    for _ in range(6):
        game.push(random_move(game, 3))
    half = levels.Level(2, 0, 10, 1000.0, -2000, random=0.5)
    picks = [levels.random_move(game, found_at(game, 40), half, seed) for seed in range(600)]
    played = [m for m in picks if m is not None]
    assert 0.4 < len(played) / len(picks) < 0.6 and len({game.move_text(m) for m in played}) > 100
    assert all(game.check_move(m) == m for m in played[:20])
    assert picks == [levels.random_move(game, found_at(game, 40), half, seed) for seed in range(600)]
    never = levels.Level(2, 0, 10, 1000.0, -2000)
    assert {levels.random_move(game, found_at(game, 40), never, seed) for seed in range(100)} == {None}
    always = levels.Level(2, 0, 10, 1000.0, -2000, random=1.0)
    assert None not in {levels.random_move(game, found_at(game, 40), always, s) for s in range(100)}
    assert {levels.random_move(game, found_at(game, core.WIN + 5), always, s) for s in range(100)} == {None}


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
        core.to_move(game, [("place", -1, 0)])))
    fake.lines = [lines[0], lines[2]]
    assert think(game, Options(level=1, seed=seed), Clock(), watch=Watch(play=True)).source == "python"
