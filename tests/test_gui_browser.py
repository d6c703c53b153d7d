"""The GUI end to end in a real headless browser (Debian's chromium + chromium-driver, Selenium):
`python3 -m engine.gui` serves, the page plays both games by clicks against the engine.

Each test saves a screenshot; with GIPF_SCREENSHOTS=<folder> set they are also copied there
(`GIPF_SCREENSHOTS=docs python3 -m pytest tests/test_gui_browser.py` renews README's pictures).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from conftest import REPO

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
if not (CHROMIUM and CHROMEDRIVER):
    pytest.skip("no chromium/chromedriver: apt-get install chromium chromium-driver (.ci/run does)",
                allow_module_level=True)
pytest.importorskip("selenium", reason="selenium is not installed (the test extra)")
pytest.importorskip("starlette", reason="the GUI's extra is not installed: pip install '.[gui]'")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.select import Select  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

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
    with subprocess.Popen([sys.executable, "-m", "engine.gui", "--port", "0"], cwd=str(REPO),
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as proc:
        line = proc.stdout.readline()
        if "http://127.0.0.1:" not in line:
            proc.kill()
            pytest.fail(f"the GUI server did not start: {line!r}")
        yield line.split()[3]
        proc.terminate()
        proc.wait(timeout=30)


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


def open_page(driver, url: str, game: str) -> None:
    driver.get(url)
    wait(driver, lambda d: states(d) >= 1, "the first state")
    time_ms = driver.find_element(By.ID, "time-ms")
    time_ms.clear()
    time_ms.send_keys("100\t")  # the change event sends it
    wait(driver, lambda d: states(d) >= 2, "the state after the time setting")
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    driver.find_element(By.ID, "newgame").click()
    wait(driver, lambda d: states(d) >= 3, f"a new {game} game")
    assert driver.find_element(By.ID, "position").get_attribute("value").startswith(
        game.split("-")[0])


def screenshot(driver, tmp_path, name: str) -> None:
    path = tmp_path / name
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000
    target = os.environ.get("GIPF_SCREENSHOTS")
    if target:
        shutil.copy(path, REPO / target / name)


def test_dvonn_by_clicks_with_live_analysis_undo_and_a_record(server_url, browser, tmp_path):
    d = browser
    open_page(d, server_url, "dvonn")
    assert len(d.find_elements(By.CSS_SELECTOR, "#board .point")) == 49
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
    click_point(d, "D6")
    assert texts(d, "#board .point.target", "data-point") == ["E6", "E7"]  # D6xE6, D6xE7
    click_point(d, "E7")  # White's opening capture D6xE7
    wait(d, lambda d: len(moves(d)) == 2, "the engine's turn")
    assert moves(d)[0] == "1. w D6xE7" and len(moves(d)[1].split()) == 4  # "2. b X Y"
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


def test_a_dvonn_review_draws_its_graph_and_shows_a_move(server_url, browser, tmp_path):
    d = browser
    open_page(d, server_url, "dvonn")
    record = tmp_path / "dvonn-demo.txt"
    record.write_text(DVONN_RECORD)
    d.find_element(By.ID, "record-file").send_keys(str(record))
    wait(d, lambda d: len(moves(d)) == 64, "the loaded record's moves")
    amount = d.find_element(By.ID, "review-amount")
    amount.clear()
    amount.send_keys("2")
    d.find_element(By.ID, "review-start").click()
    wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#review-graph .review-point")) == 64,
         "the evaluation graph, one point per move")
    assert len(d.find_elements(By.CSS_SELECTOR, "#review-moves .review-move")) == 64
    stacks = lambda d: sum(1 for top in texts(d, "#board .point", "data-top") if top)  # noqa: E731
    at_end = stacks(d)
    d.find_element(By.CSS_SELECTOR, '#review-moves .review-move[data-ply="10"]').click()
    wait(d, lambda d: stacks(d) == 10, "the board after move 10")
    assert d.find_element(By.ID, "review-view").is_displayed()
    assert texts(d, "#review-graph .review-point.selected", "data-ply") == ["10"]
    screenshot(d, tmp_path, "gui-review.png")
    d.find_element(By.ID, "review-back").click()
    assert stacks(d) == at_end and len(moves(d)) == 64
