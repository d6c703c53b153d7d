"""Property tests over random legal games of both games (hypothesis, kept small).

Each example plays one whole random game and checks at every step:
legal moves pass check_move, non-listed moves are rejected, the position string
round-trips, the move text round-trips, the rule invariants hold; then undoing
the whole game with pop restores every earlier state exactly.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.games.dvonn.board import DVONN_BOARD
from engine.games.dvonn.rules import PASS as DVONN_PASS
from engine.games.dvonn.rules import DvonnGame, Move
from engine.games.tzaar.openings import random_opening
from engine.games.tzaar.rules import PASS as TZAAR_PASS
from engine.games.tzaar.rules import Action, TzaarGame
from engine.rules import BLACK, WHITE, IllegalMove

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 2 ** 32 - 1).map(random.Random)


# ---------------------------------------------------------------------------
# DVONN
# ---------------------------------------------------------------------------

def dvonn_state(g: DvonnGame) -> tuple:
    return (g.position(), tuple(g.cells), g.placed, g.side, g.over, g.result())


def dvonn_connected(cells: list[str]) -> bool:
    frontier = [p for p, s in enumerate(cells) if "R" in s]
    seen = set(frontier)
    while frontier:
        p = frontier.pop()
        for n in DVONN_BOARD.neighbours[p]:
            if cells[n] and n not in seen:
                seen.add(n)
                frontier.append(n)
    return all(p in seen for p, s in enumerate(cells) if s)


def random_dvonn_move(rng: random.Random) -> Move:
    kind = rng.choice(("place", "move", "move", "pass"))
    if kind == "pass":
        return DVONN_PASS
    if kind == "place":
        return Move("place", -1, rng.randrange(49))
    return Move("move", rng.randrange(49), rng.randrange(49))


def check_dvonn_step(g: DvonnGame, rng: random.Random) -> None:
    legal = g.legal_moves()
    assert len(set(legal)) == len(legal)
    for move in legal:
        g.check_move(move)
        assert g.parse_move(g.move_text(move)) == move
    listed = set(legal)
    for _ in range(25):
        move = random_dvonn_move(rng)
        if move not in listed:
            try:
                g.check_move(move)
            except IllegalMove:
                pass
            else:
                raise AssertionError(f"check_move accepted unlisted {move} in {g.position()}")
    copy = DvonnGame.from_position(g.position())
    assert dvonn_state(copy) == dvonn_state(g)
    assert copy.legal_moves() == legal
    pieces = "".join(g.cells)
    assert pieces.count("R") == 3 or g.placed < 3
    assert pieces.count("W") <= 23 and pieces.count("B") <= 23
    assert all(s[-1] != "R" or s == "R" for s in g.cells if s)
    if g.phase == "movement":
        assert dvonn_connected(g.cells)
        assert (DVONN_PASS in legal) == (not g.has_stack_move(g.side))
        assert legal == [DVONN_PASS] or DVONN_PASS not in legal


@SETTINGS
@given(SEEDS)
def test_dvonn_random_games_obey_the_rules_and_pop_restores_every_state(rng):
    g = DvonnGame()
    states = []
    while not g.over:
        check_dvonn_step(g, rng)
        states.append(dvonn_state(g))
        before = len("".join(g.cells))
        move = rng.choice(g.legal_moves())
        g.push(move)
        if move.kind == "place":
            assert len("".join(g.cells)) == before + 1
        else:
            assert len("".join(g.cells)) <= before   # pieces only ever leave the board
        assert len(states) < 400
    # the end: neither side can move, and the result is the score difference
    assert not g.has_stack_move(WHITE) and not g.has_stack_move(BLACK)
    assert g.legal_moves() == []
    white, black = g.scores()
    assert g.result() == ("0" if white == black else
                          f"W+{white - black}" if white > black else f"B+{black - white}")
    while g.history:
        g.pop()
        assert dvonn_state(g) == states.pop()
    assert not states


@SETTINGS
@given(SEEDS)
def test_dvonn_pop_right_after_push_restores_the_state(rng):
    g = DvonnGame()
    while not g.over:
        before = dvonn_state(g)
        for move in rng.sample(g.legal_moves(), min(3, len(g.legal_moves()))):
            g.push(move)
            g.pop()
            assert dvonn_state(g) == before
        g.push(rng.choice(g.legal_moves()))


# ---------------------------------------------------------------------------
# TZAAR
# ---------------------------------------------------------------------------

def tzaar_state(g: TzaarGame) -> tuple:
    return (g.position(), tuple(g.cells), g.side, g.opening_turn, g.winner, g.reason,
            tuple(sorted(g.tops.items())))


def random_action(rng: random.Random, kinds=("capture", "stack", "any")) -> Action:
    if rng.random() < 0.1:
        return TZAAR_PASS
    return Action(rng.choice(kinds), rng.randrange(60), rng.randrange(60))


def mutate(turn: tuple, rng: random.Random) -> tuple:
    """A turn near a legal one: a changed point or kind, one action more or fewer."""
    actions = list(turn)
    choice = rng.randrange(6)
    if choice == 0:
        actions.append(random_action(rng))
    elif choice == 1:
        actions.pop()
    elif choice == 2:
        i = rng.randrange(len(actions))
        a = actions[i]
        if a.kind != "pass":
            actions[i] = a._replace(dst=rng.randrange(60))
    elif choice == 3:
        i = rng.randrange(len(actions))
        a = actions[i]
        if a.kind != "pass":
            actions[i] = a._replace(kind="stack" if a.kind == "capture" else "capture")
    elif choice == 4:
        actions = [random_action(rng) for _ in range(rng.randrange(1, 3))]
    else:
        actions.insert(0, TZAAR_PASS)
    return tuple(actions)


def check_tzaar_step(g: TzaarGame, rng: random.Random, legal: list) -> None:
    listed = set(legal)
    assert len(listed) == len(legal)
    for t in rng.sample(legal, min(60, len(legal))):
        assert g.check_move(t) == t
        assert g.parse_move(g.move_text(t)) == t
    for _ in range(40):
        t = mutate(rng.choice(legal), rng)
        try:
            resolved = g.check_move(t)
        except IllegalMove:
            assert t not in listed, f"rejected listed {t}"
        else:
            assert resolved in listed, f"accepted unlisted {t} in {g.position()}"
            if all(a.kind != "any" for a in t):
                assert resolved == t
    # the rule invariants
    tops = {p: 0 for p in "abcABC"}
    for s in g.cells:
        if s:
            assert s.islower() or s.isupper(), s          # captures never mix colours
            tops[s[-1]] += 1
    assert g.tops == tops
    for pieces in ("abc", "ABC"):  # White's and Black's
        assert all(tops[p] > 0 for p in pieces)           # nobody has lost a type yet
    assert g.has_capture(g.side)                          # else the game would be over
    for t in legal:
        assert t[0].kind == "capture"
        if g.opening_turn:
            assert len(t) == 1
        elif len(t) == 1:
            # only a first capture that ends the game stands alone
            g.push(t)
            assert g.over and g.winner == g.side
            g.pop()


def check_tzaar_over(g: TzaarGame) -> None:
    assert g.result() in ("W+", "B+") and g.legal_moves() == []
    loser = g.winner ^ 1
    lost_type = any(g.tops[p] == 0 for p in ("abc" if loser == WHITE else "ABC"))
    no_capture = g.side == loser and not g.has_capture(loser)
    assert lost_type or no_capture
    copy = TzaarGame.from_position(g.position())
    assert copy.winner == g.winner


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.booleans())
def test_tzaar_random_games_obey_the_rules_and_pop_restores_whole_turns(rng, seeded):
    g = TzaarGame(random_opening(rng.randrange(2 ** 64)) if seeded else None)
    states = []
    while not g.over and len(states) < 60:
        legal = g.legal_moves()
        check_tzaar_step(g, rng, legal)
        if len(states) % 4 == 0:
            copy = TzaarGame.from_position(g.position())
            assert tzaar_state(copy) == tzaar_state(g)
            assert copy.legal_moves() == legal
        states.append(tzaar_state(g))
        before = "".join(g.cells)
        turn = rng.choice(legal)
        g.push(turn)
        after = "".join(g.cells)
        assert len(after) <= len(before)
        assert all(after.count(p) <= before.count(p) for p in "abcABC")
        assert len(g.history) == len(states)          # one history entry per whole turn
    if g.over:
        check_tzaar_over(g)
    while g.history:
        g.pop()
        assert tzaar_state(g) == states.pop()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS)
def test_tzaar_check_move_rejects_random_turns_not_in_legal_moves(rng):
    g = TzaarGame(random_opening(rng.randrange(2 ** 64)))
    for _ in range(rng.randrange(0, 6)):
        if g.over:
            break
        g.push(rng.choice(g.legal_moves()))
    if g.over:
        return
    listed = set(g.legal_moves())
    before = tzaar_state(g)
    for _ in range(150):
        t = tuple(random_action(rng, ("capture", "stack")) for _ in range(rng.randrange(0, 4)))
        try:
            g.check_move(t)
        except IllegalMove:
            assert t not in listed
        else:
            assert t in listed, f"accepted unlisted {t}"
    assert tzaar_state(g) == before                    # checking never changes the game
