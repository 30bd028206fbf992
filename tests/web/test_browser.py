"""The explorer's page in a real browser: headless Chromium (Debian's ``chromium`` and ``chromium-driver``)
driven by selenium against the explorer server on an ephemeral loopback port.

Without the browser the tests are skipped with the reason, except under CI (``$CI`` set), where
``.ci/run`` installs it and a missing browser fails them.
"""

from __future__ import annotations

import json
import os
import re
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, quote, urlencode, urlsplit
from urllib.request import urlopen

import pytest

from solver.necnon.model.rules import Game as NecnonGame
from solver.necnon.tables.build import build_table as build_necnon_table
from solver.necnon.tables.table import table_path as necnon_table_path
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.position import Position
from solver.neutreeko.playing.record import parse_record, read_variations
from solver.neutreeko.solving.solve import solve
from solver.neutreeko.tables.table import table_path, write_table
from tests.helpers import LONGEST, START, invoke

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def _missing() -> str | None:
    """Why the browser cannot run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not path.is_file():
            return f"no {path} (apt-get install -y chromium chromium-driver)"
    return None


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """A headless Chromium with a fresh profile, nothing fetched from the network."""
    reason = _missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests: {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--no-first-run", "--window-size=1400,1000",
                     f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def wide_url(serve_tables, tmp_path_factory) -> str:
    """The address of an explorer server reading the tables of 10 x 3 and 3 x 10 (a few seconds each)."""
    directory = tmp_path_factory.mktemp("tables-10x3")
    for board in ("10x3", "3x10"):
        game = Game.of(board)
        solved = solve(game)
        write_table(game, solved.result, directory / table_path(game).name, solved.seconds)
    return serve_tables(directory)


@contextmanager
def viewport(driver, width: int, height: int, mobile: bool = False):
    """The page laid out, for the block, on a screen of ``width`` x ``height`` CSS pixels (a phone's if
    ``mobile``: the page's viewport tag is honoured)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@contextmanager
def media(driver, **features: str):
    """The page shown, for the block, as under the media ``features`` (``prefers_color_scheme="dark"``)."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": name.replace("_", "-"), "value": value} for name, value in features.items()]})
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def wait_until(driver, condition, message: str):
    """The first true value of ``condition()`` within 10 s; fails with ``message`` otherwise."""
    from selenium.webdriver.support.wait import WebDriverWait

    return WebDriverWait(driver, 10, poll_frequency=0.05).until(lambda _: condition(), message)


def text_of(driver, element_id: str) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, element_id).text


def query_of(driver) -> dict[str, list[str]]:
    return parse_qs(urlsplit(driver.current_url).query)


def square(driver, name: str):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f'#board rect.square[data-square="{name}"]')


def box(driver, selector: str) -> dict[str, float]:
    """The box of the element ``selector`` finds, in the viewport, CSS pixels: top, bottom, left, right,
    width, height."""
    return driver.execute_script("return document.querySelector(arguments[0]).getBoundingClientRect().toJSON()",
                                 selector)


def test_click_a_move_go_back_and_paste_a_position(browser, explorer_url, tmp_path):
    """Open the start, click B1 then C1: the game and the URL have the move; the browser's back button
    brings the start back; pasting the 51-ply position shows its value."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(explorer_url)
    wait_until(browser, lambda: "Black to move" in text_of(browser, "status") and "draw" in text_of(browser, "status"),
               "the start position is shown")
    assert query_of(browser) == {"board": ["5x5"], "rule": ["connected"]}
    start_moves = text_of(browser, "moves")
    assert "B1-C1" in start_moves and "B1-B4" in start_moves

    square(browser, "B1").click()
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .dot")) == 4  # B1's four targets highlighted
    square(browser, "C1").click()
    wait_until(browser, lambda: "B1-C1" in text_of(browser, "game"), "the move list has B1-C1")
    assert query_of(browser)["moves"] == ["B1-C1"]
    assert "White to move" in text_of(browser, "status")
    assert text_of(browser, "moves") != start_moves and "White's" in text_of(browser, "moves-caption")

    browser.back()
    wait_until(browser, lambda: "B1-C1" not in text_of(browser, "game"), "the start is shown again")
    assert "moves" not in query_of(browser)
    assert "Black to move" in text_of(browser, "status") and text_of(browser, "moves") == start_moves

    field = browser.find_element(By.ID, "paste-input")
    field.send_keys(LONGEST, Keys.ENTER)
    wait_until(browser, lambda: "win in 51" in text_of(browser, "status"), "the 51-ply position is shown")
    assert query_of(browser)["start"] == [LONGEST]
    screenshot = tmp_path / "explorer.png"
    assert browser.save_screenshot(str(screenshot))
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and screenshot.stat().st_size > 10_000


def test_marks_drag_perfect_reply_line_and_keys(browser, explorer_url):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(explorer_url + "?moves=C4-C3")
    wait_until(browser, lambda: "C4-C3" in text_of(browser, "game"), "the game from the link is shown")
    played = browser.find_element(By.CSS_SELECTOR, '#game .ply[data-ply="1"]')
    assert played.find_element(By.CSS_SELECTOR, ".mark.mistake").text == "?"  # a draw thrown to a loss
    assert "better B1-C1, D1-C1: draw" in played.get_attribute("title")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#chart .point")) == 2

    origin, target = square(browser, "B5").rect, square(browser, "B2").rect  # the board is redrawn on the way
    ActionChains(browser).click_and_hold(square(browser, "B5")).move_by_offset(0, 20) \
        .move_by_offset(target["x"] - origin["x"], target["y"] - origin["y"] - 20).release().perform()
    wait_until(browser, lambda: "B5-B2" in text_of(browser, "game"), "the dragged move is played")
    assert query_of(browser)["moves"] == ["C4-C3 B5-B2"]
    assert "loss in 2" in text_of(browser, "status")

    browser.find_element(By.ID, "reply-toggle").click()
    browser.find_element(By.CSS_SELECTOR, "#moves .move.best").click()
    wait_until(browser, lambda: "White has won" in text_of(browser, "status"), "the table replies and wins")
    assert len(query_of(browser)["moves"][0].split()) == 4
    assert browser.find_element(By.ID, "line-button").get_attribute("disabled") is not None

    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    wait_until(browser, lambda: "ply 0 of 4" in text_of(browser, "status"), "Home goes to the start")
    body.send_keys(Keys.ARROW_RIGHT)
    assert "ply 1 of 4" in text_of(browser, "status") and query_of(browser)["ply"] == ["1"]

    browser.find_element(By.ID, "reply-toggle").click()
    browser.find_element(By.ID, "line-button").click()  # from ply 1: White to move wins in 3
    wait_until(browser, lambda: "ply 1 of 4" in text_of(browser, "status") and "perfect line" in text_of(browser, "message"),
               "the perfect line replaces the rest of the game")
    assert "3 plies, white wins" in text_of(browser, "message")
    body.send_keys(Keys.END)
    assert "White has won" in text_of(browser, "status")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#chart .point")) == 5

    field = browser.find_element(By.ID, "paste-input")  # a game record, pasted: several lines
    browser.execute_script("arguments[0].value = arguments[1]", field,
                           '[Board "5x5"]\n[White "someone"]\n\n1. B1-C1 C2-C3 2. C1-A3 B5-A4')
    field.send_keys(Keys.END, Keys.ENTER)
    wait_until(browser, lambda: "B5-A4" in text_of(browser, "game"), "the record is loaded")
    assert query_of(browser)["moves"] == ["B1-C1 C2-C3 C1-A3 B5-A4"] and "start" not in query_of(browser)
    assert browser.find_element(By.CSS_SELECTOR, '#game .ply[data-ply="4"] .mark').text == "?"  # a draw lost


# -- every board ----------------------------------------------------------------------------------------

def test_every_board_names_labels_and_plays_all_its_squares(browser, wide_url):
    """On 10 x 3, the widest board, the files run A to J: every square named and labelled, the pieces on
    I3 and J3 drawn and moved by clicks; the labels keep their size; 3 x 10, as tall as 10 x 3 is wide,
    fits the window."""
    from selenium.webdriver.common.by import By

    browser.get(wide_url + "?board=10x3")
    wait_until(browser, lambda: "Black to move" in text_of(browser, "status"), "the 10x3 start is shown")
    names = {rect.get_attribute("data-square") for rect in browser.find_elements(By.CSS_SELECTOR, "#board rect.square")}
    assert names == {f"{file}{rank}" for file in "ABCDEFGHIJ" for rank in (1, 2, 3)}
    labels = browser.find_elements(By.CSS_SELECTOR, "#board .label")
    assert [label.get_attribute("textContent") for label in labels] == [*"ABCDEFGHIJ", "1", "2", "3"]
    assert min(label.rect["height"] for label in labels) >= 12  # as legible as on 5 x 5
    pieces = browser.find_elements(By.CSS_SELECTOR, "#board circle.piece")
    assert sorted(piece.get_attribute("data-square") for piece in pieces) == ["A1", "B1", "C1", "H3", "I3", "J3"]

    square(browser, "I3").click()
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .dot")) == 3  # I3-G1, I3-J2, I3-I1
    square(browser, "J2").click()
    wait_until(browser, lambda: "I3-J2" in text_of(browser, "game"), "I3-J2 is played by clicks")
    reply = browser.find_element(By.CSS_SELECTOR, '#moves .move[data-move^="J3-"]').get_attribute("data-move")
    for name in reply.split("-"):
        square(browser, name).click()
    wait_until(browser, lambda: reply in text_of(browser, "game"), "White's piece on J3 is moved by clicks")
    assert query_of(browser)["moves"] == [f"I3-J2 {reply}"]

    browser.get(wide_url + "?board=3x10")
    wait_until(browser, lambda: "Black to move" in text_of(browser, "status"), "the 3x10 start is shown")
    assert box(browser, "#first")["bottom"] <= browser.execute_script("return innerHeight")  # board and buttons
    corner = square(browser, "A1").rect
    assert abs(corner["width"] - corner["height"]) < 0.5 and corner["width"] >= 40
    assert min(label.rect["height"] for label in browser.find_elements(By.CSS_SELECTOR, "#board .label")) >= 12


# -- layout: a move never scrolls the window ------------------------------------------------------------

def perfect_line(url: str, position: str) -> list[str]:
    """The moves of the perfect line from ``position``, as the server at ``url`` gives it."""
    with urlopen(f"{url}api/line?position={quote(position)}") as answer:
        return [step["move"] for step in json.load(answer)["moves"]]


@pytest.mark.parametrize("width, height, mobile", [(390, 844, True), (1024, 768, False)], ids=["phone", "desktop"])
def test_a_move_never_scrolls_the_window(browser, explorer_url, width, height, mobile):
    """A shared link of 30 plies opens with the board and the step buttons in view and its last move shown
    inside the game list; five moves on the board and a message move neither the window nor the board."""
    from selenium.webdriver.common.by import By

    moves = perfect_line(explorer_url, LONGEST)[:30]
    with viewport(browser, width, height, mobile):
        browser.get(explorer_url + "?" + urlencode({"start": LONGEST, "moves": " ".join(moves)}))
        wait_until(browser, lambda: "ply 30 of 30" in text_of(browser, "status"), "the link is shown")
        assert browser.execute_script("return scrollY") == 0
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width  # nothing sideways
        board = box(browser, "#board")
        assert board["top"] >= 0 and box(browser, "#first")["bottom"] <= height
        game, played = box(browser, "#game"), box(browser, "#game .ply.current")
        assert browser.execute_script("return document.getElementById('game').scrollTop") > 0
        assert game["top"] <= played["top"] and played["bottom"] <= game["bottom"] + 0.5

        for ply in range(31, 36):
            move = browser.find_element(By.CSS_SELECTOR, "#moves .move").get_attribute("data-move")
            for name in move.split("-"):
                square(browser, name).click()
            wait_until(browser, lambda: f"ply {ply} of {ply}" in text_of(browser, "status"), f"move {ply} is played")
            assert browser.execute_script("return scrollY") == 0 and box(browser, "#board") == board

        # Clicked where it is: on a phone it is below the moves, and the driver would scroll to it first.
        browser.execute_script("document.getElementById('line-button').click()")
        wait_until(browser, lambda: "perfect line" in text_of(browser, "message"), "the line's note is shown")
        assert browser.execute_script("return scrollY") == 0 and box(browser, "#board") == board
        assert box(browser, "#first")["bottom"] <= height


SMALL_TARGETS_JS = """
const small = [];
for (const element of document.querySelectorAll("button, select, textarea, a[href], input, .toggle")) {
  if (!element.checkVisibility({visibilityProperty: true}) || element.closest(".toggle") && element.tagName === "INPUT") continue;
  const {width, height} = element.getBoundingClientRect();
  if (width < 44 || height < 44) small.push(`${element.id || element.className || element.tagName} ` +
                                            `${(element.textContent || "").trim().slice(0, 20)}: ${width} x ${height}`);
}
return small;
"""


def small_targets(driver) -> list[str]:
    """Every visible control (a checkbox by its label) smaller than 44 x 44 CSS pixels."""
    return driver.execute_script(SMALL_TARGETS_JS)


@pytest.mark.parametrize("page, ready, first", [
    ("", "ply 0 of 0", "#moves .move"),
    ("necnon", "turn 0 of 0", "#turns .move"),
], ids=["neutreeko", "necnon"])
def test_on_a_phone_the_board_and_the_first_moves_are_on_the_first_screen(browser, both_url, page, ready, first):
    """At 390 x 844 the bar is one row (its controls in a menu), the board and the first choice of the list
    are on the first screen, nothing scrolls sideways, no blank band waits for a message, and every control,
    the menu's too, is at least 44 x 44 px."""
    from selenium.webdriver.common.by import By

    with viewport(browser, 390, 844, mobile=True):
        browser.get(both_url + page)
        wait_until(browser, lambda: ready in text_of(browser, "status"), "the page is shown")
        assert box(browser, ".bar")["height"] <= 60
        assert box(browser, "#board")["top"] >= 0 and box(browser, first)["bottom"] <= 844
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
        assert box(browser, "#message")["height"] == 0, text_of(browser, "message")
        assert not small_targets(browser), small_targets(browser)
        browser.find_element(By.ID, "menu-toggle").click()
        assert browser.find_element(By.ID, "board-select").is_displayed()
        assert browser.find_element(By.ID, "menu-toggle").get_attribute("aria-expanded") == "true"
        assert not small_targets(browser), small_targets(browser)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("page, rules, guide", [
    ("", "solver/neutreeko/web/static/rules.md", "docs/guide/notation.md"),
    ("necnon", "solver/necnon/web/static/rules.md", "docs/guide/necnon.md"),
], ids=["neutreeko", "necnon"])
def test_the_rules_are_one_click_away_from_the_documentation_s_text(browser, both_url, page, rules, guide):
    """The bar's Rules button opens the game's rules and notation over the page: the text of the file the
    user guide includes (one source), its code and bold kept; Escape closes it. On a phone too."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    root = Path(__file__).resolve().parents[2]
    source = (root / rules).read_text()
    assert f"```{{include}} ../../{rules}\n```" in (root / guide).read_text()
    first = re.sub(r"[*`]", "", source).split("How to play. ", 1)[1].split(",")[0]  # its first words, as shown
    for size in ((1400, 900, False), (390, 844, True)):
        with viewport(browser, *size):
            browser.get(both_url + page)
            wait_until(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#board > *"), "the page is shown")
            browser.find_element(By.ID, "rules-button").click()
            dialog = browser.find_element(By.ID, "rules")
            wait_until(browser, lambda: dialog.is_displayed() and first in text_of(browser, "rules-text"), "the rules are shown")
            shown = browser.find_element(By.ID, "rules-text")
            assert shown.find_element(By.CSS_SELECTOR, "strong").text == "How to play."
            assert len(shown.find_elements(By.CSS_SELECTOR, "code")) == (source.count("`") - 3 * source.count("```")) // 2
            assert browser.execute_script("return document.documentElement.scrollWidth") <= size[0]
            browser.switch_to.active_element.send_keys(Keys.ESCAPE)
            wait_until(browser, lambda: not dialog.is_displayed(), "Escape closes the rules")


def test_the_position_editor_refuses_an_illegal_position_and_explores_a_legal_one(browser, explorer_url, tables_env):
    """Edit position: a click puts the piece chosen, a key puts one under the cursor, a drag moves one;
    each change is checked at once, an illegal position refused with the command line's own message, a
    legal one explored; the URL holds the position set up, and a link to it opens the editor."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.select import Select

    def verdict() -> str:
        return text_of(browser, "editor-verdict")

    def put(kind: str, *names: str) -> None:
        browser.find_element(By.CSS_SELECTOR, f'input[name="put"][value="{kind}"]').click()
        for name in names:
            square(browser, name).click()

    browser.get(explorer_url)
    wait_until(browser, lambda: "ply 0 of 0" in text_of(browser, "status"), "the start is shown")
    browser.find_element(By.ID, "edit-button").click()
    wait_until(browser, lambda: "A legal position: Black to move, draw" in verdict(), "the start is checked")
    assert query_of(browser)["edit"] == [START] and not browser.find_element(By.ID, "first").is_displayed()
    browser.find_element(By.ID, "editor-clear").click()
    put("black", "A1", "B1", "C1")
    put("white", "A5", "E5", "E1")
    illegal = "w3w/5/5/5/bbb1w b"
    wait_until(browser, lambda: "Not a legal position" in verdict(), "three in a row for the side to move is refused")
    printed = invoke("query", illegal)
    assert printed.exit_code == 2 and printed.stderr.strip().split("error: ", 1)[1] in verdict()
    assert not browser.find_element(By.ID, "editor-explore").is_enabled() and query_of(browser)["edit"] == [illegal]
    put("black", "B1", "C1")  # a second click empties a square
    board = browser.find_element(By.ID, "board")
    browser.execute_script("arguments[0].focus()", board)
    board.send_keys(Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, "b")  # C4
    put("black", "B2")
    ActionChains(browser).drag_and_drop(square(browser, "A1"), square(browser, "D1")).perform()
    Select(browser.find_element(By.ID, "editor-side")).select_by_value("w")
    legal = "w3w/2b2/5/1b3/3bw w"
    wait_until(browser, lambda: "A legal position: White to move, win in 5" in verdict(), "the position set up is legal")
    assert query_of(browser)["edit"] == [legal]
    browser.find_element(By.ID, "editor-explore").click()
    wait_until(browser, lambda: "White to move" in text_of(browser, "status") and text_of(browser, "fen") == legal,
               "the position is explored")
    assert query_of(browser)["start"] == [legal] and not browser.find_element(By.ID, "editor").is_displayed()
    browser.get(explorer_url + "?" + urlencode({"board": "5x5", "edit": illegal}))
    wait_until(browser, lambda: "Not a legal position" in verdict(), "a link opens the editor on its position")


def test_while_the_editor_is_open_nothing_of_the_view_left_is_offered(browser, explorer_url):
    """The editor open: the moves panel says the moves show once the position is explored and holds none
    of the view left, the tools are hidden and the game takes no click; Cancel brings them all back."""
    from selenium.webdriver.common.by import By

    inert = "return document.querySelector('.game-panel').inert"
    browser.get(explorer_url + "?moves=B1-C1")
    wait_until(browser, lambda: "ply 1 of 1" in text_of(browser, "status"), "the game is shown")
    browser.find_element(By.ID, "edit-button").click()
    wait_until(browser, lambda: browser.find_element(By.ID, "editor").is_displayed(), "the editor is open")
    assert browser.execute_script("return document.activeElement.closest('#editor') !== null")
    assert text_of(browser, "moves") == "Editing: the moves show once you explore the position."
    assert not text_of(browser, "moves-caption") and not browser.find_elements(By.CSS_SELECTOR, "#moves button")
    assert not browser.find_element(By.CSS_SELECTOR, ".tools-panel").is_displayed() and browser.execute_script(inert)
    browser.find_element(By.ID, "editor-cancel").click()
    wait_until(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#moves button.move"), "Cancel shows the moves")
    assert browser.find_element(By.ID, "edit-button").is_displayed() and not browser.execute_script(inert)
    assert query_of(browser)["moves"] == ["B1-C1"] and "ply 1 of 1" in text_of(browser, "status")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_editor_and_the_rules_meet_the_aa_contrast(browser, explorer_url, scheme):
    """The editor open (its refusal, then its verdict on a legal position) and the rules open: every text
    has the AA contrast, in both schemes."""
    from selenium.webdriver.common.by import By

    with media(browser, prefers_color_scheme=scheme):
        browser.get(explorer_url + "?" + urlencode({"board": "5x5", "edit": "5/5/5/5/5 b"}))
        wait_until(browser, lambda: "Not a legal position" in text_of(browser, "editor-verdict"), "the refusal is shown")
        failures = contrast_failures(browser)
        assert not failures, "with the editor's refusal:\n" + "\n".join(failures)
        browser.find_element(By.ID, "editor-start").click()
        wait_until(browser, lambda: "A legal position" in text_of(browser, "editor-verdict"), "the verdict is shown")
        failures = contrast_failures(browser)
        assert not failures, "with the editor's verdict:\n" + "\n".join(failures)
        browser.find_element(By.ID, "rules-button").click()
        wait_until(browser, lambda: browser.find_element(By.ID, "rules").is_displayed(), "the rules are shown")
        failures = contrast_failures(browser)
        assert not failures, "with the rules:\n" + "\n".join(failures)


def test_on_a_desktop_statistics_open_beside_the_board(browser, explorer_url):
    """At 1400 x 900 the board and its step buttons stay where they were when Statistics opens (in the
    widest column, under the game), and the page does not grow below the board for it."""
    with viewport(browser, 1400, 900):
        browser.get(explorer_url)
        wait_until(browser, lambda: "ply 0 of 0" in text_of(browser, "status"), "the start is shown")
        board, steps = box(browser, "#board"), box(browser, "#first")
        assert steps["bottom"] <= 900 and box(browser, "#message")["height"] == 0
        open_stats(browser)
        assert box(browser, "#board") == board and box(browser, "#first") == steps
        stats, game = box(browser, ".stats-section"), box(browser, ".game-panel")
        assert stats["left"] == game["left"] and stats["top"] > game["bottom"] and stats["left"] > board["right"]


# -- keyboard focus -------------------------------------------------------------------------------------

def test_keyboard_focus_stays_where_play_continues(browser, explorer_url):
    """Enter on a move plays it and leaves the focus on the first move of the new list, drawn with a ring
    of 3:1 against the button and the panel; Enter on a move of the game leaves it on that move."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(explorer_url)
    wait_until(browser, lambda: "ply 0 of 0" in text_of(browser, "status"), "the start is shown")
    browser.execute_script("document.querySelector('#moves .move').focus()")
    for ply in (1, 2):
        ActionChains(browser).send_keys(Keys.ENTER).perform()
        wait_until(browser, lambda: f"ply {ply} of {ply}" in text_of(browser, "status"), f"Enter plays move {ply}")
        focused = browser.switch_to.active_element
        assert focused == browser.find_element(By.CSS_SELECTOR, "#moves .move")
    ring = browser.execute_script(FOCUS_RING_JS)
    assert ring["visible"] and ring["style"] != "none" and ring["width"] >= 2, ring
    for background in ring["backgrounds"]:
        assert contrast(colour(ring["colour"]), composite(background)) >= 3, ring

    browser.execute_script("document.querySelector('#game .ply[data-ply=\"1\"]').focus()")
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait_until(browser, lambda: "ply 1 of 2" in text_of(browser, "status"), "Enter goes to the game's move")
    assert browser.switch_to.active_element == browser.find_element(By.CSS_SELECTOR, '#game .ply.current[data-ply="1"]')


def cursor_of(driver) -> str:
    """The square of the board's keyboard cursor, as the board's accessible name says it."""
    from selenium.webdriver.common.by import By

    return re.search(r"the cursor on ([A-I][1-9])", driver.find_element(By.ID, "board").get_attribute("aria-label"))[1]


def press(driver, *keys: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    if keys:
        ActionChains(driver).send_keys(*keys).perform()


def walk(driver, to: str, flipped: bool) -> None:
    """The board's cursor moved to the square ``to`` with the arrow keys: right and up go towards the
    H file and the 9th rank, on a flipped board away from them."""
    from selenium.webdriver.common.keys import Keys

    here = cursor_of(driver)
    across, up = ord(to[0]) - ord(here[0]), int(to[1:]) - int(here[1:])
    if flipped:
        across, up = -across, -up
    press(driver, *[Keys.ARROW_RIGHT if across > 0 else Keys.ARROW_LEFT] * abs(across),
          *[Keys.ARROW_UP if up > 0 else Keys.ARROW_DOWN] * abs(up))
    assert cursor_of(driver) == to


def test_a_game_played_with_keys_only(browser, explorer_url):
    """Tab reaches the board; its cursor, drawn at 3:1 against both squares, goes over the squares with
    the arrows; Enter or Space picks a piece up (its targets' dots saying their values in letters),
    Escape puts it down, and on a target plays the move, the focus staying on the board; f flips the
    board, and the arrows follow; ? lists the keys, and Escape closes the list."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(explorer_url)
    wait_until(browser, lambda: "ply 0 of 0" in text_of(browser, "status"), "the start is shown")
    board = browser.find_element(By.ID, "board")
    for _ in range(10):
        if browser.switch_to.active_element == board:
            break
        press(browser, Keys.TAB)
    assert browser.switch_to.active_element == board and board.get_attribute("tabindex") == "0"
    assert board.get_attribute("aria-label").startswith("Board ") and cursor_of(browser)
    ring = browser.execute_script("""const style = getComputedStyle(document.querySelector('#board .cursor'));
        return {display: style.display, stroke: style.stroke, squares: [...document.querySelectorAll(
                '#board .square.light, #board .square.dark')].map(square => getComputedStyle(square).fill)};""")
    assert ring["display"] != "none"
    assert min(contrast(colour(ring["stroke"]), colour(fill)) for fill in ring["squares"]) >= 3, ring

    flipped = False
    for ply in range(1, 5):
        if ply == 3:
            corner, across = square(browser, "A1").rect, square(browser, "E5").rect
            assert corner["x"] < across["x"] and corner["y"] > across["y"]
            press(browser, "f")
            flipped = True
            corner, across = square(browser, "A1").rect, square(browser, "E5").rect
            assert corner["x"] > across["x"] and corner["y"] < across["y"]  # A1 at the top right
        move = browser.find_element(By.CSS_SELECTOR, "#moves .move").get_attribute("data-move")
        origin, target = move.split("-")
        walk(browser, origin, flipped)
        press(browser, Keys.ENTER)
        if ply == 1:
            assert browser.find_elements(By.CSS_SELECTOR, "#board .selected")
            press(browser, Keys.ESCAPE)
            assert not browser.find_elements(By.CSS_SELECTOR, "#board .selected")
            press(browser, Keys.ENTER)
        values = {button.get_attribute("data-move").split("-")[1]: button.find_element(By.CSS_SELECTOR, ".pill").text
                  for button in browser.find_elements(By.CSS_SELECTOR, f'#moves .move[data-move^="{origin}-"]')}
        dots = [dot.text for dot in browser.find_elements(By.CSS_SELECTOR, "#board .dot text")]
        assert sorted(dots) == sorted(value[0].upper() + value.split()[-1] * (value != "draw")
                                      for value in values.values()) and all(dots)
        walk(browser, target, flipped)
        press(browser, Keys.SPACE if ply % 2 else Keys.ENTER)
        wait_until(browser, lambda: f"ply {ply} of {ply}" in text_of(browser, "status"), f"move {ply} is played by keys")
        assert browser.switch_to.active_element == board and move in text_of(browser, "game")
    assert len(query_of(browser)["moves"][0].split()) == 4

    press(browser, "?")
    keys = browser.find_element(By.ID, "keys")
    assert keys.get_attribute("open") is not None and "flip the board" in keys.text
    press(browser, Keys.ESCAPE)
    assert keys.get_attribute("open") is None and browser.switch_to.active_element == board


#: The focused element's outline, and the backgrounds it is seen against: its own and its parent's.
FOCUS_RING_JS = """
const focused = document.activeElement, style = getComputedStyle(focused);
const layers = node => { const colours = []; for (; node; node = node.parentElement) colours.push(getComputedStyle(node).backgroundColor); return colours; };
return {style: style.outlineStyle, width: parseFloat(style.outlineWidth), colour: style.outlineColor,
        visible: focused.matches(":focus-visible"), backgrounds: [layers(focused), layers(focused.parentElement)]};
"""


# -- contrast -------------------------------------------------------------------------------------------

#: Every visible text of the page (own text, ::before content, a select's choice, a placeholder), with
#: its colour (the fill of SVG text), its size on the screen, its weight, the background colours from its
#: element up to the page and the product of their opacities. Disabled controls are left out (WCAG
#: exempts them), and so are shapes behind an SVG text (the chart's rows: its labels are in full ink),
#: but for the dot behind a target's letters and the NECNON cell behind a value or a name.
TEXTS_JS = """
const texts = [];
const add = (element, text, style) => {
  const svg = element instanceof SVGElement;
  const backgrounds = []; let opacity = 1;
  const dot = element.closest(".dot");  // a target's letters, on its dot
  if (dot) backgrounds.push(getComputedStyle(dot.querySelector("circle")).fill);
  const cell = element.closest("#board .cell");  // a NECNON cell's value or name, on the cell
  if (cell) backgrounds.push(getComputedStyle(cell.querySelector(".outline")).fill);
  for (let node = element; node; node = node.parentElement) {
    const layer = getComputedStyle(node);
    backgrounds.push(layer.backgroundColor);
    opacity *= Number(layer.opacity);
  }
  texts.push({text: text.slice(0, 40), where: `${element.tagName.toLowerCase()}.${element.getAttribute("class") || ""}`,
              colour: svg ? style.fill : style.color, size: parseFloat(style.fontSize) * (svg ? element.getScreenCTM().a : 1),
              weight: Number(style.fontWeight), backgrounds, opacity});
};
for (const element of document.body.querySelectorAll("*")) {
  if (!element.checkVisibility({visibilityProperty: true}) || !element.getClientRects().length || element.closest(":disabled")) continue;
  const own = [...element.childNodes].filter(node => node.nodeType === Node.TEXT_NODE).map(node => node.data).join("").trim();
  if (own) add(element, own, getComputedStyle(element));
  const before = getComputedStyle(element, "::before");
  if (!["none", "normal", '""'].includes(before.content)) add(element, before.content, before);
  if (element.tagName === "SELECT" && element.selectedOptions.length) add(element, element.selectedOptions[0].text, getComputedStyle(element));
  if (element.placeholder && !element.value) add(element, element.placeholder, getComputedStyle(element, "::placeholder"));
}
return texts;
"""

_COLOUR = re.compile(r"(rgba?|color)\((?:srgb )?([^)]*)\)")


def colour(text: str) -> tuple[float, float, float, float]:
    """A computed CSS colour (``rgb(r, g, b)``, ``rgba(r, g, b, a)`` or ``color(srgb r g b / a)``) as red,
    green and blue from 0 to 1, and alpha."""
    kind, body = _COLOUR.fullmatch(text).groups()
    numbers = [float(number) for number in re.split(r"[\s,/]+", body.strip())]
    red, green, blue = numbers[:3] if kind == "color" else [number / 255 for number in numbers[:3]]
    return red, green, blue, numbers[3] if len(numbers) > 3 else 1.0


def over(top: tuple[float, ...], bottom: tuple[float, ...]) -> tuple[float, float, float, float]:
    """``top`` painted over the opaque ``bottom``."""
    alpha = top[3]
    red, green, blue = (alpha * upper + (1 - alpha) * lower for upper, lower in zip(top[:3], bottom[:3]))
    return red, green, blue, 1.0


def composite(backgrounds: list[str]) -> tuple[float, float, float, float]:
    """The colour seen through the layers ``backgrounds`` (the nearest first) down to the first opaque
    one, or to the white canvas."""
    layers = []
    for text in backgrounds:
        layers.append(colour(text))
        if layers[-1][3] == 1:
            break
    else:
        layers.append((1.0, 1.0, 1.0, 1.0))
    seen = layers.pop()
    for layer in reversed(layers):
        seen = over(layer, seen)
    return seen


def contrast(first: tuple[float, ...], second: tuple[float, ...]) -> float:
    """The WCAG contrast ratio of two opaque colours, from 1 to 21."""
    def luminance(rgb: tuple[float, ...]) -> float:
        linear = [value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4 for value in rgb[:3]]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def contrast_failures(driver) -> list[str]:
    """Every visible text of the page whose contrast falls short of WCAG AA: 4.5:1, or 3:1 for large
    text (24 px, or 18.66 px bold)."""
    failures = []
    for text in driver.execute_script(TEXTS_JS):
        background = composite(text["backgrounds"])
        red, green, blue, alpha = colour(text["colour"])
        ratio = contrast(over((red, green, blue, alpha * text["opacity"]), background), background)
        large = text["size"] >= 24 or (text["size"] >= 18.66 and text["weight"] >= 700)
        if ratio < (3 if large else 4.5):
            failures.append(f"{text['text']!r} in {text['where']}: {ratio:.2f}:1")
    return failures


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_text_meets_the_aa_contrast(browser, explorer_url, scheme):
    """Every text, in every state of a game with an inaccuracy, a mistake and a blunder (each the current
    move in turn), with an error and a note shown, a piece's targets and the list of keys, has at least
    the AA contrast, in the light scheme and in the dark one (whose page is dark)."""
    with media(browser, prefers_color_scheme=scheme):
        check_every_text(browser, explorer_url)
        paper = colour(browser.execute_script("return getComputedStyle(document.body).backgroundColor"))
        assert (contrast(paper, (0, 0, 0)) < 2) == (scheme == "dark")


# Machado, Oliveira and Fernandes (2009), severity 1: linear RGB as a dichromat sees it.
DICHROMATS = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
}


def as_seen(rgb: tuple[float, ...], matrix: tuple[tuple[float, ...], ...]) -> tuple[float, ...]:
    """The sRGB colour ``rgb`` (0 to 1) as a dichromat of ``matrix`` sees it, in sRGB."""
    linear = [value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4 for value in rgb[:3]]
    seen = [min(1.0, max(0.0, sum(weight * value for weight, value in zip(row, linear)))) for row in matrix]
    return tuple(12.92 * value if value <= 0.0031308 else 1.055 * value ** (1 / 2.4) - 0.055 for value in seen)


def apart(first: tuple[float, ...], second: tuple[float, ...]) -> float:
    """How far apart two sRGB colours are, in steps of 1/255."""
    return 255 * sum((a - b) ** 2 for a, b in zip(first, second)) ** 0.5


VALUE_COLOURS_JS = """
const seen = {pills: [], dots: [], arrows: [], links: []};
const style = (selector, property) => [...document.querySelectorAll(selector)].map(element =>
  [element.className.baseVal !== undefined ? element.className.baseVal : element.className, getComputedStyle(element)[property]]);
seen.pills = style("#moves .pill", "backgroundColor");
seen.dots = style("#board .dot", "fill");
seen.arrows = style("#board .arrow line", "stroke");
seen.links = style("#chart .link", "stroke");
seen.panel = getComputedStyle(document.querySelector(".panel")).backgroundColor;
seen.squares = style("#board .square", "fill").map(([, fill]) => fill);
return seen;
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_values_colours_are_safe_for_colour_blind_eyes_and_meet_aa(browser, explorer_url, scheme):
    """The pills' and the dots' white letters have 4.5:1 on every value's colour, the arrows 3:1 against
    every square and the chart's lines against the panel (WCAG's non-text contrast); win, draw and loss
    stay apart as a deuteranope or a protanope sees them (blue and orange, not green and red)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    white = (1.0, 1.0, 1.0, 1.0)
    with media(browser, prefers_color_scheme=scheme):
        browser.get(explorer_url + "?moves=B1-C1+D5-E5")  # Black to move: wins, a draw and losses
        wait_until(browser, lambda: "ply 2 of 2" in text_of(browser, "status"), "the game is shown")
        pills = {pill.get_attribute("class").split()[1] for pill in browser.find_elements(By.CSS_SELECTOR, "#moves .pill")}
        assert pills == {"win", "draw", "loss"}, pills
        square(browser, "D1").click()  # its targets: a win, a draw and a loss
        ActionChains(browser).move_to_element(browser.find_element(By.CSS_SELECTOR, "#moves .move")).perform()
        seen = browser.execute_script(VALUE_COLOURS_JS)
        assert seen["pills"] and seen["dots"] and seen["arrows"] and seen["links"]
        by_value = {}
        for kind in ("pills", "dots"):
            for classes, text in seen[kind]:
                assert contrast(white, colour(text)) >= 4.5, (kind, classes, text)
                by_value[classes.split()[1]] = colour(text)
        panel = colour(seen["panel"])
        for kind, against in (("arrows", [colour(fill) for fill in set(seen["squares"])]), ("links", [panel])):
            for classes, text in seen[kind]:
                assert all(contrast(colour(text), behind) >= 3 for behind in against), (kind, classes, text)
    for name, matrix in DICHROMATS.items():
        win, draw, loss = (as_seen(by_value[value], matrix) for value in ("win", "draw", "loss"))
        assert apart(win, loss) >= 150 and apart(win, draw) >= 70 and apart(loss, draw) >= 70, name


def check_every_text(browser, explorer_url):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(explorer_url + "?moves=B1-B4+C2-B1+C4-A2+A1-A9")  # the last move is refused: an error
    wait_until(browser, lambda: "ply 3 of 3" in text_of(browser, "status") and text_of(browser, "message"),
               "the game and the error are shown")
    assert [mark.text for mark in browser.find_elements(By.CSS_SELECTOR, "#game .mark")] == ["?", "??", "?!"]
    body = browser.find_element(By.TAG_NAME, "body")
    for ply in (3, 2, 1, 0):
        assert f"ply {ply} of 3" in text_of(browser, "status")
        failures = contrast_failures(browser)
        assert not failures, f"at ply {ply}:\n" + "\n".join(failures)
        body.send_keys(Keys.ARROW_LEFT)
    browser.find_element(By.ID, "line-button").click()
    wait_until(browser, lambda: "perfect line" in text_of(browser, "message"), "the line's note is shown")
    failures = contrast_failures(browser)
    assert not failures, "with the note:\n" + "\n".join(failures)
    square(browser, browser.find_element(By.CSS_SELECTOR, "#moves .move").get_attribute("data-move")[:2]).click()
    assert browser.find_elements(By.CSS_SELECTOR, "#board .dot text")
    body.send_keys("?")
    failures = contrast_failures(browser)
    assert not failures, "with a piece's targets and the list of keys:\n" + "\n".join(failures)
    body.send_keys(Keys.ESCAPE)


# -- counts, links, the chart, the settings, the messages -----------------------------------------------

def test_one_ply_is_one_ply(browser, explorer_url):
    from selenium.webdriver.common.by import By

    browser.get(explorer_url + "?moves=B1-C1")
    wait_until(browser, lambda: text_of(browser, "game-caption"), "the game's caption is shown")
    assert re.match(r"1 ply\b", text_of(browser, "game-caption"))
    browser.get(explorer_url + "?moves=C4-C3+D5-D2+B1-C1")  # White to move wins in 1
    wait_until(browser, lambda: "ply 3 of 3" in text_of(browser, "status"), "the game is shown")
    browser.find_element(By.ID, "line-button").click()
    wait_until(browser, lambda: "perfect line" in text_of(browser, "message"), "the line's note is shown")
    assert "from here: 1 ply, white wins" in text_of(browser, "message")


def test_a_link_with_a_bad_move_keeps_the_moves_before_it(browser, explorer_url):
    """The moves before the refused one are shown, the message names it, and the link stays as it was."""
    from selenium.webdriver.common.by import By

    link = explorer_url + "?board=5x5&rule=connected&moves=B1-C1+B5-A5+C4-C9+D1-D2"
    browser.get(link)
    wait_until(browser, lambda: "C4-C9" in text_of(browser, "message"), "the refused move is named")
    assert "ply 2 of 2" in text_of(browser, "status")
    assert [ply.get_attribute("data-ply") for ply in browser.find_elements(By.CSS_SELECTOR, "#game .ply")] == ["1", "2"]
    assert query_of(browser)["moves"] == ["B1-C1 B5-A5 C4-C9 D1-D2"]
    assert "Ply 3" in text_of(browser, "message")
    assert browser.current_url == link


def test_the_value_history_says_what_it_counts(browser, explorer_url):
    """The chart's head names the winner of each side and what its scale counts, the plies to the end, on
    both halves; a caption says how to read a row."""
    from selenium.webdriver.common.by import By

    browser.get(explorer_url + "?moves=C4-C3+D5-D2")
    wait_until(browser, lambda: "ply 2 of 2" in text_of(browser, "status"), "the game is shown")
    labels = [text.text for text in browser.find_elements(By.CSS_SELECTOR, "#chart-head text")]
    assert labels[:3] == ["\u25C0 Black wins", "draw", "White wins \u25B6"]
    assert labels.count("plies to the end") == 2 and labels.count("0") == 2
    assert "nearer its winner's edge the sooner it ends" in browser.find_element(By.CSS_SELECTOR, ".chart-caption").text


def test_a_click_on_the_chart_hits_the_row_under_lines_and_labels(browser, explorer_url):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    browser.get(explorer_url + "?moves=B1-B4+C2-B1+C4-A2")
    wait_until(browser, lambda: "ply 3 of 3" in text_of(browser, "status"), "the game is shown")
    hit = """const {x, y, width, height} = arguments[0].getBoundingClientRect();
             const target = document.elementFromPoint(x + width / 2, y + height / 2);
             return target.matches('#chart rect.row') ? target.dataset.ply : target.outerHTML;"""
    for cover in browser.find_elements(By.CSS_SELECTOR, "#chart .move-label, #chart .link"):
        assert browser.execute_script(hit, cover) in ("0", "1", "2", "3")
    label = browser.find_elements(By.CSS_SELECTOR, "#chart .move-label")[1]  # C2-B1, on the row of ply 1
    ActionChains(browser).move_to_element(label).click().perform()
    wait_until(browser, lambda: "ply 1 of 3" in text_of(browser, "status"), "the click goes to ply 1")


def test_the_perfect_reply_setting_is_kept(browser, explorer_url):
    from selenium.webdriver.common.by import By

    browser.get(explorer_url)
    toggle = wait_until(browser, lambda: browser.find_element(By.ID, "reply-toggle"), "the page is shown")
    assert not toggle.is_selected()
    toggle.click()
    try:
        browser.get(explorer_url)
        wait_until(browser, lambda: "ply 0 of 0" in text_of(browser, "status"), "the page is shown again")
        assert browser.find_element(By.ID, "reply-toggle").is_selected()
    finally:
        browser.execute_script("localStorage.clear()")


def test_a_missing_table_is_named_without_the_server_s_paths(browser, explorer_url, tables_5x5):
    browser.get(explorer_url + "?board=6x6")
    wait_until(browser, lambda: "no table" in text_of(browser, "message"), "the missing table is said")
    message = text_of(browser, "message")
    assert "neutreeko solve --board 6x6" in message
    assert str(tables_5x5) not in message and ".h5" not in message


# -- motion and round trips -----------------------------------------------------------------------------

def test_a_piece_slides_to_its_square_unless_motion_is_reduced(browser, explorer_url):
    """A move played by clicks starts a transition of its piece, none under prefers-reduced-motion."""
    for motion in ("no-preference", "reduce"):
        with media(browser, prefers_reduced_motion=motion):
            browser.get(explorer_url)
            wait_until(browser, lambda: "ply 0 of 0" in text_of(browser, "status"), "the start is shown")
            browser.execute_script("window.slid = []; document.addEventListener('transitionrun', "
                                   "event => slid.push(event.target.dataset.square))")
            square(browser, "B1").click()
            square(browser, "C1").click()
            wait_until(browser, lambda: "ply 1 of 1" in text_of(browser, "status"), "B1-C1 is played")
            if motion == "reduce":
                time.sleep(0.3)
                assert browser.execute_script("return slid") == []
            else:
                wait_until(browser, lambda: browser.execute_script("return slid") == ["C1"], "the piece slides to C1")


#: Notes when the board's pieces are first drawn, on the page's clock.
DRAWN_JS = """
new MutationObserver((changes, observer) => {
  if (document.querySelector("#board circle.piece")) { window.boardDrawn = performance.now(); observer.disconnect(); }
}).observe(document, {childList: true, subtree: true});
"""


def test_a_link_is_shown_after_two_api_requests(browser, explorer_url):
    """A link of 20 plies asks the API twice at once (the boards and rules, and the game), not once a ply,
    and the board is drawn within 300 ms of the last answer. Every answer is delayed by 200 ms of
    emulated latency, so that requests sent one after the other cannot overlap, whatever the machine's
    speed, and requests sent together always do."""
    moves = perfect_line(explorer_url, LONGEST)[:20]
    script = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": DRAWN_JS})
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions",
                            {"offline": False, "latency": 200, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        browser.get(explorer_url + "?" + urlencode({"start": LONGEST, "moves": " ".join(moves)}))
        wait_until(browser, lambda: "ply 20 of 20" in text_of(browser, "status"), "the link is shown")
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions",
                                {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        browser.execute_cdp_cmd("Network.disable", {})
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
    asked = browser.execute_script("return performance.getEntriesByType('resource')"
                                   ".filter(entry => new URL(entry.name).pathname.startsWith('/api/'))"
                                   ".map(entry => [new URL(entry.name).pathname, entry.startTime, entry.responseEnd])")
    assert sorted(path for path, _, _ in asked) == ["/api/game", "/api/games"]
    # Neither waits for the other: each was sent before the other was answered.
    assert max(start for _, start, _ in asked) < min(end for _, _, end in asked)
    assert browser.execute_script("return boardDrawn") - max(end for _, _, end in asked) < 300


# -- the statistics panel -------------------------------------------------------------------------------

def stats_of(url: str, board: str, rule: str = "connected") -> dict:
    with urlopen(f"{url}/api/stats?board={board}&rule={rule}", timeout=10) as response:
        return json.load(response)


def open_stats(driver) -> None:
    """Open the statistics panel with the keyboard (its button focused, Enter) and wait for its longest wins."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    toggle = driver.find_element(By.ID, "stats-toggle")
    assert toggle.get_attribute("aria-expanded") == "false" and not driver.find_element(By.ID, "stats").is_displayed()
    driver.execute_script("arguments[0].focus()", toggle)
    toggle.send_keys(Keys.ENTER)
    assert toggle.get_attribute("aria-expanded") == "true"
    wait_until(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#stats a.position"), "the longest wins are shown")


def figures_shown(driver) -> dict[str, list[str]]:
    """The panel's table: each row's name and its cells' texts."""
    return driver.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#stats tr')].map(row => "
        "[row.querySelector('th').textContent, [...row.querySelectorAll('td')].map(cell => cell.textContent)]))")


def test_the_statistics_panel_shows_the_api_s_figures_and_opens_a_longest_win(browser, explorer_url):
    """The page asks /api/stats only once the panel is opened; the panel shows the API's figures, and
    a longest win's link shows its position (the browser's back button goes back to the start)."""
    from selenium.webdriver.common.by import By

    browser.get(explorer_url)
    wait_until(browser, lambda: "ply 0 of 0" in text_of(browser, "status"), "the start is shown")
    asked = "return performance.getEntriesByType('resource').map(entry => new URL(entry.name).pathname)"
    assert "/api/stats" not in browser.execute_script(asked)
    open_stats(browser)
    assert browser.execute_script(asked).count("/api/stats") == 1
    stats = stats_of(explorer_url, "5x5")
    share = lambda count: f"{100 * count / stats['legal']:.2f} %"  # noqa: E731
    assert figures_shown(browser) == {
        "Legal positions": [f"{stats['legal']:,}", ""],
        "Wins": [f"{stats['wins']:,}", share(stats["wins"])],
        "Losses": [f"{stats['losses']:,}", share(stats["losses"])],
        "Draws": [f"{stats['draws']:,}", share(stats["draws"])],
        "Lost with no move": [f"{stats['no_move']:,}", ""],
        "Longest win": [f"{stats['longest_win']} plies", ""],
        "Longest loss": [f"{stats['longest_loss']} plies", ""],
        "Start": ["Black to move draw"],
    }
    assert (stats["legal"], stats["longest_win"], stats["start"]["value"]) == (3_468_080, 51, "draw")
    assert text_of(browser, "stats-caption") == "5x5 connected"
    links = browser.find_elements(By.CSS_SELECTOR, "#stats a.position")
    assert [(link.text, link.find_element(By.XPATH, "following-sibling::span").text) for link in links] == \
        [(win["position"], f"{win['class_size']} positions") for win in stats["longest_wins"]]

    target = stats["longest_wins"][0]["position"]
    links[0].click()
    wait_until(browser, lambda: text_of(browser, "fen") == target, "the longest win is shown")
    assert query_of(browser) == {"board": ["5x5"], "rule": ["connected"], "start": [target]}
    assert "Black to move" in text_of(browser, "status") and "win in 51" in text_of(browser, "status")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board circle.piece")) == 6
    browser.back()
    wait_until(browser, lambda: text_of(browser, "fen") == stats["start"]["position"], "the start is shown again")


def test_the_statistics_of_a_table_counted_in_the_background(browser, serve_tables, tables_4x4, monkeypatch):
    """On a server that counts every table in the background, the panel shows the counts the table's
    file states at once, then the complete figures when the count has ended; closing it (the keyboard
    again) hides them."""
    from functools import partial

    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from solver.neutreeko.web import api as neutreeko_api
    from solver.neutreeko.web.summaries import Summaries

    monkeypatch.setattr(neutreeko_api, "Summaries", partial(Summaries, background_indices=0))
    url = serve_tables(tables_4x4)
    browser.get(url + "?board=4x4&rule=connected")
    wait_until(browser, lambda: "ply 0 of 0" in text_of(browser, "status"), "the 4 x 4 start is shown")
    toggle = browser.find_element(By.ID, "stats-toggle")
    toggle.click()
    frame = '#stats [data-key="4x4|connected"]'
    wait_until(browser, lambda: browser.find_elements(By.CSS_SELECTOR, frame + '[data-counting="true"]'),
               "the stated counts are shown while the table is counted")
    assert "counting" in text_of(browser, "stats") and not browser.find_elements(By.CSS_SELECTOR, "#stats a")
    stats = stats_of(url, "4x4")
    assert figures_shown(browser)["Legal positions"] == [f"{stats['legal']:,}", ""]
    wait_until(browser, lambda: browser.find_elements(By.CSS_SELECTOR, frame + '[data-counting="false"]'),
               "the complete figures follow")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#stats a.position")) == len(stats["longest_wins"])
    assert figures_shown(browser)["Start"] == [f"Black to move win in {stats['start']['plies']}"]
    toggle.send_keys(Keys.SPACE)
    assert toggle.get_attribute("aria-expanded") == "false" and not browser.find_element(By.ID, "stats").is_displayed()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width, height, mobile", [(1400, 900, False), (390, 844, True)], ids=["desktop", "phone"])
def test_the_statistics_panel_on_a_screen_and_a_phone(browser, explorer_url, tmp_path, scheme, width, height, mobile):
    """Open, the panel has the AA contrast in both schemes and scrolls nothing sideways on a phone;
    a screenshot of each is kept (in the test's temporary directory)."""
    with viewport(browser, width, height, mobile), media(browser, prefers_color_scheme=scheme):
        browser.get(explorer_url)
        wait_until(browser, lambda: "ply 0 of 0" in text_of(browser, "status"), "the start is shown")
        open_stats(browser)
        failures = contrast_failures(browser)
        assert not failures, "with the statistics open:\n" + "\n".join(failures)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
        panel = box(browser, ".stats-section")
        assert panel["left"] >= 0 and panel["right"] <= width
        browser.execute_script("document.querySelector('.stats-section').scrollIntoView({block: 'center'})")
        screenshot = tmp_path / f"stats-{width}x{height}-{scheme}.png"
        assert browser.save_screenshot(str(screenshot))
        assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# -- variations and export ------------------------------------------------------------------------------

def tree_buttons(driver) -> list[tuple[str, str, str]]:
    """The moves of the game list: each button's line (its place among the tree's lines), ply and move."""
    return [tuple(button) for button in driver.execute_script(
        "return [...document.querySelectorAll('#game .ply')].map(button => "
        "[button.dataset.line, button.dataset.ply, button.firstChild.textContent])")]


def second_best_game(tablebase, plies: int) -> list[str]:
    """A game of ``plies`` plies from the start, each move the second of its position's ranking: so
    none is the perfect line's."""
    position, names = Position.parse("start"), []
    for _ in range(plies):
        move = tablebase.moves(position)[1]
        names.append(move.name)
        position = move.position
    return names


def test_variations_branch_promote_export_and_import(browser, explorer_url, tablebase, tmp_path):
    """A 6-ply game, another move at ply 1: both lines present, the new one a variation; the perfect
    line from ply 2 another; the record copied names both in parentheses, reads back in Python as the
    tree of the URL, and pasted into a fresh page gives the same tree; the download is that record;
    promote and delete change the tree as the URL says."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    game = second_best_game(tablebase, 6)
    browser.get(explorer_url + "?" + urlencode({"moves": " ".join(game)}))
    wait_until(browser, lambda: "ply 6 of 6" in text_of(browser, "status"), "the 6-ply game is shown")
    assert browser.find_element(By.ID, "promote").get_attribute("disabled") is not None  # the main line shown
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    other = next(button.get_attribute("data-move") for button in browser.find_elements(By.CSS_SELECTOR, "#moves .move")
                 if button.get_attribute("data-move") != game[0])
    browser.find_element(By.CSS_SELECTOR, f'#moves .move[data-move="{other}"]').click()
    wait_until(browser, lambda: "ply 1 of 1" in text_of(browser, "status"), "the other move is played")
    assert tree_buttons(browser) == [("0", "1", game[0]), ("1", "1", other),
                                     *[("0", str(ply), move) for ply, move in enumerate(game[1:], 2)]]
    assert query_of(browser)["moves"] == [f"{game[0]} ({other}) {' '.join(game[1:])}"]
    assert query_of(browser)["line"] == ["1"] and "variation: 1 ply" in text_of(browser, "game-caption")
    assert browser.find_element(By.CSS_SELECTOR, '#game .variation .ply.current[data-line="1"]')

    browser.find_element(By.CSS_SELECTOR, '#game .ply[data-line="0"][data-ply="2"]').click()
    wait_until(browser, lambda: "ply 2 of 6" in text_of(browser, "status"), "ply 2 of the game is shown")
    perfect = perfect_line(explorer_url, tablebase.moves(Position.parse("start"))[1].position.play(game[1]).fen())
    assert perfect[0] != game[2]
    browser.find_element(By.ID, "line-button").click()
    wait_until(browser, lambda: "perfect line" in text_of(browser, "message"), "the perfect line is played")
    tree = f"{game[0]} ({other}) {' '.join(game[1:3])} ({' '.join(perfect)}) {' '.join(game[3:])}"
    assert query_of(browser)["moves"] == [tree] and query_of(browser)["line"] == ["2"]
    assert query_of(browser)["ply"] == ["2"] and f"ply 2 of {2 + len(perfect)}" in text_of(browser, "status")
    assert [button[2] for button in tree_buttons(browser) if button[0] == "0"] == game  # the game is kept
    assert len(browser.find_elements(By.CSS_SELECTOR, "#game .variation")) == 2

    origin = urlsplit(explorer_url)
    browser.execute_cdp_cmd("Browser.grantPermissions", {"origin": f"{origin.scheme}://{origin.netloc}",
                                                         "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    browser.find_element(By.ID, "copy-record").click()
    wait_until(browser, lambda: "record" in text_of(browser, "message") and "clipboard" in text_of(browser, "message"),
               "the record is copied")
    record = browser.execute_async_script("navigator.clipboard.readText().then(arguments[0])")
    assert f"1. {game[0]} (1. {other}) 1... {game[1]}" in record and f"(2. {perfect[0]}" in record
    parsed = parse_record(record)
    assert (parsed.moves, parsed.variations) == read_variations(Position.parse("start"), tree)
    assert [move.name(parsed.start.game.board) for move in parsed.moves] == game

    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    browser.find_element(By.ID, "download-record").click()
    downloaded = tmp_path / "neutreeko-5x5-connected.txt"
    wait_until(browser, downloaded.exists, "the record is downloaded")
    assert downloaded.read_text() == record

    shown = tree_buttons(browser)
    browser.get(explorer_url)
    wait_until(browser, lambda: "ply 0 of 0" in text_of(browser, "status"), "a fresh page")
    field = browser.find_element(By.ID, "paste-input")
    browser.execute_script("arguments[0].value = arguments[1]", field, record)
    field.send_keys(Keys.END, Keys.ENTER)
    wait_until(browser, lambda: "ply 6 of 6" in text_of(browser, "status"), "the record is loaded")
    assert query_of(browser)["moves"] == [tree] and "line" not in query_of(browser)
    assert tree_buttons(browser) == shown

    browser.find_element(By.CSS_SELECTOR, '#game .ply[data-line="2"][data-ply="4"]').click()
    wait_until(browser, lambda: f"ply 4 of {2 + len(perfect)}" in text_of(browser, "status"), "the variation is shown")
    browser.find_element(By.ID, "promote").click()
    promoted = f"{game[0]} ({other}) {' '.join(game[1:2])} {perfect[0]} ({' '.join(game[2:])}) {' '.join(perfect[1:])}"
    wait_until(browser, lambda: query_of(browser)["moves"] == [promoted], "the variation is the main line")
    assert "line" not in query_of(browser) and query_of(browser)["ply"] == ["4"]
    assert [button[2] for button in tree_buttons(browser) if button[0] == "0"] == game[:2] + perfect
    browser.find_element(By.CSS_SELECTOR, '#game .ply[data-line="2"][data-ply="3"]').click()
    wait_until(browser, lambda: query_of(browser).get("line") == ["2"], "the old game, a variation now, is shown")
    browser.find_element(By.ID, "delete").click()
    wait_until(browser, lambda: query_of(browser)["moves"] == [f"{game[0]} ({other}) {' '.join(game[1:2] + perfect)}"],
               "the variation is deleted")
    assert "ply 2 of" in text_of(browser, "status") and "line" not in query_of(browser)
    browser.back()
    wait_until(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#game .variation")) == 2,
               "back brings the variation again")
    assert query_of(browser)["moves"] == [promoted] and query_of(browser)["line"] == ["2"]
    assert browser.find_element(By.CSS_SELECTOR, '#game .ply.current[data-line="2"][data-ply="3"]')


NESTED_TREE = "C4-C3 (B1-C1 B5-A5 (C2-C3 C1-A3) C1-A3 A5-A4) (D1-C1) D5-D2 D1-E1 (B1-A2 B5-A5) B5-B2"


def test_variation_controls_by_keyboard_and_on_a_phone(browser, explorer_url):
    """Nested variations' texts have the AA contrast in both schemes; the tree's buttons are reached by
    Tab in order, each named; Enter on Delete deletes the variation shown, the focus staying on the
    button while a variation is shown, then on the game. On a phone, nested variations wrap within the
    screen: nothing scrolls sideways."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(explorer_url + "?" + urlencode({"moves": NESTED_TREE, "line": "2", "ply": "2"}))
    wait_until(browser, lambda: "ply 2 of 3" in text_of(browser, "status"), "the nested variation is shown")
    assert browser.find_element(By.CSS_SELECTOR, '#game .variation .variation .ply.current[data-line="2"]').text == "C2-C3"
    assert browser.find_element(By.CSS_SELECTOR, '#game .variation .variation .ply.future[data-line="2"]').text == "C1-A3"
    for scheme in ("light", "dark"):  # the variations' moves, numbers and marks, current and faint, at AA
        with media(browser, prefers_color_scheme=scheme):
            failures = contrast_failures(browser)
            assert not failures, f"{scheme}:\n" + "\n".join(failures)
    browser.find_element(By.CSS_SELECTOR, "#game .ply.current").send_keys("")  # the focus on the move shown
    names = {}
    for _ in range(40):
        press(browser, Keys.TAB)
        focused = browser.switch_to.active_element
        names[focused.get_attribute("id")] = focused.accessible_name
        if focused.get_attribute("id") == "download-record":
            break
    tools = ["promote", "delete", "copy-record", "download-record"]
    assert [name for name in names if name in tools] == tools
    assert [names[tool] for tool in tools] == ["Promote variation", "Delete variation", "Copy record", "Download record"]
    browser.find_element(By.ID, "delete").send_keys(Keys.ENTER)
    wait_until(browser, lambda: query_of(browser)["moves"] == [NESTED_TREE.replace(" (C2-C3 C1-A3)", "")],
               "Enter deletes the variation")
    assert "ply 1 of 4" in text_of(browser, "status") and query_of(browser)["line"] == ["1"]
    focused = browser.switch_to.active_element
    assert focused.get_attribute("id") == "delete" and focused.is_enabled()  # still a variation: Delete stays
    focused.send_keys(Keys.ENTER)
    wait_until(browser, lambda: "line" not in query_of(browser), "Enter deletes the variation it was in")
    assert browser.switch_to.active_element == browser.find_element(By.CSS_SELECTOR, "#game")  # ply 0: no move shown

    with viewport(browser, 390, 844, mobile=True):
        browser.get(explorer_url + "?" + urlencode({"moves": NESTED_TREE, "line": "2"}))
        wait_until(browser, lambda: "ply 3 of 3" in text_of(browser, "status"), "the tree is shown on a phone")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
        rightmost = browser.execute_script("return Math.max(...[...document.querySelectorAll("
                                           "'#game .ply, .game-tools button, .fen button')].map(item => "
                                           "item.getBoundingClientRect().right))")
        assert rightmost <= 390 - 12


def test_a_tree_too_long_for_a_link_keeps_the_game_and_the_line_shown(browser, explorer_url):
    """A link whose tree would pass MAX_LINK characters keeps the main line and the line shown, as one
    variation from where it leaves the main line; opened, it shows that line at the same ply."""
    import random

    from selenium.webdriver.common.by import By

    rng, start = random.Random(7), Position.parse("start")

    def moves_from(position: Position, count: int) -> list[str]:
        names = []
        for _ in range(count):
            if position.winner():
                break
            move = rng.choice(position.moves())
            names.append(move.name(position.game.board))
            position = position.play(move)
        return names

    main = perfect_line(explorer_url, "start")[:20]
    positions = [start]
    for name in main:
        positions.append(positions[-1].play(name))
    words = []
    for ply, name in enumerate(main, 1):
        words.append(name)
        words += [f"({' '.join(moves_from(positions[ply - 1], 16))})" for _ in range(3)]
    tree = " ".join(words)
    assert len(tree) > 4000
    browser.get(explorer_url + "?" + urlencode({"moves": tree, "line": "31", "ply": "15"}))
    wait_until(browser, lambda: "ply 15 of" in text_of(browser, "status"), "the long tree is shown")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#game .variation")) == 60
    shown = browser.execute_script("return document.getElementById('fen').textContent")
    query = query_of(browser)
    assert query["line"] == ["1"] and query["ply"] == ["15"] and len(urlsplit(browser.current_url).query) <= 4000
    kept = words[41]  # the 31st variation: the first of ply 11
    assert query["moves"] == [" ".join([*main[:11], kept, *main[11:]])]
    browser.get(browser.current_url)
    wait_until(browser, lambda: "ply 15 of" in text_of(browser, "status"), "the link kept is shown")
    assert browser.execute_script("return document.getElementById('fen').textContent") == shown
    assert len(browser.find_elements(By.CSS_SELECTOR, "#game .variation")) == 1


# -- NECNON -----------------------------------------------------------------------------------------------

def necnon_page(driver, url: str, query: str) -> None:
    """The NECNON page of ``query`` opened, its board drawn."""
    from selenium.webdriver.common.by import By

    driver.get(f"{url}necnon?{query}")
    wait_until(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#board .cell"), "the NECNON board is drawn")


def cell(driver, name: str):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f'#board .cell[data-cell="{name}"]')


def necnon_api(url: str, endpoint: str, **parameters: str) -> dict:
    with urlopen(f"{url}api/{endpoint}?" + urlencode({"game": "necnon", **parameters})) as answer:
        return json.load(answer)


def game_turns(driver) -> list[str]:
    """The turns of the game list, read at once (the list is redrawn as turns are played)."""
    return driver.execute_script("return [...document.querySelectorAll('#game .ply')]"
                                 ".map(button => button.querySelector('.turn').textContent)")


def test_necnon_a_two_stone_turn_by_clicks_and_the_table_s_reply(browser, necnon_url):
    """3x3 nec, the table replying: Black's first stone by a click and Play; Green's reply is the table's
    best; then a two-stone turn: the first click shows a ghost stone and, on the other cells, the value
    of the turn with both; the second completes it, Play plays it, and the table's reply follows."""
    from selenium.webdriver.common.by import By

    necnon_page(browser, necnon_url, "board=3x3&protocol=nec")
    assert "Black to move" in text_of(browser, "status") and "Green by 1 in 5 turns" in text_of(browser, "status")
    values = {group.get_attribute("data-cell"): group.find_element(By.CSS_SELECTOR, ".value").text
              for group in browser.find_elements(By.CSS_SELECTOR, "#board .cell.allowed")}
    empty = necnon_api(necnon_url, "position", board="3x3")
    assert values == {entry["turn"]: f"{entry['value']:+d}" if entry["value"] else "0" for entry in empty["ranking"]}
    browser.find_element(By.ID, "reply-toggle").click()
    assert browser.find_element(By.ID, "confirm").get_attribute("disabled") is not None
    cell(browser, "b2").click()
    assert browser.find_elements(By.CSS_SELECTOR, '#board .cell[data-cell="b2"] .stone.ghost.black')
    assert browser.find_element(By.ID, "confirm").text == "Play b2"
    browser.find_element(By.ID, "confirm").click()
    after = necnon_api(necnon_url, "position", board="3x3", moves="b2")
    reply = after["ranking"][0]["turn"]
    wait_until(browser, lambda: "turn 2 of 2" in text_of(browser, "status"), "the table replies")
    assert game_turns(browser) == ["b2", reply] and query_of(browser)["moves"] == [f"b2 {reply}"]

    position = necnon_api(necnon_url, "position", board="3x3", moves=f"b2 {reply}")
    first, second = position["ranking"][-1]["turn"].split(",")  # the worst turn: not the table's choice
    cell(browser, first).click()
    assert "choose one more cell" in text_of(browser, "chosen")
    pairs = {entry["turn"]: entry["value"] for entry in position["ranking"] if first in entry["turn"].split(",")}
    shown = {group.get_attribute("data-cell"): group.find_element(By.CSS_SELECTOR, ".value").text
             for group in browser.find_elements(By.CSS_SELECTOR, "#board .cell.allowed:not(.chosen)")}
    assert shown == {next(name for name in turn.split(",") if name != first): f"{value:+d}" if value else "0"
                     for turn, value in pairs.items()}
    cell(browser, second).click()
    assert browser.find_element(By.ID, "confirm").text == f"Play {first},{second}"
    browser.find_element(By.ID, "confirm").click()
    answer = necnon_api(necnon_url, "position", board="3x3", moves=f"b2 {reply} {first},{second}")
    assert not answer["over"]  # so the table replies
    wait_until(browser, lambda: len(game_turns(browser)) == 4, "the two-stone turn and the table's reply")
    assert game_turns(browser)[2:] == [f"{first},{second}", answer["ranking"][0]["turn"]]
    assert "turn 4 of 4" in text_of(browser, "status")


def test_necnon_hex2_is_drawn_with_hexagons(browser, necnon_url):
    """hex2: seven hexagonal cells, pointy side up, in rows of 2, 3 and 2, each the same width apart as
    its neighbours in its row, the middle row half a cell further out; the cells named as the notation."""
    necnon_page(browser, necnon_url, "board=hex2&protocol=nec")
    outlines = browser.execute_script("""return [...document.querySelectorAll('#board .cell')].map(group => {
        const shape = group.querySelector('.outline'), box = shape.getBoundingClientRect();
        return {name: group.dataset.cell, tag: shape.tagName, corners: shape.points ? shape.points.length : 0,
                x: box.x + box.width / 2, y: box.y + box.height / 2, width: box.width, height: box.height};});""")
    assert sorted(outline["name"] for outline in outlines) == ["a1", "a2", "b1", "b2", "b3", "c2", "c3"]
    assert all(outline["tag"] == "polygon" and outline["corners"] == 6 for outline in outlines)
    assert all(abs(outline["height"] / outline["width"] - 2 / 3 ** 0.5) < 0.02 for outline in outlines)  # pointy up
    by_name = {outline["name"]: outline for outline in outlines}
    rows = [["c2", "c3"], ["b1", "b2", "b3"], ["a1", "a2"]]
    width = by_name["b2"]["x"] - by_name["b1"]["x"]
    assert width > 40
    for row in rows:
        assert len({round(by_name[name]["y"]) for name in row}) == 1
        assert all(abs(by_name[right]["x"] - by_name[left]["x"] - width) < 1 for left, right in zip(row, row[1:]))
    assert abs(by_name["c2"]["x"] - by_name["b1"]["x"] - width / 2) < 1 and by_name["c2"]["y"] < by_name["b1"]["y"]
    assert abs(by_name["a1"]["x"] - by_name["c2"]["x"]) < 1


def test_necnon_a_search_engine_game_on_hex4_answers_within_its_time(browser, necnon_url):
    """hex4 has no table: the page offers the search engine, which, with 0.5 s to think, answers each
    turn within its time (and a little for the request); going back shows its view of the position it
    played from, its turns most visited first."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select

    necnon_page(browser, necnon_url, "board=hex4&protocol=nec")
    assert "search engine" in text_of(browser, "turns") and browser.find_element(By.ID, "line-button").is_displayed() is False
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .cell")) == 37
    Select(browser.find_element(By.ID, "think-select")).select_by_value("0.5")
    browser.find_element(By.ID, "reply-toggle").click()
    # An untimed search first: it waits for the engine's kernels (loading in the server's background since
    # the board was shown; compiled, in a fresh checkout, before numba's cache has them).
    necnon_api(necnon_url, "search", board="hex4", protocol="nec", seconds="0.1")
    for ply, first in ((2, "d4"), (4, None)):
        allowed = necnon_api(necnon_url, "rules", board="hex4", moves=" ".join(game_turns(browser)))["allowed"]
        for name in [first] if first else allowed[:2]:
            cell(browser, name).click()
        began = time.monotonic()
        browser.find_element(By.ID, "confirm").click()
        wait_until(browser, lambda: f"turn {ply} of {ply}" in text_of(browser, "status"), "the engine replies")
        took = time.monotonic() - began
        assert took < 3.0, took
    searches = browser.execute_script("return performance.getEntriesByType('resource').filter(entry => "
                                      "new URL(entry.name).pathname === '/api/search').map(entry => entry.duration)")
    assert len(searches) == 2 and all(500 <= duration < 1500 for duration in searches), searches
    browser.find_element(By.ID, "back").click()
    wait_until(browser, lambda: "playouts" in text_of(browser, "turns-caption"), "the engine's view is listed")
    turns = browser.find_elements(By.CSS_SELECTOR, "#turns .move")
    assert turns[0].get_attribute("data-turn") == game_turns(browser)[3] and "best" in turns[0].get_attribute("class")


def test_necnon_the_engine_s_view_names_what_its_exact_endgame_proved(browser, necnon_url, monkeypatch):
    """A search the exact endgame did not finish: the caption gives its nodes and the margin it proved the
    first turn keeps for the side to move (the engine's verdict given those two figures)."""
    import dataclasses

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select

    from solver.necnon.searching.engine import SearchEngine

    searched = SearchEngine.search
    monkeypatch.setattr(SearchEngine, "search",
                        lambda engine, position: dataclasses.replace(searched(engine, position), nodes=4321, floor=-1))
    necnon_page(browser, necnon_url, "board=hex4&protocol=nec&moves=d4")
    Select(browser.find_element(By.ID, "think-select")).select_by_value("0.5")
    browser.find_element(By.ID, "hint-button").click()
    wait_until(browser, lambda: "playouts" in text_of(browser, "turns-caption"), "the engine's view is listed")
    first = browser.find_element(By.CSS_SELECTOR, "#turns .move").get_attribute("data-turn")
    assert re.fullmatch(rf"the search engine's, [0-9,]+ playouts and 4,321 nodes of the exact endgame in [0-9.]+ s; "
                        rf"the exact endgame proved {first} worth at least -1 to Green", text_of(browser, "turns-caption"))


def test_necnon_a_turn_played_with_keys_only(browser, necnon_url):
    """Tab reaches the board; its cursor, drawn at 3:1 against a cell, goes along the rows and between
    them with the arrows (on hexagons: up to the left, down to the right, and back); Enter or Space
    chooses the cell under it, Escape clears; Tab reaches Play, Enter plays the turn, and the focus goes
    back to the board."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    necnon_page(browser, necnon_url, "board=hex2&protocol=nec&moves=b2")
    board = browser.find_element(By.ID, "board")
    for _ in range(12):
        if browser.switch_to.active_element == board:
            break
        press(browser, Keys.TAB)
    assert browser.switch_to.active_element == board

    def at() -> str:
        return re.search(r"the cursor on ([a-z][0-9])", board.get_attribute("aria-label"))[1]

    ring = browser.execute_script("""const style = getComputedStyle(document.querySelector('#board .cursor'));
        return {display: style.display, stroke: style.stroke,
                cell: getComputedStyle(document.querySelector('#board .cell .outline')).fill};""")
    assert ring["display"] != "none" and contrast(colour(ring["stroke"]), colour(ring["cell"])) >= 3, ring
    assert at() == "a1"  # the first allowed cell
    for key, expected in ((Keys.ARROW_RIGHT, "a2"), (Keys.ARROW_UP, "b2"), (Keys.ARROW_UP, "c2"), (Keys.ARROW_DOWN, "b2"),
                          (Keys.ARROW_RIGHT, "b3"), (Keys.ARROW_RIGHT, "b3"), (Keys.ARROW_DOWN, "a2")):
        press(browser, key)
        assert at() == expected, (key, expected)
    press(browser, Keys.ENTER)
    assert "a2 chosen" in text_of(browser, "chosen")
    press(browser, Keys.ESCAPE)
    assert "a2" not in text_of(browser, "chosen")
    press(browser, Keys.SPACE, Keys.ARROW_LEFT, Keys.ENTER)
    assert browser.find_element(By.ID, "confirm").text == "Play a1,a2"
    press(browser, Keys.TAB)  # Play comes before Clear
    assert browser.switch_to.active_element == browser.find_element(By.ID, "confirm")
    ring = browser.execute_script(FOCUS_RING_JS)
    assert ring["visible"] and ring["style"] != "none" and ring["width"] >= 2, ring
    press(browser, Keys.ENTER)
    wait_until(browser, lambda: "turn 2 of 2" in text_of(browser, "status"), "Enter on Play plays the turn")
    assert game_turns(browser) == ["b2", "a1,a2"] and browser.switch_to.active_element == board


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_necnon_every_text_meets_the_aa_contrast(browser, necnon_url, scheme):
    """The NECNON page's texts, its cells' values and names among them, at AA in both schemes: values
    shown, a cell chosen, the best turn hovered, a note, the end with its score, the engine's view."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    def check(when: str) -> None:
        failures = contrast_failures(browser)
        assert not failures, f"{scheme}, {when}:\n" + "\n".join(failures)

    with media(browser, prefers_color_scheme=scheme):
        necnon_page(browser, necnon_url, "board=3x3&protocol=nec&moves=b2+a1,c3")
        check("values shown")
        cell(browser, "b1").click()
        ActionChains(browser).move_to_element(browser.find_element(By.CSS_SELECTOR, "#turns .move")).perform()
        check("a cell chosen, a turn hovered")
        browser.find_element(By.ID, "line-button").click()
        wait_until(browser, lambda: "perfect line" in text_of(browser, "message"), "the line's note is shown")
        browser.find_element(By.ID, "last").click()
        assert "smothered" in text_of(browser, "score")
        check("the end of the perfect line")
        necnon_page(browser, necnon_url, "board=hex4&protocol=nec&moves=d4")
        browser.find_element(By.ID, "hint-button").click()
        wait_until(browser, lambda: "playouts" in text_of(browser, "turns-caption"), "the engine's view is listed")
        check("the engine's view")


@pytest.mark.parametrize("query", ["board=3x3&protocol=nec&moves=b2+a1,c3", "board=hex4&protocol=nec&moves=d4"])
def test_necnon_on_a_phone_nothing_scrolls_sideways(browser, necnon_url, query):
    with viewport(browser, 390, 844, mobile=True):
        necnon_page(browser, necnon_url, query)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
        board = box(browser, "#board")
        assert board["left"] >= 0 and board["right"] <= 390 and board["width"] > 300
        assert box(browser, "#confirm")["right"] <= 390


@pytest.fixture(scope="module")
def both_url(serve_tables, table_5x5, tmp_path_factory) -> str:
    """The address of an explorer server with the tables both pages open on: Neutreeko's 5 x 5 (a link
    to the session's) and NECNON's 4x4 nec."""
    directory = tmp_path_factory.mktemp("tables-both")
    (directory / table_5x5.name).symlink_to(table_5x5)
    build_necnon_table(NecnonGame.of("4x4", "nec"), directory / necnon_table_path(NecnonGame.of("4x4", "nec")).name)
    return serve_tables(directory)


def test_the_game_selector_goes_from_one_page_to_the_other(browser, both_url):
    """The Neutreeko page's Game selector opens NECNON's page (4x4 nec, the default), whose selector
    goes back; each page lists its own game's boards only."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select

    def boards() -> list[str]:
        return [option.get_attribute("value") for option in browser.find_elements(By.CSS_SELECTOR, "#board-select option")]

    browser.get(both_url)
    wait_until(browser, lambda: "ply 0 of 0" in text_of(browser, "status"), "the Neutreeko page is shown")
    assert "5x5" in boards() and "hex2" not in boards()
    Select(browser.find_element(By.ID, "game-select")).select_by_visible_text("NECNON")
    wait_until(browser, lambda: "Black to move" in text_of(browser, "status") and "turn 0 of 0" in text_of(browser, "status"),
               "the NECNON page is shown")
    assert urlsplit(browser.current_url).path == "/necnon" and query_of(browser) == {"board": ["4x4"], "protocol": ["nec"]}
    assert "hex2" in boards() and "9x9" not in boards()
    Select(browser.find_element(By.ID, "game-select")).select_by_visible_text("Neutreeko")
    wait_until(browser, lambda: urlsplit(browser.current_url).path == "/", "the Neutreeko page is opened again")
