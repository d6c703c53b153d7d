"""The named evaluation as text: the weights file, the weights listing and `eval`'s term table.

The weights live in the compiled core (csrc/<game>/<game>_eval.h), one set per game for the
whole process: newgame does not reset them.  A weights file is what `weights` prints:
one `<game>.<name> <value>` per line, `#` starts a comment.
"""
from __future__ import annotations

from typing import Iterable

from . import core
from .bounded_read import MIB, InputError, read_bytes
from .games import GAMES

MAX_WEIGHTS_BYTES = MIB  # a full listing of every game's weights is a few kilobytes


class WeightsError(ValueError):
    """A weight name, value or file that cannot be used; the message says why."""


def _require_core(game: str = "") -> None:
    if not core.AVAILABLE:
        raise WeightsError(f"the compiled core is unavailable: {core.UNAVAILABLE_REASON}")
    if game and not core.has_game(game):  # a registered game without a core has no weights
        raise WeightsError(f"{GAMES[game].title} has no compiled core, so no weights")


def _number(x: float) -> str:
    return f"{x:.2f}"


def eval_table(game, phase: int) -> str:
    """The static evaluation of game's position, one line per weight, both colours."""
    _require_core()
    value, terms = core.eval_terms(game.name, game.cells, game.side, phase)
    from . import network
    if network.loaded(game.name) and phase == 1:  # the value the search uses: the network's
        value = core.evaluate(game.name, game.cells, game.side, phase)
    width = max(len(name) for name, _, _ in terms)
    rows = [f"{'term':<{width}} {'white':>10} {'black':>10} {'white-black':>12}"]
    total_white = total_black = 0.0
    for name, white, black in terms:
        total_white += white
        total_black += black
        rows.append(f"{name:<{width}} {_number(white):>10} {_number(black):>10} "
                    f"{_number(white - black):>12}")
    diff = total_white - total_black
    rows.append(f"{'sum':<{width}} {_number(total_white):>10} {_number(total_black):>10} "
                f"{_number(diff):>12}")
    mover = "white" if game.side == 0 else "black"
    line = f"eval {value} (side to act: {mover})"
    if network.loaded(game.name) and phase == 1:
        line += f"; the network {network.loaded(game.name)} values it (the terms are the weights' alone)"
    elif abs((diff if game.side == 0 else -diff) - value) >= 1:
        line += "; a decided position: the terms do not apply"
    rows.append(line)
    return "\n".join(rows)


def listing(game_name: str) -> str:
    """The game's weights in weights-file form, with defaults and meanings as comments."""
    _require_core(game_name)
    return "\n".join(f"{game_name}.{w.name} {w.value}  # default {w.default}: {w.help}"
                     for w in core.weights(game_name))


def _parse_assignment(name: str, value: str, current_game: str) -> tuple[str, str, int]:
    game, dot, short = name.partition(".")
    if not dot:
        game, short = current_game, name
    if game not in GAMES:
        raise WeightsError(f"unknown game {game!r} in weight name {name!r}")
    _require_core(game)
    known = {w.name for w in core.weights(game)}
    if short not in known:
        raise WeightsError(f"unknown {game} weight {short!r}; 'weights' lists them")
    digits = value[1:] if value.startswith("-") else value
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 7):
        raise WeightsError(f"bad value {value!r} for {name}: a whole number")
    number = int(value)
    if not -core.WEIGHT_MAX <= number <= core.WEIGHT_MAX:
        raise WeightsError(f"bad value {value!r} for {name}: from {-core.WEIGHT_MAX} to {core.WEIGHT_MAX}")
    return game, short, number


def set_weights(assignments: Iterable[tuple[str, str]], current_game: str) -> int:
    """Check every (name, value) first, then set them all; returns how many."""
    _require_core()
    checked = [_parse_assignment(n, v, current_game) for n, v in assignments]
    for game, short, number in checked:
        core.set_weight(game, short, number)
    return len(checked)


def parse_file(text: str) -> list[tuple[str, str]]:
    """(name, value) pairs of a weights file; WeightsError with the line number if malformed."""
    pairs = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) != 2:
            raise WeightsError(f"line {number}: expected '<game>.<name> <value>'")
        pairs.append((fields[0], fields[1]))
    return pairs


def load_file(path: str, current_game: str) -> str:
    """Set every weight a file names (all or none), or install the network file (its magic
    tells, engine/network.py); returns how many weights, or `network <name>`."""
    _require_core()
    from . import network
    try:  # a regular file only (not a FIFO, nor /dev/stdin: the protocol), whole or refused
        data = read_bytes(path, MAX_WEIGHTS_BYTES)
    except InputError as e:
        raise WeightsError(str(e)) from None
    if network.is_network(data):
        try:
            return f"network {network.load(path, data)}"
        except network.NetworkError as e:
            raise WeightsError(str(e)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise WeightsError(f"cannot read {path}: not utf-8 text (byte {e.start})") from None
    try:
        return str(set_weights(parse_file(text.removeprefix("\ufeff")), current_game))
    except WeightsError as e:
        raise WeightsError(f"{path}: {e}") from None


def reset() -> None:
    """Every game's weights back to their defaults, and its default network (or none)."""
    _require_core()
    from . import network
    network.reset()
    for game in GAMES:
        if core.has_game(game):
            for w in core.weights(game):
                core.set_weight(game, w.name, w.default)
