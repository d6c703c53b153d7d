"""The option schema: each option's side effect is its on-change hook, run when it is set; a
hook that fails leaves the old value and says why."""
from __future__ import annotations

import pytest

from engine import core
from engine.protocol import options
from engine.protocol.arguments import CommandError
from engine.protocol.options import Options


def test_setting_hash_allocates_the_table_through_its_hook(monkeypatch):
    allocated = []
    monkeypatch.setattr(core, "AVAILABLE", True)
    monkeypatch.setattr(core, "set_hash", allocated.append)
    o = Options()
    o.set("hash", "16")
    assert o.hash == 16 and allocated == [16]
    o.set("threads", "2")  # no hook: nothing allocated
    assert allocated == [16]


def test_a_hook_that_fails_leaves_the_old_value(monkeypatch):
    def refuse(mb):
        raise core.CoreError(f"cannot allocate a {mb} MB hash table")
    monkeypatch.setattr(core, "AVAILABLE", True)
    monkeypatch.setattr(core, "set_hash", refuse)
    o = Options()
    with pytest.raises(CommandError, match="cannot allocate a 4096 MB hash table"):
        o.set("hash", "4096")
    assert o.hash == 64


def test_level_and_elo_keep_each_other_in_step():
    o = Options()
    o.set("level", "5")
    elos = options.levels.elos(o.game)
    assert o.elo == elos[5]
    o.set("elo", str(elos[12] + 1))
    assert o.level == 12 and o.elo == elos[12]


def test_through_the_protocol_a_refused_hash_is_a_question_mark(monkeypatch):
    from engine.protocol.server import COMMANDS, Server

    def refuse(mb):
        raise core.CoreError("no memory")
    monkeypatch.setattr(core, "AVAILABLE", True)
    monkeypatch.setattr(core, "set_hash", refuse)
    server = Server()
    with pytest.raises(CommandError, match="no memory"):
        COMMANDS["option"](server, ["hash", "128"])
    assert server.options.hash == 64
