"""A stand-in LittleGolem site to try gipf-littlegolem without an account, and to test it:
`python3 -m engine.tools.littlegolem.standin` serves one on 127.0.0.1 with games waiting and
invitations (see docs/littlegolem.md).  site: the model and its pages; server: HTTP and the
injected faults; __main__: the command."""
from __future__ import annotations

from .server import Handler, Server, serve
from .site import (
    LOGIN_PAGE,
    OTHER_PAGE,
    PASSWORD,
    REFUSAL_PAGE,
    USER,
    WORDY_PAGE,
    Fault,
    Invite,
    Post,
    SiteGame,
    StandIn,
    dvonn_from_site,
)

__all__ = ["Handler", "Server", "serve", "LOGIN_PAGE", "OTHER_PAGE", "PASSWORD", "REFUSAL_PAGE",
           "USER", "WORDY_PAGE", "Fault", "Invite", "Post", "SiteGame", "StandIn",
           "dvonn_from_site"]
