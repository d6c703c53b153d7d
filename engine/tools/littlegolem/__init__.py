"""gipf-littlegolem: play DVONN and TZAAR on LittleGolem by itself.

Logs in, answers the invitations, lists the games waiting for our move, downloads each
record, thinks with one long-lived engine per worker and posts the move; then waits and polls
again, backing off when the site fails.  See docs/littlegolem.md.

  gipf-littlegolem --config ~/.config/gipf-littlegolem/config.toml
  LITTLEGOLEM_PASSWORD=... gipf-littlegolem --user gipfbot --once --dry-run

Modules: config (settings, command line), site (HTTP), pages (reading the site's pages),
notation (the move form), state (the state file), statelock (one bot per state file),
engines, moves (one game), invitations, owner (messages), runner (the passes), cli (the
command); standin: a stand-in LittleGolem site to try the bot on (and test it).
"""
from __future__ import annotations

from .cli import main
from .config import Settings, UsageError
from .notation import played_games, site_move
from .pages import PageError, game_list
from .runner import Runner
from .site import Site, SiteError
from .state import PostedMoves, StateError

__all__ = ["main", "Settings", "UsageError", "played_games", "site_move", "game_list", "PageError",
           "Runner", "Site", "SiteError", "PostedMoves", "StateError"]
