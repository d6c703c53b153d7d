"""One pass of gipf-littlegolem reads each download once and replays each record once: the
counts are taken in the bot's own threads (the stand-in site replays records too)."""
from __future__ import annotations

import sys
import threading
from collections import Counter

from littlegolem_standin import FAST_ENGINE, PASSWORD, USER, serve

from engine import records
from engine.records import formats
from engine.tools import littlegolem


def _bots_thread() -> bool:
    thread = threading.current_thread()
    return thread is threading.main_thread() or thread.name.startswith("worker")


def count(monkeypatch):
    """(replays per record, detections per text) made by the bot's threads from now on."""
    replays: Counter = Counter()
    detections: Counter = Counter()
    replay, detect = formats.replay, formats._detect
    kept: list = []  # the records counted, so that no id is reused in the pass

    def counting_replay(record, *args, **kwargs):
        if _bots_thread():
            kept.append(record)
            replays[id(record)] += 1
        return replay(record, *args, **kwargs)

    def counting_detect(text):
        if _bots_thread():
            detections[text] += 1
        return detect(text)

    replayed = sys.modules.get("engine.records.replayed")  # the one replay's module
    for module in filter(None, (formats, replayed, records)):
        monkeypatch.setattr(module, "replay", counting_replay)
    monkeypatch.setattr(formats, "_detect", counting_detect)
    return replays, detections


def test_a_pass_reads_each_download_once_and_replays_each_record_once(tmp_path, monkeypatch):
    site, server = serve()
    try:
        site.add(501, "dvonn", moves=8, ours=0, seed=501)
        site.add(502, "dvonn", moves=60, ours=1, seed=502)
        site.add(503, "tzaar", moves=4, ours=0, seed=503)
        site.add(504, "tzaar", moves=9, ours=1, seed=504)
        settings = littlegolem.Settings(user=USER, base_url=site.url, movetime=50, workers=2,
                                        engine_setup=FAST_ENGINE, owner="4242",
                                        http_timeout=10.0)
        runner = littlegolem.Runner(settings, littlegolem.Site(site.url, USER, PASSWORD, 10.0),
                                    littlegolem.PostedMoves(tmp_path / "state.json"),
                                    dry_run=False, once=True)
        replays, detections = count(monkeypatch)
        assert runner.run() == 0
    finally:
        server.shutdown()
        server.server_close()
    assert sorted(p.gid for p in site.accepted()) == [501, 502, 503, 504]
    # a record before each post and one after it, each replayed once
    assert len(replays) == 8 and set(replays.values()) == {1}, replays
    assert len(detections) == 8 and set(detections.values()) == {1}
