"""Session-level SIGINT rules, driven without a process: a SIGINT that lands while a command
is read but before its search or perft started must stop that search (the engine serves on);
one that lands during a command with nothing to stop ends the session after the reply."""
import io

from engine.protocol import gtp
from engine.protocol.serving import Session


class FakeServer:
    """Runs `search` (a stoppable call that reports whether it was stopped) or `quick`;
    the test's SIGINT lands inside the handler, before the stoppable call starts."""

    def __init__(self):
        self.control = None
        self.session = None
        self.seen = []

    def handle(self, cmd: gtp.Command):
        self.seen.append(cmd.name)
        if cmd.args[:1] == ["sigint"]:
            self.session.on_sigint()
        if cmd.name == "search":
            stop = self.control.stop
            stop.running += 1
            try:
                return True, "stopped" if stop.is_set() else "finished"
            finally:
                stop.running -= 1
        return True, "done"


def serve(text: str):
    server = FakeServer()
    out = io.StringIO()
    session = Session(server, io.BytesIO(text.encode()), out)
    server.session = session
    session.serve()
    return server.seen, out.getvalue()


def test_sigint_before_the_search_starts_stops_it_and_the_session_serves_on():
    seen, out = serve("1 search sigint\n2 quick\n3 search\n")
    assert seen == ["search", "quick", "search"]
    assert out == "=1 stopped\n\n=2 done\n\n=3 finished\n\n"


def test_sigint_during_a_command_with_nothing_to_stop_ends_after_its_reply():
    seen, out = serve("1 quick sigint\n2 quick\n")
    assert seen == ["quick"]
    assert out == "=1 done\n\n"


def test_sigint_between_commands_ends_the_session():
    server = FakeServer()
    out = io.StringIO()
    session = Session(server, io.BytesIO(b"1 quick\n"), out)
    server.session = session
    session.on_sigint()
    session.serve()
    assert server.seen == [] and out.getvalue() == ""
