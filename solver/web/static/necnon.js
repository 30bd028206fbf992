/* The NECNON page of the explorer: the board as `necnon show` draws it (squares or hexagons), on each cell
 * the side to move may play the best value of a turn with a stone there, every turn best first, the game
 * and its end with the smothered groups struck through; a turn played by choosing one or two cells and
 * confirming (a pass when no cell is allowed), against the table or, on a board without one, the search
 * engine.
 *
 * Everything the page knows of the game comes from the server (solver/web/necnon_api.py): /api/games (the
 * boards and protocols, and their tables), /api/game (the board's cells and where they are drawn, and for
 * the start and each turn of the game the position's state, which cells are allowed and how many stones
 * a turn lays, and its values where there is a table), /api/line (the perfect line) and /api/search (the
 * search engine's view). The page never decides a rule or a value: a cell may be chosen when the state
 * allows it, a turn is played when the server reads it.
 *
 * The view is the board, the protocol, the start, the turns and the ply shown; the URL holds it
 * (/necnon?board=3x3&protocol=nec&moves=b2+a1,c3&ply=1), so a link reproduces it. A turn played before
 * the end of the game replaces the turns after it.
 */
"use strict";

(() => {
  const {$, element, html, capitalise, queryText, api, say, quiet} = Page;  // page.js
  const CELL = 100;   // a cell's width in board units (the server's centres are in cell widths)
  const MARGIN = 12;  // board units around the cells
  const REPLY_DELAY = 300;  // ms before the table's reply is played
  const boardSvg = $("board");

  /** "+2", "-1", "0": a value, Black's points minus Green's. */
  const label = value => (value > 0 ? `+${value}` : String(value));
  const turnsText = count => `${count} ${count === 1 ? "turn" : "turns"}`;
  /** "Black by 2 in 5 turns", "draw in 3 turns", as the tables word a value. */
  function terse({value, turns}) {
    const head = value === 0 ? "draw" : `${value > 0 ? "Black" : "Green"} by ${Math.abs(value)}`;
    return turns === 0 ? `${head}, game over` : `${head} in ${turnsText(turns)}`;
  }

  let games = [];  // /api/games: NECNON's entries, [{game, board, protocol, table}]
  const catalogue = api("games").then(answer => {
    games = answer.games.filter(entry => entry.game === "necnon");
    fillSelectors();
  });
  // grid: /api/game's grid object; positions[i], values[i]: the state and the /api/position object (null
  // without a table) of the position after i turns; views: the engine's views, by position.
  const state = {board: null, protocol: null, start: "empty", grid: null, turns: [], positions: [], values: null,
                 ply: 0, views: new Map()};
  let chosen = [];     // the cells chosen for the turn being played
  let cursor = null;   // the keyboard's cell on the board
  let replyTimer = null;

  const shown = () => state.positions[state.ply];
  const valued = () => (state.values ? state.values[state.ply] : null);
  const cellAt = name => state.grid.cells.find(cell => cell.name === name);
  const order = name => state.grid.cells.findIndex(cell => cell.name === name);

  // -- the view and the URL -------------------------------------------------------------------------

  function viewOf(parameters) {
    const ply = parameters.get("ply");
    return {board: parameters.get("board"), protocol: parameters.get("protocol"),
            start: parameters.get("start") || "empty",
            turns: (parameters.get("moves") || "").split(/\s+/).filter(Boolean),
            ply: ply !== null && /^\d+$/.test(ply) ? Number(ply) : null};
  }

  function record(how) {
    const parts = [["board", state.board], ["protocol", state.protocol]];
    if (state.start !== "empty") parts.push(["start", state.start]);
    if (state.turns.length) parts.push(["moves", state.turns.join(" ")]);
    if (state.ply !== state.turns.length) parts.push(["ply", String(state.ply)]);
    const query = "?" + queryText(parts);
    if (query === location.search) return;
    if (how === "push") history.pushState(null, "", query);
    else history.replaceState(null, "", query);
  }

  /**
   * Show ``view``, asking the server for its whole game (/api/game), recorded in the URL as ``how``
   * says ("push", "replace", or null: nothing); returns why one of its turns was refused, or null.
   */
  async function show(view, how) {
    const asked = api("game", {game: "necnon", board: view.board, protocol: view.protocol, position: view.start,
                               moves: view.turns.join(" ")});
    await catalogue;
    const entry = games.find(game => game.board === view.board && game.protocol === view.protocol);
    if (entry && entry.table === "on demand") say(`Building the ${view.board} ${view.protocol} table (first use) ...`, "note");
    const answer = await asked;
    if (entry && entry.table === "on demand") {
      entry.table = "ready";
      quiet();
    }
    const first = answer.positions[0];
    Object.assign(state, {board: first.board, protocol: first.protocol, start: answer.start, grid: answer.grid,
                          turns: view.turns.slice(0, answer.positions.length - 1), positions: answer.positions,
                          values: answer.values});
    state.ply = view.ply === null || view.ply > state.turns.length ? state.turns.length : view.ply;
    chosen = [];
    if (cursor && !cellAt(cursor)) cursor = null;
    if (how) record(how);
    render();
    if (answer.refused) say(`${capitalise(answer.refused)}; the turns before it are shown.`);
    return answer.refused;
  }

  // Every change of the view runs in turn, so that a click arriving while an answer is awaited waits.
  let queue = Promise.resolve();

  function act(change) {
    queue = queue.then(change).catch(error => say(capitalise(error.message)));
    return queue;
  }

  function goTo(ply) {
    cancelReply();
    const target = Math.max(0, Math.min(state.turns.length, ply));
    if (target === state.ply) return;
    state.ply = target;
    chosen = [];
    record("replace");
    render();
  }

  /** Play the turn ``name`` from the position shown (the turns after it go); the reply follows if asked. */
  async function play(name, {byReply = false} = {}) {
    cancelReply();
    await show({board: state.board, protocol: state.protocol, start: state.start,
                turns: [...state.turns.slice(0, state.ply), name], ply: null}, "push");
    if (!byReply && $("reply-toggle").checked && !shown().over) {
      replyTimer = setTimeout(() => act(reply), state.values ? REPLY_DELAY : 0);
    }
  }

  /** The other side's turn: the table's best, or the search engine's choice after its thinking time. */
  async function reply() {
    replyTimer = null;
    if (shown().over || state.ply !== state.turns.length) return;
    if (state.values) {
      await play(valued().ranking[0].turn, {byReply: true});
      return;
    }
    const view = await think();
    await play(view.turns[0].turn, {byReply: true});
  }

  /** The search engine's view of the position shown (/api/search), kept for it and listed. */
  async function think() {
    const position = shown().position, seconds = $("think-select").value;
    say(`The search engine thinks for ${seconds} s ...`, "note");
    const view = await api("search", {game: "necnon", board: state.board, protocol: state.protocol, position, seconds});
    state.views.set(position, view);
    quiet();
    return view;
  }

  function cancelReply() {
    clearTimeout(replyTimer);
    replyTimer = null;
  }

  // -- choosing a turn on the board ---------------------------------------------------------------

  /** Choose ``name`` for the turn (or take it back if chosen): an allowed cell, up to the turn's stones. */
  function choose(name) {
    const position = shown();
    if (!position.allowed.includes(name)) return;
    if (chosen.includes(name)) chosen = chosen.filter(cell => cell !== name);
    else if (chosen.length < position.stones) chosen = [...chosen, name];
    else chosen = [...chosen.slice(0, position.stones - 1), name];
    renderBoard();
    renderTurnBar();
  }

  /** The turn chosen, as the rules write it (its cells in board order), when it is whole; else null. */
  function chosenTurn() {
    const position = shown();
    if (position.over) return null;
    if (position.stones === 0) return "pass";
    return chosen.length === position.stones ? [...chosen].sort((a, b) => order(a) - order(b)).join(",") : null;
  }

  function confirm() {
    const turn = chosenTurn();
    if (!turn) return;
    const fromKeys = document.activeElement === $("confirm");
    act(async () => {
      await play(turn);
      if (fromKeys) boardSvg.focus({preventScroll: true});  // the game goes on from the keyboard
    });
  }

  /**
   * For each cell a turn of the position shown lays a stone on, the best turn doing so, given the cells
   * chosen already (the ranking is best first); from the table's values, or none.
   */
  function bestByCell() {
    const best = new Map(), node = valued();
    if (!node) return best;
    for (const entry of node.ranking) {
      const cells = entry.turn === "pass" ? [] : entry.turn.split(",");
      if (!chosen.every(cell => cells.includes(cell))) continue;
      for (const cell of cells) if (!chosen.includes(cell) && !best.has(cell)) best.set(cell, entry);
    }
    return best;
  }

  // -- rendering ------------------------------------------------------------------------------------

  function render() {
    renderStatus();
    renderBoard();
    renderTurnBar();
    renderTurns();
    renderGame();
    renderControls();
  }

  function stoneIcon(colour) {
    const icon = element("svg", {viewBox: "0 0 20 20", class: "stone-icon", "aria-hidden": "true"});
    icon.append(element("circle", {cx: 10, cy: 10, r: 8, class: colour}));
    return icon;
  }

  function pill(value, keeps) {
    return html("span", {class: `pill ${keeps ? "keeps" : "worse"}`}, label(value));
  }

  function renderStatus() {
    const position = shown(), node = valued(), status = $("status");
    status.replaceChildren();
    if (position.over) {
      status.append(html("strong", {}, `Game over: ${position.result}`));
    } else {
      status.append(stoneIcon(position.to_move), html("strong", {}, `${capitalise(position.to_move)} to move`));
      if (node) status.append(html("span", {class: "pill keeps"}, terse(node)));
    }
    status.append(html("span", {class: "ply"}, `turn ${state.ply} of ${state.turns.length}`));
    $("fen").textContent = position.position;
    document.title = `${position.position} · ${state.board} ${state.protocol} · NECNON explorer`;
  }

  /** A cell's outline in board units, centred on (x, y): a square, or a hexagon pointy side up. */
  function outline(x, y) {
    if (state.grid.kind === "square") {
      return element("rect", {x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, class: "outline"});
    }
    const radius = CELL / Math.sqrt(3);
    const corners = [0, 1, 2, 3, 4, 5].map(k => [x + radius * Math.cos(Math.PI / 2 + k * Math.PI / 3),
                                                 y - radius * Math.sin(Math.PI / 2 + k * Math.PI / 3)]);
    return element("polygon", {points: corners.map(point => point.map(n => n.toFixed(2)).join(",")).join(" "),
                               class: "outline"});
  }

  const centre = cell => ({x: MARGIN + cell.x * CELL, y: MARGIN + cell.y * CELL});

  function renderBoard() {
    const position = shown(), [width, height] = state.grid.extent;
    const across = 2 * MARGIN + width * CELL, down = 2 * MARGIN + height * CELL;
    boardSvg.setAttribute("viewBox", `0 0 ${across} ${down}`);
    boardSvg.style.width = `${100 * across / Math.max(across, down)}%`;  // a tall board narrower, not taller
    boardSvg.setAttribute("aria-label", `Board ${state.board}, ${position.position}` +
                          (cursor ? `, the cursor on ${cursor}` : "") + (chosen.length ? `, chosen ${chosen.join(" ")}` : ""));
    const last = state.ply > 0 && state.turns[state.ply - 1] !== "pass" ? state.turns[state.ply - 1].split(",") : [];
    const stones = stonesOf(position.position), best = bestByCell(), node = valued();
    const keeps = node && node.ranking.length ? node.ranking[0].value : null;
    const bestTurn = node && node.ranking.length && !chosen.length ? node.ranking[0].turn.split(",") : [];
    const cells = element("g", {class: "cells"}), marks = element("g", {class: "marks"});
    for (const cell of state.grid.cells) {
      const {x, y} = centre(cell), stone = stones.get(cell.name), allowed = position.allowed.includes(cell.name);
      const group = element("g", {class: `cell${allowed ? " allowed" : ""}${chosen.includes(cell.name) ? " chosen" : ""}`,
                                  "data-cell": cell.name});
      group.append(outline(x, y));
      if (stone || chosen.includes(cell.name)) {
        if (last.includes(cell.name)) group.append(element("circle", {cx: x, cy: y, r: 0.43 * CELL, class: "last-ring"}));
        group.append(element("circle", {cx: x, cy: y, r: 0.36 * CELL,
                                        class: `stone ${stone || position.to_move}${stone ? "" : " ghost"}`}));
      } else {
        if (!allowed && !position.over) {
          const arm = 0.11 * CELL;
          group.append(element("path", {d: `M${x - arm} ${y - arm}L${x + arm} ${y + arm}M${x - arm} ${y + arm}L${x + arm} ${y - arm}`,
                                        class: "forbidden"}));
        } else if (best.has(cell.name)) {
          const entry = best.get(cell.name);
          if (bestTurn.includes(cell.name)) {
            group.append(element("circle", {cx: x, cy: y - 0.06 * CELL, r: 0.22 * CELL, class: "best-ring"}));
          }
          const value = element("text", {x, y: y - 0.06 * CELL, "font-size": 0.22 * CELL,
                                         class: `value${entry.value === keeps ? " keeps" : ""}`}, label(entry.value));
          value.append(element("title", {}, `${cell.name}: at best ${terse(entry)}`));
          group.append(value);
        }
        group.append(element("text", {x, y: y + 0.3 * CELL, "font-size": 0.15 * CELL, class: "name"}, cell.name));
      }
      cells.append(group);
    }
    for (const group of position.over ? position.smothered : []) {
      for (const name of group.cells) {
        const {x, y} = centre(cellAt(name)), arm = 0.3 * CELL;
        marks.append(element("line", {x1: x - arm, y1: y + arm, x2: x + arm, y2: y - arm, class: "smothered"}));
      }
    }
    if (cursor) {
      const {x, y} = centre(cellAt(cursor)), ring = outline(x, y);
      ring.setAttribute("class", "cursor");
      ring.setAttribute("transform", `translate(${x} ${y}) scale(0.8) translate(${-x} ${-y})`);
      marks.append(ring);
    }
    boardSvg.replaceChildren(cells, marks);
  }

  /** The stones of a position in notation, by cell: its rows top first, as the grid's rows are. */
  function stonesOf(notation) {
    const stones = new Map();
    notation.split(" ")[0].split("/").forEach((row, number) => {
      let at = 0;
      for (const token of row.match(/\d+|[bg]/g) || []) {
        if (/\d/.test(token)) {
          at += Number(token);
        } else {
          stones.set(state.grid.rows[number][at], token === "b" ? "black" : "green");
          at += 1;
        }
      }
    });
    return stones;
  }

  function renderTurnBar() {
    const position = shown(), turn = chosenTurn(), text = $("chosen");
    const confirmButton = $("confirm");
    if (position.over) {
      text.textContent = "The game is over.";
    } else if (position.stones === 0) {
      text.textContent = `${capitalise(position.to_move)} has no allowed cell: a pass.`;
    } else if (turn) {
      text.textContent = `${turn}: play it, or choose again.`;
    } else {
      const left = position.stones - chosen.length;
      text.textContent = `${chosen.length ? chosen.join(", ") + " chosen; choose" : `${capitalise(position.to_move)}: choose`} ` +
                         `${left === 1 && chosen.length ? "one more cell" : `${left} cell${left === 1 ? "" : "s"}`}.`;
    }
    confirmButton.textContent = turn === "pass" ? "Pass" : turn ? `Play ${turn}` : "Play";
    confirmButton.disabled = !turn;
    $("clear").disabled = !chosen.length;
  }

  /** Every turn of the position shown, best first (the table's), or the search engine's view of it. */
  function renderTurns() {
    const position = shown(), node = valued(), panel = $("turns"), caption = $("turns-caption");
    panel.replaceChildren();
    caption.textContent = "";
    if (position.over) {
      panel.append(html("p", {class: "empty"}, "The game is over: no turns."));
      return;
    }
    if (node) {
      caption.textContent = `${capitalise(position.to_move)}'s ${node.ranking.length}, best first`;
      const best = node.ranking[0];
      for (const entry of node.ranking) {
        const isBest = entry.value === best.value && entry.turns === best.turns;
        panel.append(turnButton(entry.turn, `${entry.turn}: ${terse(entry)}${isBest ? " (best)" : ""}`, isBest,
                                html("span", {class: "turns"}, turnsText(entry.turns)), pill(entry.value, entry.value === best.value)));
      }
      return;
    }
    const view = state.views.get(position.position);
    if (!view) {
      panel.append(html("p", {class: "empty"}, "No table for this board: ask the search engine for its view."));
      return;
    }
    caption.textContent = view.solved
      ? `the search engine's, the rest solved exactly (${view.nodes.toLocaleString("en")} nodes in ${view.seconds} s)`
      : `the search engine's, ${view.iterations.toLocaleString("en")} playouts in ${view.seconds} s`;
    for (const entry of view.turns.slice(0, 30)) {
      const words = view.solved ? `keeps the perfect margin ${label(entry.mean_margin)}`
        : `${entry.visits} playouts, ${Math.round(100 * entry.won)}% won, mean ${label(Math.round(10 * entry.mean_margin) / 10)}`;
      panel.append(turnButton(entry.turn, `${entry.turn}: ${words}`, entry === view.turns[0],
                              html("span", {class: "view"}, words)));
    }
  }

  function turnButton(turn, title, best, ...parts) {
    const button = html("button", {type: "button", class: `move${best ? " best" : ""}`, "data-turn": turn, title});
    button.append(html("span", {class: "name"}, turn), ...parts);
    button.addEventListener("click", () => act(() => play(turn)));
    return button;
  }

  /** The turns of the game, each a button going there; the end's score, its smothered groups named. */
  function renderGame() {
    const list = $("game");
    list.replaceChildren();
    state.turns.forEach((turn, at) => {
      const ply = at + 1, by = state.positions[at].to_move;
      const classes = ["ply", ply === state.ply ? "current" : "", ply > state.ply ? "future" : ""].filter(Boolean);
      const button = html("button", {type: "button", class: classes.join(" "), "data-ply": ply,
                                     title: `Go to the position after turn ${ply}`});
      button.append(html("span", {class: "number"}, `${ply}.`), stoneIcon(by), html("span", {class: "turn"}, turn));
      if (state.values) button.append(html("span", {class: "label"}, label(state.values[ply].value)));
      button.addEventListener("click", () => goTo(ply));
      const item = html("li");
      item.append(button);
      list.append(item);
    });
    if (!state.turns.length) list.append(html("li", {class: "empty"}, "No turns yet: choose a cell on the board."));
    const end = state.positions[state.positions.length - 1];
    $("game-caption").textContent = state.turns.length ? turnsText(state.turns.length) : "";
    const smothered = end.smothered.map(group => `${group.colour} ${group.cells.join(" ")}`).join("; ");
    $("score").textContent = end.over
      ? `${capitalise(end.result)}: Black ${end.points.black} points, Green ${end.points.green}` +
        (smothered ? ` (smothered: ${smothered}).` : " (nothing smothered).") : "";
    const current = list.querySelector(".current");
    if (current) {  // into view inside the list, never scrolling the window
      const box = current.getBoundingClientRect(), frame = list.getBoundingClientRect();
      if (box.top < frame.top) list.scrollTop -= frame.top - box.top;
      else if (box.bottom > frame.bottom) list.scrollTop += box.bottom - frame.bottom;
    }
  }

  function renderControls() {
    $("first").disabled = $("back").disabled = state.ply === 0;
    $("forward").disabled = $("last").disabled = state.ply === state.turns.length;
    const engine = !state.values;
    $("line-button").hidden = engine;
    $("line-button").disabled = shown().over;
    $("hint-button").hidden = $("think").hidden = !engine;
    $("hint-button").disabled = shown().over;
    $("reply-label").textContent = engine ? "Play the search engine's reply" : "Play the table's reply";
    $("board-select").value = state.board;
    fillProtocols();
    $("protocol-select").value = state.protocol;
  }

  // -- the board's pointer and keys -----------------------------------------------------------------

  boardSvg.addEventListener("click", event => {
    const cell = event.target.closest(".cell");
    if (cell) choose(cell.dataset.cell);
  });

  /** The cell next to ``name`` in the direction of an arrow key, as drawn: along its row, or in the next row up or down. */
  function step(name, key) {
    const here = cellAt(name), rows = 1e-3;
    const [across, down] = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]}[key];
    let candidates;
    if (across) {
      candidates = state.grid.cells.filter(cell => Math.abs(cell.y - here.y) < rows && (cell.x - here.x) * across > 0);
    } else {
      const beyond = state.grid.cells.filter(cell => (cell.y - here.y) * down > rows);
      const next = Math.min(...beyond.map(cell => Math.abs(cell.y - here.y)));
      candidates = beyond.filter(cell => Math.abs(Math.abs(cell.y - here.y) - next) < rows);
    }
    // The nearest across; between two as near (a hexagon's neighbours above or below), the left one going
    // up and the right one going down, so that up then down comes back.
    candidates.sort((a, b) => Math.abs(a.x - here.x) - Math.abs(b.x - here.x) || (down < 0 ? a.x - b.x : b.x - a.x));
    return candidates.length ? candidates[0].name : name;
  }

  boardSvg.addEventListener("keydown", event => {
    if (!state.grid || event.altKey || event.ctrlKey || event.metaKey) return;
    cursor = cursor || firstCursor();
    if (event.key.startsWith("Arrow")) {
      cursor = step(cursor, event.key);
    } else if (event.key === "Enter" || event.key === " ") {
      choose(cursor);
    } else if (event.key === "Escape") {
      chosen = [];
      renderTurnBar();
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();  // not a step through the game
    renderBoard();
  });

  /** Where the cursor starts: on the first allowed cell, or the first cell. */
  const firstCursor = () => shown().allowed[0] || state.grid.cells[0].name;

  // The cursor shows while the board has the keyboard's focus; a click's focus redraws nothing (the click
  // would lose the cell it went down on).
  boardSvg.addEventListener("focus", () => {
    if (!state.grid || !boardSvg.matches(":focus-visible")) return;  // the page is starting, or a click
    cursor = cursor || firstCursor();
    renderBoard();
  });

  // -- controls ---------------------------------------------------------------------------------------

  $("confirm").addEventListener("click", confirm);
  $("clear").addEventListener("click", () => {
    chosen = [];
    renderBoard();
    renderTurnBar();
  });
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(state.ply - 1));
  $("forward").addEventListener("click", () => goTo(state.ply + 1));
  $("last").addEventListener("click", () => goTo(state.turns.length));

  document.addEventListener("keydown", event => {
    if (event.target.closest("input, select, textarea, #board") || event.altKey || event.ctrlKey || event.metaKey) return;
    const steps = {ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: state.turns.length};
    if (event.key in steps) {
      event.preventDefault();
      goTo(steps[event.key]);
    }
  });

  $("line-button").addEventListener("click", () => act(async () => {
    if (shown().over || !state.values) return;
    const line = await api("line", {game: "necnon", board: state.board, protocol: state.protocol,
                                    position: shown().position});
    const ply = state.ply;
    await show({board: state.board, protocol: state.protocol, start: state.start,
                turns: [...state.turns.slice(0, ply), ...line.line.map(step => step.play)], ply}, "push");
    say(`The perfect line from here: ${turnsText(line.line.length)}, ${line.result}. ` +
        "Step through it with \u25B6 or the right arrow key.", "note");
  }));

  $("hint-button").addEventListener("click", () => act(async () => {
    if (shown().over) return;
    await think();
    renderTurns();
  }));

  function fillSelectors() {
    const boards = [...new Set(games.map(game => game.board))];
    $("board-select").replaceChildren(...boards.map(board => html("option", {value: board}, board)));
    $("board-select").value = state.board || "";
    fillProtocols();
  }

  /** The protocols of the board selected, each saying whether the table or the search engine answers. */
  function fillProtocols() {
    const board = $("board-select").value || state.board;
    const offered = games.filter(game => game.board === board);
    const words = {ready: "", "on demand": "", missing: " (engine)", "too large": " (engine)"};
    const select = $("protocol-select");
    if ([...select.options].map(option => option.textContent).join() ===
        offered.map(game => game.protocol + words[game.table]).join()) return;
    select.replaceChildren(...offered.map(game => html("option", {
      value: game.protocol, title: words[game.table] ? "no table: the search engine plays" : null,
    }, game.protocol + words[game.table])));
  }

  $("board-select").addEventListener("change", () => act(() =>
    show({board: $("board-select").value, protocol: state.protocol, start: "empty", turns: [], ply: null}, "push")));
  $("protocol-select").addEventListener("change", () => act(() =>
    show({board: state.board, protocol: $("protocol-select").value, start: "empty", turns: [], ply: null}, "push")));

  window.addEventListener("popstate", () => act(() => show(viewOf(new URLSearchParams(location.search)), null)));

  // -- start ----------------------------------------------------------------------------------------

  act(async () => {
    const asked = viewOf(new URLSearchParams(location.search));
    try {
      await show(asked, "replace");
    } catch (error) {
      await show({board: null, protocol: null, start: "empty", turns: [], ply: null}, "replace");
      throw new Error(`the link could not be shown: ${error.message}`);
    }
  });
})();
