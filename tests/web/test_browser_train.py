"""The training page in a real browser (the harness of :mod:`tests.web.test_browser`): a puzzle solved by
clicks, a wrong move's verdict, the score kept across a reload, a puzzle link, the explorer's "find
better" link from a game's mistake, the keys, the contrast and a phone's width. What is right is asked of
the command line (``neutreeko puzzles --json``), not of the page's code."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.helpers import START, invoke
from tests.web import test_browser
from tests.web.test_browser import contrast_failures, media, press, square, text_of, viewport, wait_until, walk

browser = test_browser.browser  # the harness's fixture: a headless Chromium

SEED = "7"


@pytest.fixture(scope="module")
def puzzles(tables_5x5) -> list[dict]:
    """The set the page shows for seed 7: ``neutreeko puzzles --count 20 --seed 7``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NEUTREEKO_TABLES", str(tables_5x5))
        result = invoke("puzzles", "--json", "--count", "20", "--seed", SEED)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["puzzles"]


def open_puzzle(driver, url: str, number: int = 1) -> None:
    driver.get(f"{url}train?board=5x5&seed={SEED}&puzzle={number}")
    wait_until(driver, lambda: f"puzzle {number} of 20" in text_of(driver, "status"), f"puzzle {number} is shown")


def play(driver, move: str) -> None:
    origin, target = move.split("-")
    square(driver, origin).click()
    square(driver, target).click()


def fen_of(driver) -> str:
    return text_of(driver, "fen")


def test_a_puzzle_solved_by_clicks_a_wrong_move_and_the_score_kept(browser, explorer_url, puzzles):
    """Puzzle 1's solution, clicked, is "correct: the only ..." and its line follows; puzzle 2 missed
    says what the move does and which keeps the value; values are never shown; a reload keeps the score
    and the puzzle, and a page opened without a puzzle in its URL goes back to it."""
    from selenium.webdriver.common.by import By

    browser.get(explorer_url + "train")
    browser.execute_script("localStorage.clear()")
    open_puzzle(browser, explorer_url)
    first = puzzles[0]
    assert fen_of(browser) == first["position"]
    task = "to move and win" if first["kind"] == "win" else "to move and hold the draw"
    assert f"{first['side'].capitalize()} {task}" in text_of(browser, "status")
    origin = first["solution"].split("-")[0]
    square(browser, origin).click()
    assert browser.find_elements(By.CSS_SELECTOR, "#board .spot") and not browser.find_elements(By.CSS_SELECTOR, "#board .dot")
    square(browser, first["solution"].split("-")[1]).click()
    wait_until(browser, lambda: "correct" in text_of(browser, "verdict"), "the try is judged")
    assert text_of(browser, "verdict").startswith(f"correct: the only {'winning' if first['kind'] == 'win' else 'drawing'} move")
    assert text_of(browser, "solution") == f"solution: {first['movetext']} ({first['result']})"
    assert text_of(browser, "score") == "score: 1 of 1 solved"

    browser.find_element(By.ID, "next").click()
    wait_until(browser, lambda: "puzzle 2 of 20" in text_of(browser, "status"), "the next puzzle is shown")
    second = puzzles[1]
    wrong = second["parts"]["best_alternative"]["move"]
    play(browser, wrong)
    wait_until(browser, lambda: "this " in text_of(browser, "verdict"), "the wrong try is judged")
    value = "win" if second["kind"] == "win" else "draw"
    assert text_of(browser, "verdict").endswith(f": {second['solution']} keeps the {value}")
    assert text_of(browser, "score") == "score: 1 of 2 solved"
    assert parse_qs(urlsplit(browser.current_url).query)["puzzle"] == ["2"]

    browser.refresh()
    wait_until(browser, lambda: "puzzle 2 of 20" in text_of(browser, "status"), "the reloaded page")
    assert text_of(browser, "score") == "score: 1 of 2 solved"
    assert [item.get_attribute("class") for item in browser.find_elements(By.CSS_SELECTOR, "#puzzles button")][:3] == [
        "solved", "failed current", "untried"]
    browser.get(explorer_url + "train")
    wait_until(browser, lambda: "puzzle 2 of 20" in text_of(browser, "status"), "the stored puzzle is shown again")
    assert parse_qs(urlsplit(browser.current_url).query)["seed"] == [SEED]


def test_a_puzzle_link_reproduces_its_position(browser, explorer_url, puzzles):
    open_puzzle(browser, explorer_url, 5)
    assert fen_of(browser) == puzzles[4]["position"]
    page = browser.find_element("tag name", "body").text
    assert not re.search(r"\b(wins?|loss|loses) in \d|\bdraws\b", page), page  # values hidden
    assert not browser.find_elements("css selector", ".pill, .dot, .arrow")


def test_a_puzzle_solved_with_keys_only(browser, explorer_url, puzzles):
    """Tab to the board, the arrows to the solution's piece, Enter, the arrows to its target, Enter."""
    from selenium.webdriver.common.keys import Keys

    open_puzzle(browser, explorer_url, 3)
    for _ in range(8):  # the top bar's selectors and button first
        press(browser, Keys.TAB)
        if browser.switch_to.active_element.get_attribute("id") == "board":
            break
    assert browser.switch_to.active_element.get_attribute("id") == "board", "Tab reaches the board"
    origin, target = puzzles[2]["solution"].split("-")
    walk(browser, origin, False)
    press(browser, Keys.ENTER)
    walk(browser, target, False)
    press(browser, Keys.ENTER)
    wait_until(browser, lambda: text_of(browser, "verdict").startswith("correct: the only"), "the keyed try is judged")


def test_find_a_better_move_from_a_game_s_mistake(browser, explorer_url):
    """The explorer's game with a mistake has a "find better" link on it, which opens the training page
    on the position before the move, where a drawing move is correct and the mistake is not."""
    from selenium.webdriver.common.by import By

    browser.get(explorer_url + "?moves=C4-C3+D5-D2+B1-B4+C2-B1")
    wait_until(browser, lambda: "C2-B1" in text_of(browser, "game"), "the game is shown")
    links = browser.find_elements(By.CSS_SELECTOR, "#game .better")
    marks = [mark.text for mark in browser.find_elements(By.CSS_SELECTOR, "#game .mark")]
    assert len(links) == sum(mark in ("?", "??") for mark in marks) >= 1
    links[0].click()
    wait_until(browser, lambda: "the game played C4-C3 here" in text_of(browser, "status"), "the training page opens")
    assert urlsplit(browser.current_url).path == "/train" and fen_of(browser) == START
    assert "Black to move and hold the draw" in text_of(browser, "status")
    play(browser, "C4-C3")
    wait_until(browser, lambda: text_of(browser, "verdict").startswith("this loses in"), "the mistake again is judged")
    assert "keep the draw" in text_of(browser, "verdict") and "B1-C1" in text_of(browser, "verdict")
    browser.get(explorer_url + "train?position=start&played=C4-C3")
    wait_until(browser, lambda: "the game played" in text_of(browser, "status"), "the link again")
    play(browser, "B1-C1")
    wait_until(browser, lambda: text_of(browser, "verdict").startswith("correct"), "a drawing move is judged")
    assert "moves keep the draw" in text_of(browser, "verdict")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_training_page_meets_the_aa_contrast_and_fits_a_phone(browser, explorer_url, puzzles, scheme, tmp_path):
    """Every text, before and after a right and a wrong try and with a piece picked up, at AA contrast;
    screenshots at 1400 x 900 and 390 x 844; on the phone nothing scrolls sideways."""
    shots = Path(os.environ.get("TRAIN_SHOTS", tmp_path))
    with media(browser, prefers_color_scheme=scheme):
        with viewport(browser, 1400, 900):
            open_puzzle(browser, explorer_url, 4)
            square(browser, puzzles[3]["solution"].split("-")[0]).click()
            failures = contrast_failures(browser)
            assert not failures, "\n".join(failures)
            square(browser, puzzles[3]["solution"].split("-")[1]).click()
            wait_until(browser, lambda: "correct" in text_of(browser, "verdict"), "the try is judged")
            failures = contrast_failures(browser)
            assert not failures, "after a right try:\n" + "\n".join(failures)
            assert browser.save_screenshot(str(shots / f"train-{scheme}-1400.png"))
        with viewport(browser, 390, 844, mobile=True):
            open_puzzle(browser, explorer_url, 6)
            play(browser, puzzles[5]["parts"]["best_alternative"]["move"])
            wait_until(browser, lambda: "this " in text_of(browser, "verdict"), "the wrong try is judged")
            failures = contrast_failures(browser)
            assert not failures, "after a wrong try:\n" + "\n".join(failures)
            assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
            assert browser.save_screenshot(str(shots / f"train-{scheme}-390.png"))
        browser.get(explorer_url + "?moves=C4-C3+D5-D2+B1-B4+C2-B1")
        wait_until(browser, lambda: browser.find_elements("css selector", "#game .better"), "the game's links")
        failures = contrast_failures(browser)
        assert not failures, "the explorer's find-better links:\n" + "\n".join(failures)
        assert browser.save_screenshot(str(shots / f"explorer-better-{scheme}.png"))


def test_the_page_is_served(explorer_url):
    from tests.web.test_web import request

    status, response, body = request(explorer_url, "/train")
    assert status == 200 and 'src="/train.js"' in body.decode() and 'src="/board.js"' in body.decode()
    for path in ("/train.js", "/train.css", "/board.js"):
        assert request(explorer_url, path)[0] == 200
