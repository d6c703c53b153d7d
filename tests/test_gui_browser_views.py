"""The GUI in headless Chromium, beyond playing: stepping through a game, the engine's view on
the board, clocks, the position editor, layouts and seeds, and the page at 360 to 1,600 px.
One server and one browser for the module (test_gui_browser.py starts them the same way)."""
from __future__ import annotations

import re
import time

import pytest
from test_gui_browser import (  # noqa: F401 - the module's fixtures: one server, one browser
    DVONN_RECORD,
    STUCK_WHITE,
    browser,
    click_point,
    load_record,
    message,
    moves,
    open_page,
    retype,
    screenshot,
    server_url,
    set_analysis,
    set_position,
    states,
    texts,
    wait,
)

from engine.gui.game_facts import point_order

By = pytest.importorskip("selenium.webdriver.common.by").By
Keys = pytest.importorskip("selenium.webdriver.common.keys").Keys
Select = pytest.importorskip("selenium.webdriver.support.select").Select


def stacks_of(position: str) -> dict[str, tuple[str, int]]:
    """point -> (top letter, height) of a position string (protocol.md 7)."""
    words = position.split()
    tokens = ",".join(words[3].split("/")).split(",")
    return {name: (token[-1], len(token))
            for name, token in zip(point_order(words[0]), tokens) if token != "-"}


def drawn(driver) -> dict[str, tuple[str, int]]:
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#board .point')]"
        ".map(e => [e.dataset.point, e.dataset.top, e.dataset.height])")
    return {name: (top, int(height)) for name, top, height in rows if top}


def shown_ply(driver) -> int:
    return int(driver.find_element(By.ID, "nav-where").get_attribute("data-ply"))


def page_position(driver) -> str:
    return driver.execute_script("return ui.state && ui.state.position")


def engine_position_after(engine, record_path, ply: int) -> str:
    engine.ok(f"loadrecord {record_path} {ply}")
    return engine.ok("position")


def test_stepping_through_a_game_shows_the_engines_positions_and_cuts_only_when_asked(
        server_url, browser, engine, tmp_path):  # noqa: F811 - fixtures
    d = browser
    open_page(d, server_url, "dvonn")
    record = tmp_path / "dvonn-demo.txt"
    record.write_text(DVONN_RECORD)
    load_record(d, tmp_path, DVONN_RECORD, "dvonn-demo.txt")
    set_analysis(d, True)
    assert len(moves(d)) == 64 and shown_ply(d) == 64
    # White's moves on the left, Black's on the right, also after the 49 placements, where White
    # moves twice in a row (49 and 50)
    xs = d.execute_script("return Object.fromEntries([...document.querySelectorAll('#moves .move')]"
                          ".map(e => [e.dataset.ply, e.getBoundingClientRect().left]))")
    assert xs["50"] == xs["1"] == xs["49"] and xs["51"] == xs["2"] != xs["1"]

    def at(ply: int, what: str) -> None:
        wait(d, lambda d: shown_ply(d) == ply, what)
        expected = engine_position_after(engine, record, ply)
        assert page_position(d) == expected, what
        assert drawn(d) == stacks_of(expected), what

    d.find_element(By.CSS_SELECTOR, '#moves .move[data-ply="10"]').click()
    at(10, "a click on move 10")
    # the live analysis follows the position shown
    wait(d, lambda d: d.execute_script(
        "return ui.pvPosition === ui.state.position && ui.pv.size > 0"), "analysis of move 10")
    assert texts(d, "#moves .move.shown", "data-ply") == ["10"]
    assert "move 10 of 64 shown" in d.find_element(By.ID, "to-act").text
    body = d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    at(9, "← one move back")
    body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_RIGHT)
    at(11, "→ twice")
    body.send_keys(Keys.HOME)
    at(0, "Home")
    assert drawn(d) == {}
    d.find_element(By.ID, "nav-next").click()
    at(1, "the ▶ button")
    body.send_keys(Keys.END)
    at(64, "End")
    d.find_element(By.ID, "nav-back").click()
    at(63, "the ◀ button")
    d.find_element(By.ID, "nav-first").click()
    at(0, "the ⏮ button")
    d.find_element(By.ID, "nav-last").click()
    at(64, "the ⏭ button")

    # a move from an earlier position: the page asks first, and Cancel keeps the game
    d.find_element(By.CSS_SELECTOR, '#moves .move[data-ply="10"]').click()
    at(10, "move 10 again")
    empty = next(p for p in texts(d, "#board .point.target", "data-point"))
    click_point(d, empty)
    wait(d, lambda d: d.find_element(By.ID, "cut-dialog").is_displayed(), "the question")
    assert d.find_element(By.ID, "cut-text").text == \
        "Playing here cuts the game after move 10: its 54 later moves will be dropped."
    d.find_element(By.ID, "cut-no").click()
    assert len(moves(d)) == 64 and shown_ply(d) == 10
    before = moves(d)[:10]
    click_point(d, empty)
    d.find_element(By.ID, "cut-yes").click()
    wait(d, lambda d: len(moves(d)) == 12, "the move and the engine's answer in the cut game")
    assert moves(d)[:10] == before and moves(d)[10] == f"11. w {empty}"
    assert shown_ply(d) == 12
    screenshot(d, tmp_path, "gui-navigation.png")


def white_view(driver) -> float:
    return float(driver.find_element(By.ID, "eval").get_attribute("data-white"))


def test_the_bar_and_the_best_move_come_from_the_analysis_and_a_hint_is_not_played(
        server_url, browser, engine, tmp_path):  # noqa: F811 - fixtures
    d = browser
    open_page(d, server_url, "tzaar-fixed")
    before = states(d)
    Select(d.find_element(By.ID, "player-b")).select_by_visible_text("human")
    wait(d, lambda d: states(d) > before and d.find_element(By.ID, "analysis-on").is_selected(),
         "analysis among humans")
    click_point(d, "D6")
    click_point(d, "E7")
    wait(d, lambda d: moves(d) == ["1. w D6xE7"], "White's first turn")

    def line_and_drawing(d):
        return d.execute_script(
            "const info = ui.pv.get(1); const layer = document.getElementById('best-layer');"
            "return info && ui.pvPosition === ui.state.position && typeof info.score === 'number' ? "
            "[info, layer.dataset.move, layer.dataset.kind, ui.state.turn_actions,"
            " document.getElementById('eval').dataset.white,"
            " document.getElementById('eval-text').textContent,"
            " layer.querySelectorAll('line').length] : null")
    got = wait(d, line_and_drawing, "a line of analysis drawn")
    info, move, kind, actions, white, text, arrows = got
    assert actions == 2  # a TZAAR turn after the first: two actions
    best = [a for a in info["pv"][:2] if a != "pass"]
    assert kind == "best" and move == " ".join(best) and arrows == len(best)
    assert float(white) == -info["score"]  # Black to act: the bar is White's view
    assert text.startswith(f"{info['score_text']} for Black (to act)")
    share = float(d.find_element(By.ID, "eval-white").value_of_css_property("width")[:-2]) / \
        d.find_element(By.ID, "eval").rect["width"]
    assert (share < 0.5) == (info["score"] > 0) or info["score"] == 0
    screenshot(d, tmp_path, "gui-engine-view.png")

    d.find_element(By.ID, "hint-button").click()
    wait(d, lambda d: message(d).startswith("Hint: ") and "…" not in message(d), "the hint")
    hint = d.execute_script("return ui.hint.move")
    engine.ok("newgame tzaar")
    engine.ok("play w D6xE7")
    assert hint in engine.ok("legal_moves").split("\n")
    assert re.fullmatch(rf"Hint: {re.escape(hint)} \(([+-]\d+\.\d\d \(\d+ %\)|wins.*|loses.*)\)", message(d))
    layer = d.find_element(By.ID, "best-layer")
    assert layer.get_attribute("data-kind") == "hint"
    assert layer.get_attribute("data-move") == " ".join(a for a in hint.split() if a != "pass")
    assert moves(d) == ["1. w D6xE7"]  # shown, not played

    # DVONN: a placement is one point, ringed
    before = states(d)
    Select(d.find_element(By.ID, "game")).select_by_value("dvonn")
    d.find_element(By.ID, "newgame").click()
    wait(d, lambda d: states(d) > before and d.execute_script("return ui.state.status.game") == "dvonn",
         "DVONN")
    info, move, kind, actions, *_ = wait(d, line_and_drawing, "a DVONN line drawn")
    assert actions == 1 and move == info["pv"][0]
    assert d.find_elements(By.CSS_SELECTOR, "#best-layer .ring-best")


def clock_ms(driver, side: str) -> int:
    return int(driver.find_element(By.ID, f"clock-{side}").get_attribute("data-ms") or -1)


def test_clocks_count_down_and_a_flag_fall_ends_the_game_in_words(server_url, browser):  # noqa: F811
    d = browser
    open_page(d, server_url, "dvonn")
    assert not d.find_element(By.ID, "clocks").is_displayed()  # time per move: no clocks
    before = states(d)
    Select(d.find_element(By.ID, "time-mode")).select_by_value("game")
    wait(d, lambda d: states(d) > before, "time per game")
    retype(d.find_element(By.ID, "time-ms"), "4000")
    wait(d, lambda d: d.find_element(By.ID, "clocks").is_displayed() and clock_ms(d, "w") > 3000,
         "the clocks")
    assert clock_ms(d, "b") == 4000
    first = clock_ms(d, "w")
    time.sleep(0.5)
    assert clock_ms(d, "w") < first  # White's clock runs while White thinks
    assert "running" in d.find_element(By.ID, "clock-w").get_attribute("class")
    click_point(d, "D3")  # White moves; the engine answers on its own clock
    wait(d, lambda d: len(moves(d)) == 2, "the engine's answer")
    assert 0 < clock_ms(d, "b") < 4000
    wait(d, lambda d: d.find_element(By.ID, "result").text, "the flag fall")
    assert d.find_element(By.ID, "result").text == "White lost on time: Black wins"
    assert clock_ms(d, "w") == 0 and "game over" in d.find_element(By.ID, "to-act").text
    click_point(d, "E3")
    assert "The game is over" in message(d)
    Select(d.find_element(By.ID, "time-mode")).select_by_value("move")
    retype(d.find_element(By.ID, "time-ms"), "100")
    wait(d, lambda d: not d.find_element(By.ID, "clocks").is_displayed(), "no clocks again")


def edited(driver) -> str:
    return driver.execute_script("return editedPosition()")


def choose_piece(driver, value: str) -> None:
    driver.find_element(By.CSS_SELECTOR, f'input[name="editor-piece"][value="{value}"]').click()


def test_the_position_editor_round_trips_a_position_string_through_the_engine(
        server_url, browser, engine, tmp_path):  # noqa: F811 - fixtures
    d = browser
    open_page(d, server_url, "dvonn")
    set_position(d, STUCK_WHITE)
    d.find_element(By.ID, "edit").click()
    assert d.find_element(By.ID, "editor").is_displayed()
    assert edited(d) == STUCK_WHITE  # untouched: the same string
    choose_piece(d, "-")
    click_point(d, "A3")  # WW -> W
    choose_piece(d, "B")
    click_point(d, "A3")  # W -> WB: a black piece on top
    click_point(d, "D3")  # B, two high now: BB
    expected = STUCK_WHITE.replace("WW,R,-,B,", "WB,R,-,BB,")
    assert edited(d) == expected
    assert drawn(d)["A3"] == ("B", 2) and drawn(d)["D3"] == ("B", 2)
    Select(d.find_element(By.ID, "editor-side")).select_by_value("b")
    expected = expected.replace("dvonn w", "dvonn b")
    assert edited(d) == expected
    screenshot(d, tmp_path, "gui-editor.png")
    d.find_element(By.ID, "editor-use").click()
    wait(d, lambda d: page_position(d) == expected and not d.find_element(By.ID, "editor").is_displayed(),
         "the edited position in play")
    engine.ok(f"setposition {expected}")
    assert engine.ok("position") == expected  # the engine's own string: round trip
    assert message(d) == f"Position set: {expected}"
    # a position the engine refuses is said, and the editor stays open
    d.find_element(By.ID, "edit").click()
    choose_piece(d, "-")
    click_point(d, "B3")  # the red piece: the move phase has all three
    d.find_element(By.ID, "editor-use").click()
    wait(d, lambda d: "bad position" in message(d), "the engine's refusal")
    assert d.find_element(By.ID, "editor").is_displayed() and page_position(d) == expected
    d.find_element(By.ID, "editor-cancel").click()
    assert drawn(d) == stacks_of(expected)
    # TZAAR from an empty board: pieces put by clicks, the side and phase kept
    before = states(d)
    Select(d.find_element(By.ID, "game")).select_by_value("tzaar-fixed")
    d.find_element(By.ID, "newgame").click()
    wait(d, lambda d: states(d) > before and d.execute_script("return ui.state.status.game") == "tzaar",
         "TZAAR")
    d.find_element(By.ID, "edit").click()
    d.find_element(By.ID, "editor-clear").click()
    assert drawn(d) == {}
    for letter, point in (("a", "A1"), ("b", "A2"), ("c", "A3"), ("c", "A3"), ("A", "I1"),
                          ("B", "I2"), ("C", "I3")):
        choose_piece(d, letter)
        click_point(d, point)
    d.execute_script("document.getElementById('editor-phase').value = 'turn'")
    position = edited(d)
    assert stacks_of(position) == {"A1": ("a", 1), "A2": ("b", 1), "A3": ("c", 2),
                                   "I1": ("A", 1), "I2": ("B", 1), "I3": ("C", 1)}
    d.find_element(By.ID, "editor-use").click()
    wait(d, lambda d: page_position(d) == position, "the TZAAR position in play")
    engine.ok(f"setposition {position}")
    assert engine.ok("position") == position


def test_random_layouts_levels_and_words_that_belong_to_the_game_shown(
        server_url, browser, engine, tmp_path):  # noqa: F811 - fixtures
    d = browser
    open_page(d, server_url, "dvonn")
    click_point(d, "D3")
    wait(d, lambda d: message(d).startswith("Engine played "), "the engine's answer")
    d.find_element(By.ID, "newgame").click()
    wait(d, lambda d: moves(d) == [] and message(d) == "", "the words of the game before gone")
    # the level says what it limits beside the engine's time (docs/levels.md)
    if d.find_element(By.ID, "level-row").is_displayed():
        assert d.find_element(By.ID, "limit-note").text.startswith(
            "level 10 limits each move to a search 3 plies deep: the engine often answers well "
            "before its time")
    Select(d.find_element(By.ID, "game")).select_by_value("tzaar-random")  # starts one at once
    wait(d, lambda d: d.find_element(By.ID, "seed-note").text, "a seed")
    layouts = [(d.find_element(By.ID, "seed-note").text, page_position(d))]
    d.find_element(By.ID, "newgame").click()  # another: a new seed, a new board
    wait(d, lambda d: d.find_element(By.ID, "seed-note").text not in ("", layouts[0][0]), "a new seed")
    layouts.append((d.find_element(By.ID, "seed-note").text, page_position(d)))
    assert layouts[0][0] != layouts[1][0] and layouts[0][1] != layouts[1][1]
    seed = int(layouts[0][0].split()[-1])
    engine.ok(f"newgame tzaar random {seed}")
    assert engine.ok("position") == layouts[0][1]  # the seed shown is the layout's
    d.find_element(By.ID, "seed").send_keys(str(seed))  # typed: that layout again
    d.find_element(By.ID, "newgame").click()
    wait(d, lambda d: page_position(d) == layouts[0][1], "the first layout again")
    # a loaded record of a random layout shows that in the selector
    engine.ok("play w " + engine.ok("legal_moves").split("\n")[0])
    load_record(d, tmp_path, engine.ok("printrecord") + "\n", "random.sgf")
    assert Select(d.find_element(By.ID, "game")).first_selected_option.get_attribute("value") == \
        "tzaar-random"
    engine.ok("newgame tzaar fixed")  # and one of the fixed layout
    engine.ok("play w D6xE7")
    load_record(d, tmp_path, engine.ok("printrecord") + "\n", "fixed.sgf")
    assert Select(d.find_element(By.ID, "game")).first_selected_option.get_attribute("value") == \
        "tzaar-fixed"


# Everything laid out on the page that sticks out of the window, is cut off by its box, or
# scrolls sideways (form fields scroll their own text by design: only their place is checked).
LAYOUT_FAULTS = """
const page = document.documentElement, width = page.clientWidth, faults = [];
const name = (e) => e.id ? '#' + e.id : e.tagName.toLowerCase() + '.' + [...e.classList].join('.');
if (page.scrollWidth > width) faults.push(`the page scrolls sideways (${page.scrollWidth} > ${width})`);
for (const e of document.querySelectorAll('body *')) {
  const box = e.getBoundingClientRect();
  if (!box.width || !box.height || (e.closest('svg') && e.tagName !== 'svg')) continue;
  const [left, right] = [Math.round(box.left), Math.round(box.right)];
  if (right > width + 1 || left < -1) faults.push(`${name(e)} sticks out (${left}..${right} of ${width})`);
  if (e.matches('input, select, textarea, svg')) continue;
  const style = getComputedStyle(e), [inner, shown] = [e.scrollWidth, e.clientWidth];
  if (style.overflowX !== 'visible' && inner > shown + 1) faults.push(`${name(e)} is cut off (${inner} > ${shown})`);
  if (style.textOverflow === 'ellipsis' && inner > shown) faults.push(`${name(e)} ends in an ellipsis`);
}
return faults;
"""


def test_the_page_fits_from_360_to_1600_px_and_its_review_table_reads(server_url, browser, tmp_path):  # noqa: F811
    from test_review import HAND_BUILT_TZAAR  # a long result: "White wins (Black has no Tzaar …)"
    d = browser
    open_page(d, server_url, "tzaar-fixed")
    load_record(d, tmp_path, HAND_BUILT_TZAAR, "won.sgf")
    amount = d.find_element(By.ID, "review-amount")
    amount.clear()
    amount.send_keys("1")
    d.find_element(By.ID, "review-start").click()
    wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#review-moves .review-move")) == 23, "the review")
    # decided positions in words, and a choice the shallow search rates below the move played
    # carries its mark: the page never shows it as the better move without saying why
    rows = d.execute_script("return [...document.querySelectorAll('#review-table tbody tr')]"
                            ".map(r => [...r.cells].map(c => c.textContent))")
    report = d.execute_script("return ui.report.moves")
    assert not [row for row in rows if "3000.00" in " ".join(row)], rows
    assert any(move["depth_limited"] for move in report)
    for row, move in zip(rows, report):
        assert row[2].endswith("*") == move["depth_limited"], (row, move)
    try:
        for width in (360, 1024, 1400, 1600):
            d.set_window_size(width, 900)
            wait(d, lambda d, width=width: d.execute_script("return window.innerWidth") == width,
                 f"{width} px")
            assert d.execute_script(LAYOUT_FAULTS) == [], width
            for part in ("result", "score", "board", "nav", "eval"):
                assert d.find_element(By.ID, part).is_displayed(), (width, part)
            board, panel = d.find_element(By.ID, "board").rect, d.find_element(By.TAG_NAME, "aside").rect
            if width < 900:  # the board first, then the panels under it
                assert board["y"] + board["height"] <= panel["y"] and board["y"] < 300
                screenshot(d, tmp_path, "gui-narrow.png")
            else:
                assert panel["x"] >= board["x"] + board["width"]
            # a review table a person reads: text of a normal size, a screenful of rows
            size = d.execute_script("return parseFloat(getComputedStyle("
                                    "document.querySelector('#review-table td')).fontSize)")
            rows = d.execute_script(
                "const box = document.getElementById('review-moves').getBoundingClientRect();"
                "return [...document.querySelectorAll('#review-table tbody tr')].filter(r => {"
                " const b = r.getBoundingClientRect(); return b.top >= box.top - 1 && b.bottom <= box.bottom + 1;"
                "}).length")
            assert size >= 13 and rows >= 10, (width, size, rows, d.execute_script(
                "return [document.getElementById('review-moves').getBoundingClientRect().height, "
                "window.innerHeight, [...document.querySelectorAll('#review-table tr')].slice(0, 12)"
                ".map(r => r.getBoundingClientRect().height)]"))
    finally:
        d.set_window_size(1400, 900)
