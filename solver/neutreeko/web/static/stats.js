/* The explorer's statistics panel: the counts of the table of the board and rule shown, the start's
 * value and the longest wins, as /api/stats answers (the object of ``neutreeko stats --json``).
 *
 * The panel is closed as the page starts and asks the server nothing until it is opened: counting a
 * table reads all of it (a tenth of a second on 5 x 5, a minute or more on the largest boards), which
 * must not delay the board. Opened, it asks for the board and rule shown, and again whenever they
 * change. A large table is counted in the server's background: until it is, the answer has
 * ``"counting": true`` and the counts the table's file states, and the panel asks again every POLL ms
 * while it stays open on that board. A complete answer is kept for as long as the page.
 */
"use strict";

const StatsPanel = (() => {
  const {$, html, capitalise, plyCount, queryText, api} = Page;  // page.js
  const POLL = 2000;
  const toggle = $("stats-toggle"), panel = $("stats");
  const answers = new Map();  // "board|rule" -> the complete /api/stats answer
  let shown = null;     // {board, rule}: the table the panel is for
  let asking = 0;       // the number of the latest request: an answer to an older one is dropped
  let timer = null;
  let hooks = {pill: null, open: null};

  const isOpen = () => toggle.getAttribute("aria-expanded") === "true";
  const number = count => count.toLocaleString("en-US");

  /**
   * Let the panel draw values and open positions as the explorer does: ``pill(value)`` is the element
   * of an /api/position object's value, ``open(parameters)`` shows the view of a link's URL parameters.
   */
  function attach(explorerHooks) {
    hooks = explorerHooks;
  }

  /** Make the panel the one of ``board`` and ``rule`` (the explorer calls it whenever it draws the view). */
  function show(board, rule) {
    if (shown && shown.board === board && shown.rule === rule) return;
    shown = {board, rule};
    $("stats-caption").textContent = `${board} ${rule}`;
    if (isOpen()) refresh();
  }

  toggle.addEventListener("click", () => {
    const open = !isOpen();
    toggle.setAttribute("aria-expanded", String(open));
    panel.hidden = !open;
    if (open) {
      refresh();
    } else {
      asking += 1;
      clearTimeout(timer);
    }
  });

  // A longest win's link opens its position in this page, as a new view (the back button undoes it);
  // with a modifier key or another button it is an ordinary link (a new tab or window).
  panel.addEventListener("click", event => {
    const link = event.target.closest("a.position");
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    hooks.open(new URLSearchParams(link.search));
  });

  /** Ask for the figures of the table shown (unless kept) and draw them; again after POLL ms while counted. */
  async function refresh() {
    clearTimeout(timer);
    if (!shown) return;  // the page is starting: show() comes with the first view
    const request = ++asking, {board, rule} = shown, key = `${board}|${rule}`;
    let answer = answers.get(key);
    if (!answer) {
      if (!panel.querySelector(`[data-key="${CSS.escape(key)}"]`)) {
        panel.replaceChildren(html("p", {class: "empty"}, "Counting the table ..."));
      }
      try {
        answer = await api("stats", {board, rule});
      } catch (error) {
        if (request === asking) panel.replaceChildren(html("p", {class: "stats-error"}, capitalise(error.message)));
        return;
      }
      if (!answer.counting) answers.set(key, answer);
    }
    if (request !== asking) return;  // closed, or another board shown, meanwhile
    draw(answer, key);
    if (answer.counting) timer = setTimeout(refresh, POLL);
  }

  function draw(answer, key) {
    const share = count => (answer.legal ? `${(100 * count / answer.legal).toFixed(2)} %` : "");
    const rows = [
      ["Legal positions", number(answer.legal), ""],
      ["Wins", number(answer.wins), share(answer.wins)],
      ["Losses", number(answer.losses), share(answer.losses)],
      ["Draws", number(answer.draws), share(answer.draws)],
      ["Lost with no move", number(answer.no_move), ""],
      ["Longest win", plyCount(answer.longest_win), ""],
      ["Longest loss", plyCount(answer.longest_loss), ""],
    ];
    const table = Page.figures("Values for the side to move", rows);
    const start = html("tr", {"data-figure": "Start"}), value = html("td", {colspan: "2", class: "start"});
    value.append(html("span", {class: "side"}, `${capitalise(answer.start.to_move)} to move `), hooks.pill(answer.start));
    start.append(html("th", {scope: "row"}, "Start"), value);
    table.append(start);
    const parts = [table];
    if (answer.counting) {
      parts.push(html("p", {class: "empty"}, "The counts the table's file states: counting its positions by " +
                                              "distance for the longest wins (a large table: a minute or more) ..."));
    } else if (answer.longest_wins.length) {
      parts.push(html("h3", {}, `Longest wins, ${plyCount(answer.longest_win)}: one position of each symmetry class`),
                 longestWins(answer));
    } else {
      parts.push(html("p", {class: "empty"}, "No position is won."));
    }
    const frame = html("div", {"data-key": key, "data-counting": String(answer.counting)});
    frame.append(...parts);
    panel.replaceChildren(frame);
  }

  function longestWins(answer) {
    const list = html("ol", {class: "longest"});
    for (const {position, class_size: size} of answer.longest_wins) {
      const item = html("li");
      item.append(html("a", {class: "position", title: "Show this position",
                             href: "?" + queryText([["board", answer.board], ["rule", answer.rule], ["start", position]])},
                       position),
                  html("span", {class: "size"}, `${size} ${size === 1 ? "position" : "positions"}`));
      list.append(item);
    }
    return list;
  }

  return {attach, show};
})();
