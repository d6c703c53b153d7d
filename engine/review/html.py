"""A review as one self-contained HTML page: the evaluation graph (SVG drawn with matplotlib,
the optional extra `review`) and the move list with marks."""
from __future__ import annotations

import io
from html import escape

from .game import GameReview
from .judge import MARKS
from .report import COLUMNS, headline, move_cells, settings_line, summary_line

MARK_COLOURS = {"inaccuracy": "#d4a017", "mistake": "#e67e22", "blunder": "#c0392b"}
MATPLOTLIB_MISSING = ("the HTML report draws its graph with matplotlib: "
                      "pip install matplotlib (or the extra: pip install 'gipf-engine[review]')")


def require_matplotlib() -> None:
    """Raise ImportError with the install hint when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401 - imported only to learn whether it is installed
    except ImportError:
        raise ImportError(MATPLOTLIB_MISSING) from None


def graph_figure(review: GameReview):
    """A matplotlib Figure of White's evaluation over the game, marks as dots."""
    require_matplotlib()
    from matplotlib.figure import Figure

    judge = review.judge
    xs = list(range(len(review.white_scores)))
    ys = [judge.graph_value(s) for s in review.white_scores]
    low, high = judge.graph_range(ys)
    middle = (low + high) / 2
    fig = Figure(figsize=(10, 3.2), dpi=100)
    ax = fig.subplots()
    ax.fill_between(xs, ys, middle, where=[y >= middle for y in ys], color="#e8e8e8",
                    interpolate=True, linewidth=0)
    ax.fill_between(xs, ys, middle, where=[y <= middle for y in ys], color="#555555",
                    interpolate=True, linewidth=0)
    ax.plot(xs, ys, color="#1f4e79", linewidth=1.4)
    ax.axhline(middle, color="#888888", linewidth=0.8)
    phases = [p.split()[2] for p in review.line.positions]
    for k in range(1, len(phases)):
        if phases[k] != phases[k - 1]:   # e.g. DVONN's placement ends, TZAAR's opening turn
            ax.axvline(k, color="#888888", linestyle=":", linewidth=0.8)
    for mark in MARKS:
        points = [(m.number, ys[m.number]) for m in review.moves if m.mark == mark]
        if points:
            numbers, values = zip(*points)
            ax.scatter(numbers, values, s=28, color=MARK_COLOURS[mark], zorder=3, label=mark,
                       edgecolors="black", linewidths=0.5)
    if any(m.mark for m in review.moves):
        ax.legend(loc="upper left", fontsize=8, framealpha=0.9)
    ax.set_xlim(0, max(1, len(xs) - 1))
    ax.set_ylim(low, high)
    ax.set_xlabel("move")
    ax.set_ylabel(judge.graph_label, fontsize=9)
    ax.set_title(headline(review), fontsize=10)
    fig.tight_layout()
    return fig


def graph_svg(review: GameReview) -> str:
    import matplotlib

    fig = graph_figure(review)
    buffer = io.StringIO()
    # fixed ids and no date: the same review gives the same page
    with matplotlib.rc_context({"svg.hashsalt": "gipfbot-review", "svg.fonttype": "none"}):
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    svg = buffer.getvalue()
    return svg[svg.index("<svg"):]


def graph_png(review: GameReview, path: str) -> None:
    graph_figure(review).savefig(path, format="png", metadata={"Software": None})


STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.2em; } p { margin: 0.3em 0; }
svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; font-size: 0.9em; margin-top: 1em; }
th, td { padding: 0.15em 0.6em; text-align: left; white-space: nowrap; }
th { border-bottom: 1px solid #888; } tr:nth-child(even) { background: #f4f4f4; }
td.num, th.num { text-align: right; } .inaccuracy { color: #9a7400; } .mistake { color: #c25e00; }
.blunder { color: #c0392b; font-weight: bold; }
"""


def html_report(review: GameReview) -> str:
    right = {0, 3, 5, 6}
    numeric = ' class="num"'
    head = "".join(f'<th{numeric if i in right else ""} title="{escape(meaning, quote=True)}">'
                   f"{escape(name)}</th>" for i, (name, meaning) in enumerate(COLUMNS))
    rows = []
    for move in review.moves:
        cells = move_cells(review, move)
        tds = "".join(f'<td class="num">{escape(c)}</td>' if i in right else f"<td>{escape(c)}</td>"
                      for i, c in enumerate(cells))
        css = f' class="{move.mark}"' if move.mark else ""
        position = escape(review.line.positions[move.number - 1], quote=True)
        rows.append(f'<tr id="move-{move.number}"{css} title="{position}">{tds}</tr>')
    summary = "".join(f"<p>{escape(summary_line(review, s))}</p>" for s in ("w", "b"))
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{escape(headline(review))}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"<h1>{escape(headline(review))}</h1>\n<p>{escape(settings_line(review))}</p>\n"
        f"{summary}\n{graph_svg(review)}\n"
        f"<table>\n<tr>{head}</tr>\n" + "\n".join(rows) + "\n</table>\n</body>\n</html>\n")
