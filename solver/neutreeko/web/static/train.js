/* The training page: puzzles one after another, values hidden, each try judged by the table as
 * `neutreeko train` judges it.
 *
 * A set is the puzzles of /api/puzzles (those of `neutreeko puzzles --count 20 --seed S`, easiest first);
 * each is shown with its task from /api/try (the legal moves, no values), the player's move is sent to
 * /api/try, and its answer (the verdict, the solution line) is shown. A link from the explorer's game
 * (?position=P&played=M) is a set of one: the position before a mistake, where any move that keeps the
 * value is right.
 *
 * The URL holds the puzzle shown (?board=5x5&rule=connected&kind=all&seed=S&puzzle=K, K from 1), so a link
 * reproduces it. Progress is kept in localStorage: the set (board, rule, kind, seed), the puzzle shown, and
 * the first result of every puzzle tried, by its position: a page opened without a puzzle in its URL goes
 * back to where it was. Storage may be refused (a browser's privacy settings): progress then lasts as long
 * as the page.
 */
"use strict";

(() => {
  const {$, element, html, queryText, api, say, quiet} = Page;  // page.js
  const {CELL, CURSOR_STEPS, piecesOf, squaresOf} = BoardView;  // board.js
  // The puzzles of a set: `neutreeko puzzles`' default count, so that a link's set is that command's.
  const SET_SIZE = 20;
  const STORAGE = "neutreeko-train.progress";
  const boardSvg = $("board");

  const stored = (() => {
    try {
      return JSON.parse(localStorage.getItem(STORAGE)) || {};
    } catch (error) {
      return {};  // refused or unreadable: a fresh start
    }
  })();
  // set: {board, rule, kind, seed} or, from the explorer's game, {board, rule, position, played}.
  const progress = {set: stored.set || null, index: stored.index || 0, results: stored.results || {}};

  function keep() {
    try {
      localStorage.setItem(STORAGE, JSON.stringify(progress));
    } catch (error) { /* refused: kept for this page only */ }
  }

  // positions: the set's positions; exercise: the /api/try answer of the puzzle shown; judged: its
  // answer to the move tried, or null; selected, cursor: squares of the board, or null.
  const state = {positions: [], exercise: null, judged: null, selected: null, cursor: null};
  const shape = () => BoardView.geometry(progress.set.board, false);
  const idOf = position => `${progress.set.board}|${progress.set.rule}|${position}`;
  const newSeed = () => Math.floor(Math.random() * 1e9);

  /** The set and puzzle a URL's query asks for, or null if it names none. */
  function askedSet(query) {
    const board = query.get("board") || "5x5", rule = query.get("rule") || "connected";
    if (query.has("position")) {
      return {set: {board, rule, position: query.get("position"), played: query.get("played") || ""}, index: 0};
    }
    if (!query.has("seed")) return null;
    const puzzle = Number(query.get("puzzle") || 1);
    return {set: {board, rule, kind: query.get("kind") || "all", seed: Number(query.get("seed"))},
            index: Number.isInteger(puzzle) && puzzle > 0 ? puzzle - 1 : 0};
  }

  function linkQuery() {
    const {board, rule, kind, seed, position, played} = progress.set;
    return queryText(position ? [["board", board], ["rule", rule], ["position", position], ["played", played]]
      : [["board", board], ["rule", rule], ["kind", kind], ["seed", seed], ["puzzle", progress.index + 1]]);
  }

  /** Open the set ``set`` at puzzle ``index``: its positions asked of the server, then the puzzle shown. */
  async function openSet(set, index) {
    progress.set = set;
    if (set.position) {
      state.positions = [set.position];
    } else {
      const found = await api("puzzles", {board: set.board, rule: set.rule, kind: set.kind, seed: set.seed,
                                          count: SET_SIZE});
      state.positions = found.puzzles.map(puzzle => puzzle.position);
    }
    await showPuzzle(Math.min(index, state.positions.length - 1));
  }

  async function showPuzzle(index) {
    const exercise = await api("try", {position: state.positions[index], board: progress.set.board,
                                       rule: progress.set.rule});
    Object.assign(state, {exercise, judged: null, selected: null});
    progress.index = index;
    state.cursor = state.cursor && piecesOf(exercise.position, exercise.board).length ? firstCursor() : null;
    keep();
    history.replaceState(null, "", `/train?${linkQuery()}`);
    quiet();
    render();
  }

  /** Try ``move`` on the puzzle shown: the table's judgement, the puzzle's first result kept. */
  async function tryMove(move) {
    const {exercise} = state;
    state.selected = null;
    const judged = await api("try", {position: exercise.position, board: exercise.board, rule: exercise.rule, move});
    if (state.exercise !== exercise) return;  // another puzzle was opened meanwhile
    state.judged = judged;
    const id = idOf(exercise.position);
    if (!(id in progress.results)) progress.results[id] = judged.correct ? "solved" : "failed";
    keep();
    render();
    $("next").focus({preventScroll: true});
  }

  // -- drawing -----------------------------------------------------------------------------------------

  function render() {
    renderStatus();
    renderBoard();
    renderVerdict();
    renderProgress();
    const {exercise} = state, single = Boolean(progress.set.position);
    $("previous").disabled = single || progress.index === 0;
    $("next").disabled = single || progress.index >= state.positions.length - 1;
    $("fen").textContent = exercise.position;
    const moves = state.judged ? state.judged.line.join(" ") : "";
    $("explore").href = `/?${queryText([["board", exercise.board], ["rule", exercise.rule],
                                        ["start", exercise.position], ...(moves ? [["moves", moves]] : [])])}`;
    $("board-select").value = progress.set.board;
    $("kind-select").value = progress.set.kind || "all";
    $("kind-select").disabled = single;
  }

  function renderStatus() {
    const {exercise} = state, {played} = progress.set;
    const icon = element("svg", {viewBox: "0 0 20 20", class: "piece-icon", "aria-hidden": "true"});
    icon.append(element("circle", {cx: 10, cy: 10, r: 8, class: `piece ${exercise.side}`}));
    const where = progress.set.position
      ? (played ? `the game played ${played} here` : "from a game")
      : `puzzle ${progress.index + 1} of ${state.positions.length}`;
    $("status").replaceChildren(icon, html("strong", {}, exercise.task), html("span", {class: "ply"}, where));
    document.title = `${exercise.task} · Neutreeko training`;
  }

  /** The moves of the piece on ``square`` in the puzzle shown, by target square (none once tried). */
  function targetsOf(square) {
    const targets = new Map();
    if (!square || state.judged) return targets;
    for (const move of state.exercise.moves) {
      const [origin, target] = squaresOf(move);
      if (origin === square) targets.set(target, move);
    }
    return targets;
  }

  const movable = square => targetsOf(square).size > 0;

  function renderBoard() {
    const {exercise, selected, cursor} = state;
    BoardView.draw(boardSvg, {
      board: exercise.board, flipped: false, position: exercise.position,
      label: `Board ${exercise.position}` + (cursor ? `, the cursor on ${cursor}` : "") +
             (selected ? `, the piece on ${selected} picked up` : ""),
      last: state.judged ? state.judged.move : null, selected, cursor, targets: targetsOf(selected), movable,
      target: (move, {x, y}) => element("circle", {cx: x, cy: y, r: 0.16 * CELL, class: "spot"}),  // no value
      winner: null, drag: null, slide: null,
    });
  }

  function renderVerdict() {
    const {judged} = state, box = $("verdict");
    box.className = `verdict${judged ? (judged.correct ? " correct" : " wrong") : ""}`;
    box.textContent = judged ? judged.verdict : "Your move: pick up a piece, then choose where it goes.";
    $("solution").textContent = judged ? judged.solution : "";
  }

  function renderProgress() {
    const list = $("puzzles"), single = Boolean(progress.set.position);
    const results = state.positions.map(position => progress.results[idOf(position)]);
    const answered = results.filter(Boolean).length, solved = results.filter(result => result === "solved").length;
    $("score").textContent = `score: ${solved} of ${answered} solved`;  // as neutreeko train's last line
    $("set-caption").textContent = single ? "a position from a game"
      : `seed ${progress.set.seed}, ${progress.set.kind}, ${state.positions.length} puzzles`;
    list.replaceChildren(...state.positions.map((position, index) => {
      const result = results[index] || "untried";
      const button = html("button", {type: "button", class: `${result}${index === progress.index ? " current" : ""}`,
                                     "aria-label": `Puzzle ${index + 1}: ${result}`,
                                     "aria-current": index === progress.index ? "true" : null,
                                     title: `Puzzle ${index + 1}: ${result}`}, String(index + 1));
      button.addEventListener("click", () => act(() => showPuzzle(index)));
      const item = html("li");
      item.append(button);
      return item;
    }));
  }

  // -- input: a click on a piece then on a target; on the board, the arrows and Enter --------------------

  /** Errors of ``change`` are said in the message line. */
  function act(change) {
    Promise.resolve().then(change).catch(error => say(error.message));
  }

  /** A square chosen: a target of the piece picked up tries its move; a piece that can move is picked up. */
  function choose(square) {
    const move = targetsOf(state.selected).get(square);
    if (move) {
      act(() => tryMove(move));
      return;
    }
    state.selected = square && movable(square) ? square : null;
    renderBoard();
  }

  boardSvg.addEventListener("pointerdown", event => {
    if (event.button === 0 && state.exercise) choose(shape().squareAt(shape().pointOf(boardSvg, event)));
  });

  const firstCursor = () => piecesOf(state.exercise.position, state.exercise.board)
    .map(piece => piece.square).find(movable) || "A1";

  boardSvg.addEventListener("focus", () => {
    if (!state.exercise) return;
    state.cursor = state.cursor || firstCursor();
    renderBoard();
  });

  boardSvg.addEventListener("keydown", event => {
    if (!state.exercise || event.altKey || event.ctrlKey || event.metaKey) return;
    state.cursor = state.cursor || firstCursor();
    if (event.key in CURSOR_STEPS) {
      state.cursor = shape().step(state.cursor, event.key);
      renderBoard();
    } else if (event.key === "Enter" || event.key === " ") {
      choose(state.cursor);
    } else if (event.key === "Escape") {
      state.selected = null;
      renderBoard();
    } else {
      return;
    }
    event.preventDefault();
  });

  $("next").addEventListener("click", () => act(() => showPuzzle(progress.index + 1)));
  $("previous").addEventListener("click", () => act(() => showPuzzle(progress.index - 1)));

  $("new-set").addEventListener("click", () => act(() => {
    const {board, rule} = progress.set;
    return openSet({board, rule, kind: $("kind-select").value, seed: newSeed()}, 0);
  }));
  $("kind-select").addEventListener("change", () => act(() => {
    const {board, rule, seed} = progress.set;
    return openSet({board, rule, kind: $("kind-select").value, seed}, 0);
  }));
  $("board-select").addEventListener("change", () => act(() =>
    openSet({board: $("board-select").value, rule: "connected", kind: $("kind-select").value,
             seed: progress.set.seed ?? newSeed()}, 0)));

  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      say("A link to this puzzle is on the clipboard.", "note");
    } catch (error) {
      say(`A link to this puzzle: ${location.href}`, "note");  // the clipboard refused (an insecure origin)
    }
  });

  // -- start ---------------------------------------------------------------------------------------------

  act(async () => {
    const games = (await api("games")).games.filter(entry => entry.game === "neutreeko" && entry.table !== "missing");
    $("board-select").replaceChildren(...[...new Set(games.map(entry => entry.board))]
      .map(board => html("option", {value: board}, board)));
    const asked = askedSet(new URLSearchParams(location.search));
    const fresh = {set: {board: "5x5", rule: "connected", kind: "all", seed: newSeed()}, index: 0};
    const {set, index} = asked || (progress.set ? {set: progress.set, index: progress.index} : fresh);
    await openSet(set, index);
  });
})();
