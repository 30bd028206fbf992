"""The explorer's page in a real browser: headless Chromium (Debian's ``chromium`` and ``chromium-driver``)
driven by selenium against the explorer server on an ephemeral loopback port.

Without the browser the tests are skipped with the reason, except under CI (``$CI`` set), where
``.ci/run`` installs it and a missing browser fails them.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.helpers import LONGEST

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
