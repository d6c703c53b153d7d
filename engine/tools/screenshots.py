"""Take the pictures of docs/gui.md anew: the web GUI served on a free port, driven by a headless
Chromium (Selenium), one picture per scene, each showing what its caption in docs/gui.md says.

Needs the `screenshots` extra (the GUI's and Selenium) and Chromium with its chromedriver
(`apt-get install chromium chromium-driver`).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from engine.examples import EXAMPLES
from engine.tools import cli
from engine.tools.cli import ToolError

WAIT_S = 60
REVIEW_WAIT_S = 600       # 64 positions searched on a machine that may be busy
WIDTH, HEIGHT = 1400, 900
# White's one stack cannot move: every White turn is a forced pass (the pass picture)
STUCK_WHITE = ("dvonn w move -,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-/WW,R,-,B,B,B,R,B,B,B,R/"
               "-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-")


class Page:
    """The GUI's page in the browser, with the few steps the scenes take."""

    def __init__(self, driver: Any, url: str, work: Path) -> None:
        from selenium.webdriver.common.by import By
        self.d, self.url, self.work, self.by = driver, url, work, By

    def wait(self, condition: Callable[[Any], Any], what: str, seconds: float = WAIT_S) -> Any:
        from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
        from selenium.webdriver.support.ui import WebDriverWait
        try:
            return WebDriverWait(self.d, seconds, ignored_exceptions=(StaleElementReferenceException,)) \
                .until(condition)
        except TimeoutException:
            raise ToolError(f"the page did not show {what} within {seconds:.0f} s") from None

    def js(self, script: str, *args: Any) -> Any:
        return self.d.execute_script(script, *args)

    def el(self, element_id: str) -> Any:
        return self.d.find_element(self.by.ID, element_id)

    def states(self) -> int:
        return int(self.js("return document.body.dataset.states || 0"))

    def after(self, action: Callable[[], Any], what: str) -> None:
        """Do something and wait for the state it brings."""
        before = self.states()
        action()
        self.wait(lambda d: self.states() > before, what)

    def open(self, game: str, width: int = WIDTH) -> None:
        self.d.set_window_size(width, HEIGHT)
        self.d.get(self.url)
        self.wait(lambda d: self.states() >= 1, "its first state")
        self.set_time("move", 300)
        if self.js("return document.getElementById('game').value") != game:
            self.select("game", game)

    def select(self, element_id: str, value: str) -> None:
        """Choose an option by its value (the option's text when it has no value)."""
        self.after(lambda: self.js(
            "const s = document.getElementById(arguments[0]); s.value = arguments[1];"
            "s.dispatchEvent(new Event('change'))", element_id, value), f"{element_id} {value}")

    def set_time(self, mode: str, ms: int) -> None:
        self.js("document.getElementById('time-mode').value = arguments[0]", mode)
        field = self.el("time-ms")
        field.clear()
        self.after(lambda: field.send_keys(f"{ms}\t"), "the engine's time")

    def humans(self) -> None:
        self.select("player-b", "human")

    def click(self, point: str) -> None:
        self.wait(lambda d: d.find_element(self.by.CSS_SELECTOR, f'[data-point="{point}"]').click()
                  or True, f"a click on {point}")

    def load(self, path: Path) -> None:
        self.after(lambda: self.el("record-file").send_keys(str(path)), f"the record {path.name}")
        self.wait(lambda d: "Record loaded" in self.el("message").text, "the loaded record")

    def set_position(self, position: str) -> None:
        self.js("document.getElementById('position').value = arguments[0]", position)
        self.after(lambda: self.el("setposition").click(), "the position set")

    def analysis(self) -> None:
        if not self.el("analysis-on").is_selected():
            self.after(lambda: self.el("analysis-on").click(), "the analysis on")
        self.wait(lambda d: self.js("return ui.pv.size > 0 && ui.pvPosition === ui.state.position"),
                  "analysis lines")

    def moves(self) -> int:
        return int(self.js("return ui.state ? ui.state.history.length : 0"))

    def save(self, out: Path, name: str) -> Path:
        self.js("document.activeElement && document.activeElement.blur()")
        path = out / name
        self.d.save_screenshot(str(path))
        return path


def dvonn_64(page: Page) -> Path:
    """The DVONN example record cut after 64 moves, at White's B2-G2 (a stack six high)."""
    path = page.work / "dvonn-64.txt"
    text = (EXAMPLES / "dvonn-demo.txt").read_text(encoding="utf-8")
    path.write_text(text[:text.index(" 32. b2g2") + len(" 32. b2g2")] + "\n", encoding="utf-8")
    return path


def scene_start(page: Page) -> None:
    page.d.set_window_size(WIDTH, HEIGHT)
    page.d.get(page.url)
    page.wait(lambda d: page.states() >= 1, "its first state")


def scene_dvonn(page: Page) -> None:
    page.open("dvonn")
    page.load(dvonn_64(page))
    page.analysis()


def scene_tzaar(page: Page) -> None:
    page.open("tzaar-fixed")
    page.click("D6")
    page.click("E7")
    page.wait(lambda d: page.moves() == 2, "the engine's answer")
    page.analysis()
    from selenium.webdriver.common.action_chains import ActionChains
    line = page.d.find_elements(page.by.CSS_SELECTOR, "#pv-table .pv-line:first-child .pv-move")
    ActionChains(page.d).move_to_element(line[-1]).perform()


def scene_tzaar_turn(page: Page) -> None:
    page.open("tzaar-fixed")
    page.humans()
    page.js("document.getElementById('analysis-on').checked && document.getElementById('analysis-on').click()")
    page.click("D6")
    page.click("E7")
    page.wait(lambda d: page.moves() == 1, "White's turn")
    page.click("A1")
    page.click("B1")
    page.wait(lambda d: page.js("return Boolean(ui.preview)"), "the board after the first action")


def scene_pass(page: Page) -> None:
    page.open("dvonn")
    page.el("auto-pass").click()
    page.js("document.body.dataset.passMs = '600000'")
    page.set_position(STUCK_WHITE)
    page.wait(lambda d: "passing in a moment" in page.el("hint").text, "the notice of the pass")


def scene_review(page: Page) -> None:
    page.open("dvonn")
    page.load(dvonn_64(page))
    amount = page.el("review-amount")
    amount.clear()
    amount.send_keys("2")
    page.el("review-start").click()
    page.wait(lambda d: len(d.find_elements(page.by.CSS_SELECTOR, ".review-move")) == page.moves(), "the review",
              REVIEW_WAIT_S)
    page.after(lambda: page.d.find_element(page.by.CSS_SELECTOR, '.review-move[data-ply="10"]').click(),
               "the position after move 10")
    # the click scrolled the table into view: a taller window shows the board and the review whole
    page.d.set_window_size(WIDTH, 1300)
    page.js("window.scrollTo(0, 0)")


def scene_navigation(page: Page) -> None:
    page.open("dvonn")
    page.load(dvonn_64(page))
    page.after(lambda: page.d.find_element(page.by.CSS_SELECTOR, '#moves .move[data-ply="40"]').click(),
               "the position after move 40")
    target = page.js("return [...document.querySelectorAll('#board .point.target')][0].dataset.point")
    page.click(target)
    page.wait(lambda d: page.el("cut-dialog").is_displayed(), "the question before a cut")


def scene_engine_view(page: Page) -> None:
    page.open("tzaar-fixed")
    page.humans()
    page.click("D6")
    page.click("E7")
    page.wait(lambda d: page.moves() == 1, "White's turn")
    page.analysis()
    page.wait(lambda d: page.js("return document.getElementById('best-layer').dataset.move"), "the best move")


def scene_hint(page: Page) -> None:
    page.open("dvonn")
    page.load(dvonn_64(page))
    page.el("hint-button").click()
    page.wait(lambda d: page.js("return Boolean(ui.hint)"), "the hint")


def scene_clocks(page: Page) -> None:
    page.open("dvonn")
    page.set_time("game", 300000)
    page.click("D3")
    page.wait(lambda d: page.moves() == 2, "the engine's answer")


def scene_editor(page: Page) -> None:
    page.open("dvonn")
    page.set_position(STUCK_WHITE)
    page.el("edit").click()
    page.js("document.querySelector('input[name=\"editor-piece\"][value=\"B\"]').click()")
    for point in ("C3", "C3", "E4", "F2"):
        page.click(point)


def scene_narrow(page: Page) -> None:
    page.open("tzaar-fixed", width=360)
    page.click("D6")
    page.click("E7")
    page.wait(lambda d: page.moves() == 2, "the engine's answer")
    page.d.set_window_size(360, 1400)


SCENES: dict[str, Callable[[Page], None]] = {
    "gui-start.png": scene_start, "gui-dvonn.png": scene_dvonn, "gui-tzaar.png": scene_tzaar,
    "gui-tzaar-turn.png": scene_tzaar_turn, "gui-pass.png": scene_pass,
    "gui-review.png": scene_review, "gui-navigation.png": scene_navigation,
    "gui-engine-view.png": scene_engine_view, "gui-hint.png": scene_hint,
    "gui-clocks.png": scene_clocks, "gui-editor.png": scene_editor, "gui-narrow.png": scene_narrow,
}


def start_browser(chromium: Optional[str], chromedriver: Optional[str]) -> Any:
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        raise ToolError("selenium is not installed: pip install 'gipf-engine[screenshots]'") from None
    binary = chromium or shutil.which("chromium") or shutil.which("chromium-browser")
    driver = chromedriver or shutil.which("chromedriver")
    if not (binary and driver):
        raise ToolError("no chromium and chromedriver found: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                f"--window-size={WIDTH},{HEIGHT}", "--hide-scrollbars"):
        options.add_argument(arg)
    try:
        return webdriver.Chrome(service=Service(driver), options=options)
    except Exception as e:  # noqa: BLE001 - selenium's own errors: one line
        raise ToolError(f"cannot start {binary}: {str(e).splitlines()[0]}") from None


def run(args: Any) -> int:
    out = Path(args.out)
    if not out.is_dir():
        raise ToolError(f"{out} is not a folder")
    names = args.only or list(SCENES)
    server = subprocess.Popen([sys.executable, "-m", "engine.gui", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None, "a pipe"
        line = server.stdout.readline()
        if "http://127.0.0.1:" not in line:
            raise ToolError("the GUI server did not start (is the gui extra installed?)")
        driver = start_browser(args.chromium, args.chromedriver)
        from selenium.common.exceptions import WebDriverException
        try:
            with tempfile.TemporaryDirectory(prefix="gipf-screenshots-") as work:
                page = Page(driver, line.split()[3], Path(work))
                for name in names:
                    try:
                        SCENES[name](page)
                    except WebDriverException as e:
                        raise ToolError(f"{name}: {e.msg or type(e).__name__}") from None
                    print(page.save(out, name), flush=True)
        finally:
            driver.quit()
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    return cli.guarded(_main, argv, "gipf-screenshots")


def _main(argv: Optional[Sequence[str]]) -> int:
    parser = cli.parser("screenshots", __doc__)
    parser.add_argument("--out", default="docs", help="the folder for the pictures (default docs)")
    parser.add_argument("--only", nargs="+", choices=list(SCENES), metavar="NAME",
                        help="only these pictures (default all: " + ", ".join(SCENES) + ")")
    parser.add_argument("--chromium", help="the browser (default: chromium on the PATH)")
    parser.add_argument("--chromedriver", help="its driver (default: chromedriver on the PATH)")
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
