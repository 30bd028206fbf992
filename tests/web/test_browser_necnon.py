"""The NECNON page's game tree in a real browser (the harness of :mod:`tests.web.test_browser`): variations
started by a turn played before the end and by the perfect line, promoted and deleted; the link keeping
the tree; the record copied, downloaded and pasted back; the new controls by keyboard, their contrast and
a phone's width. What is right is asked of the server's API and of the record reader, not of the page's
code."""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

import pytest

from solver.cli import group
from solver.necnon.model.position import Position
from solver.necnon.model.rules import Game
from solver.necnon.playing.record import parse_record, read_variations
from tests.helpers import invoke
from tests.web import test_browser
from tests.web.test_browser import (
    FOCUS_RING_JS,
    cell,
    colour,
    composite,
    contrast,
    contrast_failures,
    game_turns,
    media,
    necnon_api,
    necnon_page,
    press,
    query_of,
    text_of,
    viewport,
    wait_until,
)

browser = test_browser.browser  # the harness's fixture: a headless Chromium

GAME = Game.of("3x3", "nec")
#: A tree on 3 x 3: two alternatives to Green's first turn, one with its own variation, and one to
#: Black's second (the record reader's example, tests/necnon/test_necnon_record.py).
TREE = "b2 a1,c3 (a1,b1 c1,a2 (a3,c3)) (b1,c1) b1,c1 (a2,a3)"


def tree_buttons(driver) -> list[tuple[str, str, str]]:
    """The turns of the game list: each button's line (its place among the tree's lines), ply and turn."""
    return [tuple(button) for button in driver.execute_script(
        "return [...document.querySelectorAll('#game .ply')].map(button => "
        "[button.dataset.line, button.dataset.ply, button.querySelector('.turn').textContent])")]


def open_tree(driver, url: str, **view: str) -> None:
    """The page of ``view`` on 3x3 nec (``moves``, ``line``, ``ply``), its tree drawn with its board."""
    necnon_page(driver, url, urlencode({"board": "3x3", "protocol": "nec", **view}))


def worst_game(url: str, turns: int) -> list[str]:
    """A game of ``turns`` turns on 3x3 nec, each the last of its position's ranking, which the perfect
    line, the ranking's first, does not play."""
    names: list[str] = []
    for _ in range(turns):
        ranking = necnon_api(url, "position", board="3x3", moves=" ".join(names))["ranking"]
        assert len(ranking) > 1, ranking
        names.append(ranking[-1]["turn"])
    return names


def play(driver, turn: str, ply: int, of: int) -> None:
    """Click ``turn`` in the list of turns; wait until it is shown, ply ``ply`` of ``of``."""
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, f'#turns .move[data-turn="{turn}"]').click()
    wait_until(driver, lambda: f"turn {ply} of {of}" in text_of(driver, "status"), f"{turn} is played")


def go(driver, line: int, ply: int) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, f'#game .ply[data-line="{line}"][data-ply="{ply}"]').click()


def test_a_turn_before_the_end_and_the_perfect_line_are_variations(browser, necnon_url):
    """A 4-turn game played by clicks, another turn at ply 2: both lines in the list, the new one a
    variation; the perfect line from ply 2 another; a reload of the link shows the same tree and view;
    promote makes the perfect line the game, delete removes the old game, and back brings it again."""
    from selenium.webdriver.common.by import By

    game = worst_game(necnon_url, 4)
    open_tree(browser, necnon_url)
    for ply, turn in enumerate(game, 1):
        play(browser, turn, ply, ply)
    assert browser.find_element(By.ID, "promote").get_attribute("disabled") is not None  # the main line shown
    go(browser, 0, 1)
    wait_until(browser, lambda: "turn 1 of 4" in text_of(browser, "status"), "turn 1 of the game is shown")
    other = necnon_api(necnon_url, "position", board="3x3", moves=game[0])["ranking"][0]["turn"]
    assert other != game[1]
    play(browser, other, 2, 2)
    assert tree_buttons(browser) == [("0", "1", game[0]), ("0", "2", game[1]), ("1", "2", other),
                                     ("0", "3", game[2]), ("0", "4", game[3])]
    assert query_of(browser)["moves"] == [f"{game[0]} {game[1]} ({other}) {game[2]} {game[3]}"]
    assert query_of(browser)["line"] == ["1"] and text_of(browser, "game-caption") == "variation: 2 turns"
    assert browser.find_element(By.CSS_SELECTOR, '#game .variation .ply.current[data-line="1"]')

    go(browser, 0, 2)
    wait_until(browser, lambda: "turn 2 of 4" in text_of(browser, "status"), "turn 2 of the game is shown")
    perfect = [step["play"] for step in necnon_api(necnon_url, "line", board="3x3", moves=" ".join(game[:2]))["line"]]
    assert perfect[0] != game[2]
    browser.find_element(By.ID, "line-button").click()
    wait_until(browser, lambda: "perfect line" in text_of(browser, "message"), "the perfect line is played")
    tree = f"{game[0]} {game[1]} ({other}) {game[2]} ({' '.join(perfect)}) {game[3]}"
    assert query_of(browser)["moves"] == [tree] and query_of(browser)["line"] == ["2"]
    assert query_of(browser)["ply"] == ["2"] and f"turn 2 of {2 + len(perfect)}" in text_of(browser, "status")

    shown, position = tree_buttons(browser), text_of(browser, "fen")
    browser.get(browser.current_url)
    wait_until(browser, lambda: tree_buttons(browser) == shown, "the link shows the same tree")
    assert text_of(browser, "fen") == position and f"turn 2 of {2 + len(perfect)}" in text_of(browser, "status")
    assert browser.find_element(By.CSS_SELECTOR, '#game .ply.future[data-line="2"][data-ply="3"]')

    go(browser, 2, 4)
    wait_until(browser, lambda: query_of(browser).get("ply") == ["4"], "ply 4 of the perfect line is shown")
    browser.find_element(By.ID, "promote").click()
    promoted = f"{game[0]} {game[1]} ({other}) {perfect[0]} ({game[2]} {game[3]}) {' '.join(perfect[1:])}"
    wait_until(browser, lambda: query_of(browser)["moves"] == [promoted], "the perfect line is the game")
    assert "line" not in query_of(browser) and query_of(browser)["ply"] == ["4"]
    assert [turn for line, _, turn in tree_buttons(browser) if line == "0"] == game[:2] + perfect
    go(browser, 2, 3)
    wait_until(browser, lambda: query_of(browser).get("line") == ["2"], "the old game, a variation now, is shown")
    browser.find_element(By.ID, "delete").click()
    wait_until(browser, lambda: query_of(browser)["moves"] == [f"{game[0]} {game[1]} ({other}) {' '.join(perfect)}"],
               "the variation is deleted")
    assert "turn 2 of" in text_of(browser, "status") and "line" not in query_of(browser)
    browser.back()
    wait_until(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#game .variation")) == 2,
               "back brings the variation again")
    assert query_of(browser)["moves"] == [promoted] and query_of(browser)["line"] == ["2"]


def test_the_record_exported_and_pasted_back_gives_the_same_tree(browser, necnon_url, tmp_path):
    """Copy record puts /api/record's text on the clipboard, which the record reader reads as the tree of
    the link; Download record saves the same text; pasted into a fresh page it gives the same tree. A
    position with turns after it pasted is shown from there; Copy position copies the position shown."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    open_tree(browser, necnon_url, moves=TREE, line="2")
    origin = urlsplit(necnon_url)
    browser.execute_cdp_cmd("Browser.grantPermissions", {"origin": f"{origin.scheme}://{origin.netloc}",
                                                         "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    browser.find_element(By.ID, "copy-record").click()
    wait_until(browser, lambda: "record (paste it here, or give it to necnon annotate) is on the clipboard" in
               text_of(browser, "message"), "the record is copied")
    record = browser.execute_async_script("navigator.clipboard.readText().then(arguments[0])")
    assert record == necnon_api(necnon_url, "record", board="3x3", moves=TREE)["record"]
    assert "1. b2 2. a1,c3 (2. a1,b1 3. c1,a2 (3. a3,c3)) (2. b1,c1) 3. b1,c1 (3. a2,a3)" in record
    parsed = parse_record(record)
    assert (parsed.turns, parsed.variations) == read_variations(Position.empty(GAME), TREE)

    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    browser.find_element(By.ID, "download-record").click()
    downloaded = tmp_path / "necnon-3x3-nec.txt"
    wait_until(browser, downloaded.exists, "the record is downloaded")
    assert downloaded.read_text() == record

    shown = tree_buttons(browser)
    open_tree(browser, necnon_url)
    field = browser.find_element(By.ID, "paste-input")
    browser.execute_script("arguments[0].value = arguments[1]", field, record)
    field.send_keys(Keys.END, Keys.ENTER)
    wait_until(browser, lambda: "turn 3 of 3" in text_of(browser, "status"), "the record is loaded")
    assert query_of(browser)["moves"] == [TREE] and "line" not in query_of(browser)
    assert tree_buttons(browser) == shown and field.get_attribute("value") == ""

    after = Position.empty(GAME).play_line("b2 a1,c3")
    field.send_keys(f"{after.notation()} b1,c1 a2,a3", Keys.ENTER)
    wait_until(browser, lambda: "turn 2 of 2" in text_of(browser, "status"), "the position and its turns are shown")
    assert query_of(browser)["start"] == [after.notation()] and query_of(browser)["moves"] == ["b1,c1 a2,a3"]
    browser.find_element(By.ID, "copy-position").click()
    wait_until(browser, lambda: "The position is on the clipboard" in text_of(browser, "message"), "the position is copied")
    assert browser.execute_async_script("navigator.clipboard.readText().then(arguments[0])") == \
        after.play_line("b1,c1 a2,a3").notation()


def test_the_tree_s_controls_by_keyboard(browser, necnon_url):
    """From the game list, Tab goes through the tree's turns in order; Enter on a variation's turn shows
    it, the focus staying on it; Tab goes on to Promote, Delete, Copy record and Download record, each
    named, with a visible focus ring at 3:1; Enter on Delete deletes the variation shown, the focus going
    to the turn shown; the paste box takes turns typed and Enter."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    open_tree(browser, necnon_url, moves=TREE)
    buttons = tree_buttons(browser)
    browser.execute_script("document.querySelector('#game .ply').focus()")
    reached = [buttons[0][:2]]
    while reached[-1] != ("1", "3"):
        assert len(reached) < len(buttons), reached
        press(browser, Keys.TAB)
        focused = browser.switch_to.active_element
        reached.append((focused.get_attribute("data-line"), focused.get_attribute("data-ply")))
    assert reached == [button[:2] for button in buttons[:len(reached)]]  # in the order of the list
    press(browser, Keys.ENTER)
    wait_until(browser, lambda: query_of(browser).get("line") == ["1"], "Enter shows the variation")
    assert "turn 3 of 3" in text_of(browser, "status")
    assert browser.switch_to.active_element == browser.find_element(By.CSS_SELECTOR, '#game .ply.current[data-line="1"]')

    names = {}
    for _ in range(len(buttons) + 4):
        press(browser, Keys.TAB)
        focused = browser.switch_to.active_element
        names[focused.get_attribute("id")] = focused.accessible_name
        if focused.get_attribute("id") == "promote":
            ring = browser.execute_script(FOCUS_RING_JS)
        if focused.get_attribute("id") == "download-record":
            break
    tools = ["promote", "delete", "copy-record", "download-record"]
    assert [name for name in names if name in tools] == tools
    assert [names[tool] for tool in tools] == ["Promote variation", "Delete variation", "Copy record", "Download record"]
    assert ring["visible"] and ring["style"] != "none" and ring["width"] >= 2, ring
    for background in ring["backgrounds"]:
        assert contrast(colour(ring["colour"]), composite(background)) >= 3, ring

    ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.TAB, Keys.TAB).key_up(Keys.SHIFT).perform()
    assert browser.switch_to.active_element.get_attribute("id") == "delete"
    press(browser, Keys.ENTER)
    wait_until(browser, lambda: query_of(browser)["moves"] == [TREE.replace(" (a1,b1 c1,a2 (a3,c3))", "")],
               "Enter deletes the variation")
    assert "line" not in query_of(browser) and "turn 1 of 3" in text_of(browser, "status")
    assert browser.switch_to.active_element == browser.find_element(By.CSS_SELECTOR, '#game .ply.current[data-ply="1"]')

    browser.find_element(By.ID, "paste-input").send_keys("b2 (a1) a1,c3", Keys.ENTER)
    wait_until(browser, lambda: query_of(browser).get("moves") == ["b2 (a1) a1,c3"], "the typed turns are loaded")
    assert tree_buttons(browser) == [("0", "1", "b2"), ("1", "1", "a1"), ("0", "2", "a1,c3")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_tree_s_texts_meet_the_aa_contrast(browser, necnon_url, scheme):
    """The tree's texts (turns and numbers of nested variations, current and faint), the export buttons,
    the paste box and its placeholder, and the note of a copied record, at AA in both schemes."""
    from selenium.webdriver.common.by import By

    with media(browser, prefers_color_scheme=scheme):
        open_tree(browser, necnon_url, moves=TREE, line="2", ply="2")
        assert browser.find_element(By.CSS_SELECTOR, '#game .variation .variation .ply.future[data-line="2"]')
        failures = contrast_failures(browser)
        assert not failures, f"{scheme}, a nested variation shown:\n" + "\n".join(failures)
        browser.find_element(By.ID, "copy-record").click()
        wait_until(browser, lambda: "record" in text_of(browser, "message"), "the record's note is shown")
        failures = contrast_failures(browser)
        assert not failures, f"{scheme}, the record's note:\n" + "\n".join(failures)


def test_on_a_phone_the_tree_wraps_within_the_screen(browser, necnon_url):
    with viewport(browser, 390, 844, mobile=True):
        open_tree(browser, necnon_url, moves=TREE, line="2")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
        rightmost = browser.execute_script("return Math.max(...[...document.querySelectorAll("
                                           "'#game .ply, .game-tools button, .fen button, .paste button')].map(item => "
                                           "item.getBoundingClientRect().right))")
        assert rightmost <= 390 - 12


def test_a_link_with_a_refused_turn_keeps_the_turns_before_it_and_its_url(browser, necnon_url):
    """A variation's turn that cannot be played: what comes before it is shown, the variation cut there,
    the refusal named, and the link left as it was shared."""
    moves = "b2 a1,c3 (a1,b1 b1,c2) b1,c1"  # b1 is Green's in the variation
    open_tree(browser, necnon_url, moves=moves)
    wait_until(browser, lambda: text_of(browser, "message"), "the refusal is named")
    assert text_of(browser, "message").startswith("Turn 3, b1,c2, cannot be played")
    assert tree_buttons(browser) == [("0", "1", "b2"), ("0", "2", "a1,c3"), ("1", "2", "a1,b1")]
    assert query_of(browser)["moves"] == [moves]


def test_the_value_history_and_the_statistics(browser, necnon_url):
    """With a table the page draws the value history as Neutreeko's does, its scale the points ahead (a
    point a position, a click on a row goes there), and Statistics opens on the table's figures, as
    /api/stats gives them."""
    from selenium.webdriver.common.by import By

    open_tree(browser, necnon_url, moves=TREE)
    main = TREE.split(" (")[0].split() + ["b1,c1"]
    head = browser.find_element(By.ID, "chart-head").text
    assert "points ahead" in head and "Black ahead" in head and "Green ahead" in head
    assert len(browser.find_elements(By.CSS_SELECTOR, "#chart .point")) == len(main) + 1
    assert "Black's points ahead to the left" in browser.find_element(By.CSS_SELECTOR, ".history .chart-caption").text
    browser.find_element(By.CSS_SELECTOR, '#chart rect.row[data-ply="1"]').click()
    wait_until(browser, lambda: f"turn 1 of {len(main)}" in text_of(browser, "status"), "a click on a row goes there")
    browser.find_element(By.ID, "stats-toggle").click()
    figures = necnon_api(necnon_url, "stats", board="3x3", protocol="nec")
    wait_until(browser, lambda: browser.find_elements(By.CSS_SELECTOR, '#stats tr[data-figure="Positions"]'),
               "the figures are shown")
    assert f"{figures['positions']:,}" in browser.find_element(By.CSS_SELECTOR, '#stats tr[data-figure="Positions"]').text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#stats tr")) == 9 + len(figures["margins"])


def test_on_a_phone_every_turn_of_a_long_game_is_in_the_page_s_flow(browser, necnon_url):
    """16 turns on 7x7 (no table: the search engine's board, no value history): the game list is no
    scroll box of its own, its 16th turn shown in the page, which scrolls."""
    from selenium.webdriver.common.by import By

    turns: list[str] = []
    for _ in range(16):
        rules = necnon_api(necnon_url, "rules", board="7x7", moves=" ".join(turns))
        turns.append(",".join(rules["allowed"][:rules["stones"]]) or "pass")
    with viewport(browser, 390, 844, mobile=True):
        necnon_page(browser, necnon_url, urlencode({"board": "7x7", "protocol": "nec", "moves": " ".join(turns)}))
        wait_until(browser, lambda: "turn 16 of 16" in text_of(browser, "status"), "the game is shown")
        listing = browser.find_element(By.ID, "game")
        assert listing.value_of_css_property("overflow-y") == "visible"
        assert browser.execute_script("return arguments[0].scrollHeight <= arguments[0].clientHeight + 1", listing)
        assert len(game_turns(browser)) == 16 and not browser.find_element(By.ID, "history").is_displayed()


def test_the_position_editor_refuses_what_cannot_occur_and_explores_the_rest(browser, necnon_url, necnon_env):
    """Edit position on 3x3: stones put by click and by key, one dragged; a position no sequence of turns
    leaves is refused with the command line's message; whose turn it is chosen, the stones the turn lays
    said; Explore shows the position; the URL holds it."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.select import Select

    def verdict() -> str:
        return text_of(browser, "editor-verdict")

    def put(kind: str, *names: str) -> None:
        browser.find_element(By.CSS_SELECTOR, f'input[name="put"][value="{kind}"]').click()
        for name in names:
            cell(browser, name).click()

    open_tree(browser, necnon_url)
    browser.find_element(By.ID, "edit-button").click()
    wait_until(browser, lambda: "A legal position: Black to move, lays 1 stone" in verdict(), "the empty board is checked")
    put("black", "b2")
    wait_until(browser, lambda: "Not a legal position" in verdict(), "a position no turns leave is refused")
    printed = invoke("query", "3/1b1/3 b", "--board", "3x3", program=group("necnon"))
    assert printed.exit_code == 2 and printed.stderr.strip().split("error: ", 1)[1] in verdict()
    assert not browser.find_element(By.ID, "editor-explore").is_enabled() and query_of(browser)["edit"] == ["3/1b1/3 b"]
    Select(browser.find_element(By.ID, "editor-side")).select_by_value("g")
    wait_until(browser, lambda: "A legal position: Green to move, lays 2 stones" in verdict(), "Green's turn is legal")
    put("green", "a1")
    board = browser.find_element(By.ID, "board")
    browser.execute_script("arguments[0].focus()", board)
    board.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, "g")  # the cursor from a3 to c3
    ActionChains(browser).drag_and_drop(cell(browser, "c3"), cell(browser, "c1")).perform()
    Select(browser.find_element(By.ID, "editor-side")).select_by_value("b")
    wait_until(browser, lambda: "A legal position: Black to move, lays 2 stones" in verdict(), "the position set up is legal")
    assert query_of(browser)["edit"] == ["3/1b1/g1g b"]
    browser.find_element(By.ID, "editor-explore").click()
    wait_until(browser, lambda: text_of(browser, "fen") == "3/1b1/g1g b" and "Black to move" in text_of(browser, "status"),
               "the position is explored")
    assert query_of(browser)["start"] == ["3/1b1/g1g b"] and not browser.find_element(By.ID, "editor").is_displayed()


def test_while_the_editor_is_open_no_turn_of_the_view_left_is_offered(browser, necnon_url):
    """The editor open: the turns panel says the turns show once the position is explored and holds none
    of the view left, the tools are hidden and the game takes no click; Cancel brings them all back."""
    from selenium.webdriver.common.by import By

    inert = "return document.querySelector('.game-panel').inert"
    open_tree(browser, necnon_url, moves=TREE, ply="1")
    browser.find_element(By.ID, "edit-button").click()
    wait_until(browser, lambda: browser.find_element(By.ID, "editor").is_displayed(), "the editor is open")
    assert browser.execute_script("return document.activeElement.closest('#editor') !== null")
    assert text_of(browser, "turns") == "Editing: the turns show once you explore the position."
    assert not text_of(browser, "turns-caption") and not browser.find_elements(By.CSS_SELECTOR, "#turns button")
    assert not browser.find_element(By.CSS_SELECTOR, ".tools-panel").is_displayed() and browser.execute_script(inert)
    browser.find_element(By.ID, "editor-cancel").click()
    wait_until(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#turns button.move"), "Cancel shows the turns")
    assert browser.find_element(By.ID, "edit-button").is_displayed() and not browser.execute_script(inert)
    assert query_of(browser)["moves"] == [TREE]
