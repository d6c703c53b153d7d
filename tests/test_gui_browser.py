"""The GUI end to end in a real headless browser (Debian's chromium + chromium-driver, Selenium):
`python3 -m engine.gui` serves, the page plays both games by clicks against the engine.

Each test saves a screenshot of what it checked (in its tmp_path); the pictures of docs/gui.md
are taken by gipf-screenshots (engine/tools/screenshots.py).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest
from conftest import REPO, gui_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
if not (CHROMIUM and CHROMEDRIVER):
    pytest.skip("no chromium/chromedriver: apt-get install chromium chromium-driver (.ci/run does)",
                allow_module_level=True)
pytest.importorskip("selenium", reason="selenium is not installed (the test extra)")
pytest.importorskip("starlette", reason="the GUI's extra is not installed: pip install '.[gui]'")

from selenium import webdriver  # noqa: E402 - after the skips when the browser or selenium is missing
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402 - after the skips when the browser or selenium is missing
from selenium.webdriver.chrome.service import Service  # noqa: E402 - after the skips when the browser or selenium is missing
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402 - after the skips when the browser or selenium is missing
from selenium.webdriver.common.by import By  # noqa: E402 - after the skips when the browser or selenium is missing
from selenium.webdriver.common.keys import Keys  # noqa: E402 - after the skips when the browser or selenium is missing
from selenium.webdriver.support.select import Select  # noqa: E402 - after the skips when the browser or selenium is missing
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402 - after the skips when the browser or selenium is missing

WAIT_S = 60  # an upper bound against hanging, not a timing check
# A LittleGolem DVONN game (../shared/records/littlegolem/dvonn-demo.txt) cut after 64 moves:
# stacks up to six high, one with a red piece inside.
DVONN_RECORD = (
    "Event [Tournament dvonn.mc.2014.may.1.1] Site [www.littlegolem.net] White [CleverHunk] "
    "Black [Xander] 1. g2 c1 2. f5 d1 3. h5 g5 4. i1 e1 5. f2 f1 6. e4 e5 7. j2 g1 8. b2 b1 "
    "9. h1 g4 10. d3 c2 11. e3 f4 12. c4 d4 13. a2 a1 14. d2 e2 15. a3 g3 16. d5 f3 17. i5 c3 "
    "18. h2 h3 19. k3 h4 20. k5 i4 21. i3 j5 22. i2 b3 23. j4 j3 24. k4 b4 25. a2b2 b3b2 "
    "26. k5j4 e5e4 27. a3b4 d4d3 28. j4h4 j3i3 29. h5g4 g5g4 30. b4b2 g1h2 31. c4c3 h2f2 "
    "32. b2g2\n")


@pytest.fixture(scope="module")
def server_url():
    with gui_server() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--window-size=1400,900"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def wait(driver, condition, what: str):
    return WebDriverWait(driver, WAIT_S, ignored_exceptions=(StaleElementReferenceException,)) \
        .until(lambda d: condition(d), message=what)


def texts(driver, selector: str, attribute: str = "textContent") -> list[str]:
    """Read in one step in the page: the board and lists are redrawn at every message."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.getAttribute(arguments[1]) "
        "?? e[arguments[1]])", selector, attribute)


def moves(driver) -> list[str]:
    return texts(driver, "#moves .move")


def click_point(driver, name: str) -> None:
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'[data-point="{name}"]').click() or True,
         f"a click on {name}")


def analysis_ended(driver) -> int:
    return int(driver.find_element(By.ID, "analysis-state").get_attribute("data-ended") or 0)


def hover_best_variation(driver) -> bool:
    """Hover the last move of the best line: the board then shows the whole variation."""
    try:  # the table is redrawn at every analysis line: an element can go stale under us
        line = driver.find_elements(By.CSS_SELECTOR, "#pv-table .pv-line:first-child .pv-move")
        if len(line) >= 2:
            ActionChains(driver).move_to_element(line[-1]).perform()
        return len(line) >= 2
    except StaleElementReferenceException:
        return False


def states(driver) -> int:
    """How many state messages the page has drawn (each one draws the board anew)."""
    return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-states") or 0)


def retype(field, text: str) -> None:
    """Replace a text field's value as a user does, then leave it (the change event sends it).
    WebDriver's clear() leaves the field, and a state arriving before the typing would refill
    it; selecting all inside the focused field keeps the page from writing to it."""
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(text + "\t")


def open_page(driver, url: str, game: str) -> None:
    driver.get(url)
    wait(driver, lambda d: states(d) >= 1, "the first state")
    retype(driver.find_element(By.ID, "time-ms"), "100")
    wait(driver, lambda d: states(d) >= 2, "the state after the time setting")
    select = Select(driver.find_element(By.ID, "game"))
    if select.first_selected_option.get_attribute("value") != game:
        select.select_by_value(game)  # no move played yet: the choice starts the game at once
        wait(driver, lambda d: states(d) >= 3, f"a new {game} game")
    assert driver.find_element(By.ID, "position").get_attribute("value").startswith(
        game.split("-")[0])


def screenshot(driver, tmp_path, name: str) -> None:
    path = tmp_path / name
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000


def set_analysis(driver, on: bool) -> None:
    box = driver.find_element(By.ID, "analysis-on")
    if box.is_selected() != on:
        before = states(driver)
        box.click()
        wait(driver, lambda d: states(d) > before, "the state after the analysis setting")


def message(driver) -> str:
    return driver.find_element(By.ID, "message").text


def load_record(driver, tmp_path, text: str, name: str = "record.txt") -> None:
    path = tmp_path / name
    path.write_text(text)
    before = states(driver)
    driver.find_element(By.ID, "record-file").send_keys(str(path))
    wait(driver, lambda d: states(d) > before and "Record loaded" in message(d), "the loaded record")


def test_dvonn_by_clicks_with_live_analysis_undo_and_a_record(server_url, browser, tmp_path):
    d = browser
    open_page(d, server_url, "dvonn")
    assert len(d.find_elements(By.CSS_SELECTOR, "#board .point")) == 49
    set_analysis(d, True)  # off by default against the engine
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#pv-table .pv-line"), "live analysis lines")
    ended = analysis_ended(d)
    click_point(d, "D3")  # White (human) places; Black (engine) answers
    wait(d, lambda d: len(moves(d)) == 2, "the engine's answer")
    assert moves(d)[0] == "1. w D3"
    assert analysis_ended(d) > ended  # the move stopped the analysis of the position before it
    assert texts(d, '[data-point="D3"]', "data-top") == ["R"]
    d.find_element(By.ID, "undo").click()
    wait(d, lambda d: not moves(d), "undo of both moves")
    assert texts(d, '[data-point="D3"]', "data-top") == [""]

    record = tmp_path / "dvonn-demo.txt"
    record.write_text(DVONN_RECORD)
    d.find_element(By.ID, "record-file").send_keys(str(record))
    wait(d, lambda d: len(moves(d)) == 64, "the loaded record's moves")
    assert moves(d)[-1] == "64. w B2-G2"
    assert "Record loaded: 64 moves" in d.find_element(By.ID, "message").text
    assert texts(d, '#board .point[data-height="6"]', "data-point") == ["G2"]
    assert set(texts(d, "#board .point.last", "data-point")) == {"B2", "G2"}
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#pv-table .pv-move"), "analysis of it")
    screenshot(d, tmp_path, "gui-dvonn.png")


def test_tzaar_by_clicks_with_a_pass_and_undo(server_url, browser, tmp_path):
    d = browser
    open_page(d, server_url, "tzaar-fixed")
    assert len(d.find_elements(By.CSS_SELECTOR, "#board .point")) == 60
    set_analysis(d, True)  # off by default against the engine
    click_point(d, "D6")
    assert texts(d, "#board .point.target", "data-point") == ["E6", "E7"]  # D6xE6, D6xE7
    click_point(d, "E7")  # White's opening capture D6xE7
    wait(d, lambda d: len(moves(d)) == 2, "the engine's turn")
    assert moves(d)[0] == "1. w D6xE7" and len(moves(d)[1].split()) == 4  # "2. b X Y"
    enemy = texts(d, '#board .point[data-top="A"]', "data-point")[0]  # a black Tzaar
    click_point(d, enemy)
    assert d.find_element(By.ID, "message").text == \
        f"{enemy} is Black's: move one of your own pieces (blue ring)"
    source = texts(d, "#board .point.source", "data-point")[0]
    click_point(d, source)  # the board is drawn anew at each click
    target = texts(d, "#board .point.target", "data-point")[0]
    click_point(d, target)
    first = f"{source}x{target}"
    wait(d, lambda d: d.find_element(By.ID, "pass").is_displayed(), "the second action")
    d.find_element(By.ID, "pass").click()
    wait(d, lambda d: len(moves(d)) == 4, "the engine's answer to the turn")
    assert moves(d)[2] == f"3. w {first} pass"
    d.find_element(By.ID, "undo").click()
    wait(d, lambda d: len(moves(d)) == 2, "undo of a turn and its answer")
    wait(d, hover_best_variation, "a variation to hover")  # hovering shows the move on the board
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#pv-layer .arrow-pv"), "the PV arrow")
    screenshot(d, tmp_path, "gui-tzaar.png")


def test_the_first_paint_is_a_board_to_play_against_the_engine(server_url, browser, tmp_path):
    d = browser
    d.get(server_url)
    # drawn from the state inside the page, before the session's own first state
    assert d.find_element(By.TAG_NAME, "body").get_attribute("data-first-paint") == "board"
    assert len(d.find_elements(By.CSS_SELECTOR, "#board .point")) == 49
    assert len(texts(d, "#board .point.target", "data-point")) == 49
    assert Select(d.find_element(By.ID, "player-w")).first_selected_option.text == "human"
    assert Select(d.find_element(By.ID, "player-b")).first_selected_option.text == "engine"
    assert not d.find_element(By.ID, "analysis-on").is_selected()  # no engine's move shown
    assert texts(d, "#game option", "value") == ["dvonn", "tzaar-fixed", "tzaar-random"]  # the registry's
    assert texts(d, "#game option") == ["DVONN", "TZAAR, fixed layout", "TZAAR, random layout"]
    assert "White to act (human)" in d.find_element(By.ID, "to-act").text
    wait(d, lambda d: states(d) >= 1, "the session's first state")
    assert "click a green point" in d.find_element(By.ID, "hint").text
    screenshot(d, tmp_path, "gui-start.png")
    level = d.find_element(By.ID, "level-row")
    engine_has_levels = "level" in subprocess.run(
        [sys.executable, "-m", "engine"], input="option\n", capture_output=True, text=True,
        cwd=str(REPO), timeout=60, check=True).stdout
    assert level.is_displayed() == engine_has_levels
    if engine_has_levels:
        assert Select(d.find_element(By.ID, "level")).first_selected_option.text == "10"
        assert "middle level" in d.find_element(By.ID, "level-note").text
        Select(d.find_element(By.ID, "level")).select_by_visible_text("3")
        wait(d, lambda d: message(d) == "Engine level 3 from its next move "
             "(1 weakest, 20 full strength)", "the level confirmed")
        assert d.find_element(By.ID, "level").get_attribute("value") == "3"


def test_analysis_is_on_among_humans_and_waits_while_nobody_looks(server_url, browser):
    d = browser
    open_page(d, server_url, "dvonn")
    assert not d.find_element(By.ID, "analysis-on").is_selected()
    Select(d.find_element(By.ID, "player-b")).select_by_visible_text("human")
    wait(d, lambda d: d.find_element(By.ID, "analysis-on").is_selected(), "analysis on for humans")
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#pv-table .pv-line"), "live analysis lines")
    ended = analysis_ended(d)
    d.execute_script("Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
                     "document.dispatchEvent(new Event('visibilitychange'))")
    wait(d, lambda d: analysis_ended(d) > ended, "the analysis stopped")
    assert "paused while the tab is hidden" in d.find_element(By.ID, "analysis-state").text
    d.execute_script("Object.defineProperty(document, 'hidden', {value: false, configurable: true});"
                     "document.dispatchEvent(new Event('visibilitychange'))")
    wait(d, lambda d: d.find_element(By.ID, "analysis-state").get_attribute("data-state") ==
         "running", "the analysis again")
    d.execute_script("document.body.dataset.idleMs = '300';"
                     "document.dispatchEvent(new Event('pointermove'))")
    wait(d, lambda d: "a minute without input" in d.find_element(By.ID, "analysis-state").text,
         "the analysis paused without input")
    d.execute_script("document.body.dataset.idleMs = '600000';"
                     "document.dispatchEvent(new Event('keydown'))")
    wait(d, lambda d: d.find_element(By.ID, "analysis-state").get_attribute("data-state") ==
         "running", "the analysis after an input")


def test_the_analysis_panel_keeps_no_lines_of_another_position(server_url, browser):
    d = browser
    open_page(d, server_url, "dvonn")
    set_analysis(d, True)
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#pv-table .pv-line"), "DVONN lines")
    # DVONN's in points of height, as review counts them
    assert all(re.fullmatch(r"[+-]\d+\.\d\d|(wins|loses) in \d+ \(by \d+\)", score)
               for score in texts(d, "#pv-table .pv-line td:nth-child(2)")), \
        texts(d, "#pv-table .pv-line td:nth-child(2)")
    set_analysis(d, False)
    assert d.find_elements(By.CSS_SELECTOR, "#pv-table .pv-line")  # the same position: kept
    before = states(d)
    Select(d.find_element(By.ID, "game")).select_by_value("tzaar-fixed")
    wait(d, lambda d: states(d) > before, "the TZAAR game")
    assert d.find_elements(By.CSS_SELECTOR, "#pv-table .pv-line") == []
    legend = d.find_element(By.ID, "legend").text
    assert "Tzarra" in legend and "red" not in legend  # DVONN's red ring is not TZAAR's
    set_analysis(d, True)
    wait(d, lambda d: texts(d, "#pv-table .pv-move"), "TZAAR lines")
    assert all("x" in move or "+" in move or move == "pass" for move in texts(d, "#pv-table .pv-move"))
    # scores in review's words: TZAAR's with the win chance
    assert all(re.fullmatch(r"[+-]\d+\.\d\d \(\d+ %\)|(wins|loses) in \d+", score)
               for score in texts(d, "#pv-table .pv-line td:nth-child(2)")), \
        texts(d, "#pv-table .pv-line td:nth-child(2)")


def test_a_resigned_record_is_a_finished_game_and_ignored_actions_get_a_word(
        server_url, browser, tmp_path):
    d = browser
    open_page(d, server_url, "dvonn")
    click_point(d, "D3")
    wait(d, lambda d: len(moves(d)) == 2, "the engine's answer")
    occupied = texts(d, "#board .point", "data-point")
    taken = [name for name, top in zip(occupied, texts(d, "#board .point", "data-top")) if top]
    click_point(d, taken[0])  # an occupied point in the placement phase
    assert f"{taken[0]}: this piece cannot be chosen now" in message(d)
    time_ms = d.find_element(By.ID, "time-ms")
    for bad in ("5", "abc"):
        retype(time_ms, bad)
        wait(d, lambda d: "Engine time: a whole number of milliseconds from 10" in message(d),
             f"the refusal of {bad}")
    load_record(d, tmp_path, "Site [www.littlegolem.net] 1. d3 e3 2. f3 resign\n")
    assert d.find_element(By.ID, "result").text == "Black resigned: White wins"
    assert not d.find_element(By.ID, "pass").is_displayed()
    assert texts(d, "#board .point.target", "data-point") == []
    click_point(d, "G3")
    assert "The game is over" in message(d)
    d.find_element(By.ID, "go").click()
    wait(d, lambda d: "the game is over" in message(d), "the refusal of Engine move")
    from test_review import HAND_BUILT_TZAAR  # a TZAAR game won by White's last capture
    load_record(d, tmp_path, HAND_BUILT_TZAAR, "won.sgf")
    assert d.find_element(By.ID, "result").text == \
        "White wins (Black has no Tzaar on top of a stack)"
    assert "game over" in d.find_element(By.ID, "to-act").text
    assert not d.find_element(By.ID, "pass").is_displayed()
    words = d.execute_script(
        "return [resultWords({status: {result: 'B+18', reason: 'neither_side_can_move'}}),"
        " resultWords({status: {result: '0', reason: '-'}}),"
        " resultWords({status: {result: 'W+', reason: '-'}})]")
    assert words == ["Black wins by 18 (neither side can move)", "Draw", "White wins"]
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * (5 << 20))
    d.find_element(By.ID, "record-file").send_keys(str(big))
    wait(d, lambda d: "too large for a game record" in message(d), "the size check")
    assert len(moves(d)) == 23  # the game is kept


def test_keyboard_play_and_the_controls_beside_the_board(server_url, browser):
    d = browser
    open_page(d, server_url, "tzaar-fixed")
    d.execute_script("document.querySelector('[data-point=\"D6\"]').focus()")
    d.switch_to.active_element.send_keys("\n")  # Enter chooses the focused point
    wait(d, lambda d: texts(d, "#board .point.target", "data-point") == ["E6", "E7"], "the targets")
    wait(d, lambda d: d.switch_to.active_element.get_attribute("data-point") == "D6", "focus kept")
    d.switch_to.active_element.send_keys(Keys.ESCAPE)  # the move being built is cancelled
    wait(d, lambda d: texts(d, "#board .point.selected", "data-point") == [], "the move cancelled")
    d.switch_to.active_element.send_keys(" ")  # Space chooses too
    wait(d, lambda d: texts(d, "#board .point.selected", "data-point") == ["D6"], "the choice by Space")
    d.execute_script("document.querySelector('[data-point=\"E7\"]').focus()")
    d.switch_to.active_element.send_keys("\n")
    wait(d, lambda d: len(moves(d)) >= 1 and moves(d)[0] == "1. w D6xE7", "the keyboard move")
    wait(d, lambda d: len(moves(d)) == 2, "the engine's turn")
    click_point(d, texts(d, "#board .point.source", "data-point")[0])
    click_point(d, texts(d, "#board .point.target", "data-point")[0])
    wait(d, lambda d: d.find_element(By.ID, "pass").is_displayed(), "the second action")
    d.find_element(By.TAG_NAME, "body").send_keys("p")  # P passes
    wait(d, lambda d: len(moves(d)) >= 3 and moves(d)[2].endswith(" pass"), "the pass by P")
    # the engine's answer ends its thinking notice: measure after it, not while it may arrive
    wait(d, lambda d: len(moves(d)) == 4, "the engine's second turn")
    board = d.find_element(By.ID, "board").rect
    for control in ("score", "builder"):
        rect = d.find_element(By.ID, control).rect
        assert board["y"] - 80 <= rect["y"] + rect["height"] <= board["y"] + 5, control
    d.execute_script("showThinking('engine thinking for Black…')")
    thinking = d.find_element(By.ID, "thinking").rect
    assert board["x"] <= thinking["x"] < board["x"] + board["width"]
    assert board["y"] <= thinking["y"] < board["y"] + board["height"]
    d.execute_script("showThinking(null)")
    # two actions ending on one point share one label
    labels = d.execute_script(
        "ui.view.showPv(['D6xE7', 'F2xE7', 'E7xE6']);"
        "return [...document.querySelectorAll('#pv-layer .pv-number')].map(e => e.textContent)")
    assert sorted(labels) == ["1,2", "3"]


def test_a_dvonn_review_draws_its_graph_and_shows_a_move(server_url, browser, tmp_path):
    d = browser
    open_page(d, server_url, "dvonn")
    record = tmp_path / "dvonn-demo.txt"
    record.write_text(DVONN_RECORD)
    d.find_element(By.ID, "record-file").send_keys(str(record))
    wait(d, lambda d: len(moves(d)) == 64, "the loaded record's moves")
    for nothing_yet in ("review-graph", "review-table"):  # no empty box before a review
        assert not d.find_element(By.ID, nothing_yet).is_displayed()
    amount = d.find_element(By.ID, "review-amount")
    amount.clear()
    amount.send_keys("9")
    d.find_element(By.ID, "review-start").click()
    assert message(d) == "Review depth: a whole number from 1 to 8"
    amount.clear()
    amount.send_keys("2")
    d.find_element(By.ID, "review-start").click()
    wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#review-graph .review-point")) == 64,
         "the evaluation graph, one point per move")
    assert len(d.find_elements(By.CSS_SELECTOR, "#review-moves .review-move")) == 64
    graph = d.find_element(By.ID, "review-graph")
    assert graph.is_displayed() and graph.get_attribute("hidden") is None  # it was never shown
    # one meaning per column, as gipf-review prints them (engine/review/report.py)
    assert texts(d, "#review-table th") == ["move", "played", "best", "best's score", "loss", "mark"]
    rows = d.execute_script("return [...document.querySelectorAll('#review-table tbody tr')]"
                            ".map(r => [...r.cells].map(c => c.textContent))")
    assert rows[0][0] == "1. w G2" and all(len(row) == 6 for row in rows)
    score = r"[+-]\d+\.\d\d|(wins|loses) in \d+ \(by \d+\)|(won|lost) \(by \d+\)|wins|loses"
    assert all(re.fullmatch(score, row[1]) and re.fullmatch(score, row[3]) for row in rows), rows
    assert all(re.fullmatch(r"\(played\)|\(forced\)|([A-K]\d(-[A-K]\d)?|pass)\*?",
                            row[2]) for row in rows), rows
    stacks = lambda d: sum(1 for top in texts(d, "#board .point", "data-top") if top)  # noqa: E731 - a wait condition
    at_end = stacks(d)
    d.find_element(By.CSS_SELECTOR, '#review-moves .review-move[data-ply="10"]').click()
    wait(d, lambda d: stacks(d) == 10, "the board after move 10")
    assert texts(d, "#moves .move.shown", "data-ply") == ["10"]  # the game's own list says so
    assert texts(d, "#review-graph .review-point.selected", "data-ply") == ["10"]
    screenshot(d, tmp_path, "gui-review.png")
    box = graph.rect  # a click on the graph: the move under it, here the middle of the game
    ActionChains(d).move_to_element_with_offset(graph, 0, 0).click().perform()
    wait(d, lambda d: abs(int(d.find_element(By.ID, "nav-where").get_attribute("data-ply")) - 32)
         <= 1, f"the move in the middle of the graph ({box})")
    d.find_element(By.ID, "nav-last").click()
    wait(d, lambda d: stacks(d) == at_end, "the end of the game")
    assert len(moves(d)) == 64
    from test_review import HAND_BUILT_TZAAR  # another game: its review goes
    load_record(d, tmp_path, HAND_BUILT_TZAAR, "tzaar.sgf")
    assert not graph.is_displayed() and not d.find_element(By.ID, "review-table").is_displayed()
    assert d.find_elements(By.CSS_SELECTOR, "#review-moves .review-move") == []
    assert d.find_element(By.ID, "review-state").text == ""


# --- the position the player acts on, passes, the selector -------------------------------------
# White's one stack (two high, on A3) has no stack two points away, and no move can put one there:
# every White turn is a forced pass while Black's row of single pieces stacks up.
STUCK_WHITE = ("dvonn w move -,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-/WW,R,-,B,B,B,R,B,B,B,R/"
               "-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-")


TZAAR_START = ("tzaar w opening C,C,C,C,c/c,B,B,B,b,c/c,b,A,A,a,b,c/c,b,a,C,c,a,b,c/c,b,a,c,C,A,B,C/"
               "C,B,A,C,c,A,B,C/C,B,A,a,a,B,C/C,B,b,b,b,C/C,c,c,c,c")  # the fixed layout


def tzaar_pieces(position: str) -> dict[str, tuple[str, int]]:
    """The stacks of a TZAAR position string (protocol.md §7.2): point -> (top letter, height)."""
    columns = position.split()[3].split("/")
    pieces = {}
    for letter, column in zip("ABCDEFGHI", columns):
        numbers = [n for n in range(1, 10) if not (letter == "E" and n == 5)]  # E5: the hole
        for number, token in zip(numbers, column.split(",")):
            if token != "-":
                pieces[f"{letter}{number}"] = (token[-1], len(token))
    return pieces


def drawn_pieces(driver) -> dict[str, tuple[str, int]]:
    rows = driver.execute_script(
        "return [...document.querySelectorAll('#board .point')]"
        ".map(e => [e.dataset.point, e.dataset.top, e.dataset.height])")
    return {name: (top, int(height)) for name, top, height in rows if top}


def points_of(action: str) -> list[str]:
    return [word for word in action.replace("x", " ").replace("+", " ").replace("-", " ").split()]


def rect(driver, element_id: str) -> dict:
    return driver.find_element(By.ID, element_id).rect


def set_position(driver, position: str) -> None:
    field = driver.find_element(By.ID, "position")
    field.clear()
    field.send_keys(position)
    before = states(driver)
    driver.find_element(By.ID, "setposition").click()
    wait(driver, lambda d: states(d) > before, "the position set")


def test_a_tzaar_turn_is_drawn_action_by_action_as_the_engine_has_it(
        server_url, browser, engine, tmp_path):
    d = browser
    open_page(d, server_url, "dvonn")
    set_position(d, TZAAR_START)
    # the selector follows a game that came from a position, not from the selector itself
    assert Select(d.find_element(By.ID, "game")).first_selected_option.get_attribute(
        "value").startswith("tzaar")
    assert d.find_element(By.ID, "score").text == \
        "Count: White tzaar 6 tzarra 9 tott 15 · Black tzaar 6 tzarra 9 tott 15"
    before = states(d)
    Select(d.find_element(By.ID, "player-b")).select_by_visible_text("human")
    wait(d, lambda d: states(d) > before, "both sides human")
    set_analysis(d, False)
    click_point(d, "D6")
    click_point(d, "E7")
    wait(d, lambda d: moves(d) == ["1. w D6xE7"], "White's opening capture")
    start = d.find_element(By.ID, "position").get_attribute("value")
    engine.ok(f"setposition {start}")
    turns = [m.split() for m in engine.ok("legal_moves").split("\n")]
    # as in a game where A5xA4 is followed by A4's next action: the piece just moved moves again
    first, second = next(t for t in turns if len(t) == 2 and t[1] != "pass"
                         and points_of(t[1])[0] == points_of(t[0])[1])
    engine.ok(f"play b {first} pass")
    after_first = engine.ok("position")
    engine.ok("undo")
    engine.ok(f"play b {first} {second}")
    after_turn = engine.ok("position")
    assert drawn_pieces(d) == tzaar_pieces(start)
    layout = [rect(d, name) for name in ("status-line", "builder", "board")]

    source, target = points_of(first)
    click_point(d, source)
    click_point(d, target)
    wait(d, lambda d: drawn_pieces(d) == tzaar_pieces(after_first),
         f"the board after {first} as the engine has it")
    assert d.find_element(By.ID, "chosen").text == f"turn so far: {first}"
    assert target in texts(d, "#board .point.source", "data-point")  # the mover's piece now
    assert d.execute_script(  # its ring is drawn after (above) the last-move ring on it
        "const last = document.querySelector('#board .ring-last');"
        "const ring = document.querySelector(`#choice-layer .ring-source[data-for='${arguments[0]}']`);"
        "return Boolean(last && ring && last.compareDocumentPosition(ring) &"
        " Node.DOCUMENT_POSITION_FOLLOWING)", target)
    assert [rect(d, name) for name in ("status-line", "builder", "board")] == layout  # no jump
    screenshot(d, tmp_path, "gui-tzaar-turn.png")

    d.find_element(By.ID, "cancel").click()
    wait(d, lambda d: drawn_pieces(d) == tzaar_pieces(start), "the turn's start again")
    assert d.find_element(By.ID, "chosen").text == ""
    click_point(d, source)
    click_point(d, target)
    wait(d, lambda d: drawn_pieces(d) == tzaar_pieces(after_first), "the first action again")
    for point in points_of(second):
        click_point(d, point)
    wait(d, lambda d: len(moves(d)) == 2, "the whole turn played")
    assert moves(d)[1] == f"2. b {first} {second}"
    assert d.find_element(By.ID, "position").get_attribute("value") == after_turn
    assert drawn_pieces(d) == tzaar_pieces(after_turn)


def white_passes(driver) -> int:
    return sum(1 for move in moves(driver) if move.endswith(". w pass"))


def test_a_forced_pass_is_said_in_words_and_one_click_passes_the_run(server_url, browser):
    d = browser
    open_page(d, server_url, "dvonn")
    set_position(d, STUCK_WHITE)
    wait(d, lambda d: d.find_element(By.ID, "hint").text == "White cannot move: pass",
         "the forced pass in words")
    assert d.find_element(By.ID, "pass").is_displayed()
    click_point(d, "A3")
    assert message(d) == "White cannot move: pass"
    d.find_element(By.ID, "pass").click()  # the only click: the passes after it go by themselves
    wait(d, lambda d: d.find_element(By.ID, "result").text, "the end of the game")
    assert white_passes(d) >= 2 and moves(d)[0] == "1. w pass"
    assert d.find_element(By.ID, "result").text.endswith("(neither side can move)")
    set_position(d, STUCK_WHITE.replace("W", "b").replace("B", "W").replace("b", "B"))
    click_point(d, "D3")  # White moves; Black, the engine, has no move
    click_point(d, "E3")
    wait(d, lambda d: message(d) == "Black could not move: the engine passed", "the engine's pass")
    assert moves(d)[:2] == ["1. w D3-E3", "2. b pass"]


def test_a_forced_pass_goes_by_itself_after_a_notice_when_chosen(server_url, browser, tmp_path):
    d = browser
    open_page(d, server_url, "dvonn")
    d.find_element(By.ID, "auto-pass").click()
    d.execute_script("document.body.dataset.passMs = '600000'")  # a notice to look at first
    set_position(d, STUCK_WHITE)
    wait(d, lambda d: d.find_element(By.ID, "hint").text ==
         "White cannot move: passing in a moment", "the notice before the pass")
    assert moves(d) == []
    screenshot(d, tmp_path, "gui-pass.png")
    d.execute_script("document.body.dataset.passMs = '200'")
    set_position(d, STUCK_WHITE)  # planned anew with a short notice; no click on Pass at all
    wait(d, lambda d: d.find_element(By.ID, "result").text, "the end of the game")
    assert white_passes(d) >= 2 and moves(d)[0] == "1. w pass"


def test_the_game_selector_starts_an_untouched_game_at_once_or_says_new_game(server_url, browser):
    d = browser
    open_page(d, server_url, "dvonn")
    before = states(d)
    Select(d.find_element(By.ID, "game")).select_by_value("tzaar-fixed")  # no move yet
    wait(d, lambda d: states(d) > before and len(d.find_elements(By.CSS_SELECTOR, "#board .point"))
         == 60, "TZAAR at once")
    assert d.find_element(By.ID, "to-act").text.startswith("TZAAR · White to act")
    click_point(d, "D6")
    click_point(d, "E7")
    wait(d, lambda d: len(moves(d)) == 2, "the engine's answer")
    Select(d.find_element(By.ID, "game")).select_by_value("dvonn")  # a game under way is kept
    assert d.find_element(By.ID, "game-note").text == "New game to start DVONN"
    assert len(d.find_elements(By.CSS_SELECTOR, "#board .point")) == 60 and len(moves(d)) == 2
    d.find_element(By.ID, "newgame").click()
    wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board .point")) == 49, "DVONN")
    assert d.find_element(By.ID, "game-note").text == "" and moves(d) == []
