/* The NECNON page of the explorer: the board as `necnon show` draws it (squares or hexagons), on each cell
 * the side to move may play the best value of a turn with a stone there, every turn best first, the game
 * and its end with the smothered groups struck through; a turn played by choosing one or two cells and
 * confirming (a pass when no cell is allowed), against the table or, on a board without one, the search
 * engine.
 *
 * Everything the page knows of the game comes from the server (solver/necnon/web/api.py): /api/games (the
 * boards and protocols, and their tables), /api/game (the board's cells and where they are drawn, and for
 * the start and each turn of the game and its variations the position's state, which cells are allowed
 * and how many stones a turn lays, and its values where there is a table; a pasted record is posted
 * there), /api/line (the perfect line), /api/search (the search engine's view), /api/record (the
 * game written as a record, to copy or download) and /api/stats (the table's figures, for the
 * statistics panel). With a table the value history (chart.js) shows the line's values. The page never decides a rule or a value: a cell may
 * be chosen when the state allows it, a turn is played when the server reads it.
 *
 * The game is a tree (tree.js), as on the Neutreeko page: its main line and variations, nested. The
 * board, the turns and the status show one line of it at one of its plies; the game panel shows the whole
 * tree, every turn a button that goes there. A turn that is not the line's next one, played before the
 * line's end (or the perfect line from there), starts a variation instead of replacing what follows; one
 * the tree already holds goes to it.
 *
 * The view is the board, the protocol, the start, the tree, the line shown and its ply; the URL holds it
 * (/necnon?board=3x3&protocol=nec&moves=b2+a1,c3+(b1,c1)+a2,b3&line=1&ply=2: the tree's turns, variations
 * in parentheses; the line by its place among the variations, none for the main line), so a link
 * reproduces it; a tree too long for a link keeps the main line and the line shown (tree.js: queryOf).
 * The position editor (editor.js) sets up a position on the board shown; while it is open the URL holds
 * that position (edit=...).
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
  // grid: /api/game's grid object; table: whether the board has one (else the search engine plays); a
  // node is a position's {rules: the /api/rules object, values: the /api/position object, or null without
  // a table}; root: the start's node; main: the tree's main line (tree.js); line: the line shown, ply: its
  // ply shown; turns and nodes: the line's whole line, its turns from the start and nodes[i] the node
  // after i of them; views: the engine's views, by position.
  const state = {board: null, protocol: null, start: "empty", grid: null, table: false, root: null, main: null,
                 line: null, ply: 0, turns: [], nodes: [], views: new Map()};
  let chosen = [];     // the cells chosen for the turn being played
  let cursor = null;   // the keyboard's cell on the board
  let replyTimer = null;

  const shown = () => state.nodes[state.ply].rules;
  const valued = () => state.nodes[state.ply].values;
  const cellAt = name => state.grid.cells.find(cell => cell.name === name);
  const order = name => state.grid.cells.findIndex(cell => cell.name === name);

  // -- the view and the URL -------------------------------------------------------------------------

  function viewOf(parameters) {
    const ply = parameters.get("ply");
    return {board: parameters.get("board"), protocol: parameters.get("protocol"),
            start: parameters.get("start") || "empty", moves: parameters.get("moves") || "",
            line: GameTree.placeOf(parameters), ply: ply !== null && /^\d+$/.test(ply) ? Number(ply) : null};
  }

  /** Record the view in the URL: "push" a new history entry or "replace" the current one. */
  function record(how) {
    const parts = [["board", state.board], ["protocol", state.protocol]];
    if (state.start !== "empty") parts.push(["start", state.start]);
    const query = GameTree.queryOf(parts, state);
    if (query === location.search) return;
    if (how === "push") history.pushState(null, "", query);
    else history.replaceState(null, "", query);
  }

  /** The tree's line of an /api/game answer, or of one of its variations (tree.js: fromAnswer). */
  const readLine = part => ({moves: part.turns, judged: null,
                             nodes: part.positions.map((rules, at) => ({rules, values: part.values && part.values[at]}))});

  /**
   * Show ``view`` (its line, by its place among the tree's lines, at its ply: the end of the line if
   * null), asking the server for its whole tree (/api/game; a pasted record's answer is the view's
   * already), recorded in the URL as ``how`` says ("push", "replace", or null: nothing); returns why one
   * of its turns was refused (what comes before it is shown), or null. A refused link keeps its URL
   * ("replace" records nothing then): it stays the link that was shared.
   */
  async function show(view, how) {
    editor.leave();
    const asked = view.answer || api("game", {game: "necnon", board: view.board, protocol: view.protocol,
                                              position: view.start, moves: view.moves});
    await catalogue;
    const entry = games.find(game => game.board === view.board && game.protocol === view.protocol);
    if (entry && entry.table === "on demand") say(`Building the ${view.board} ${view.protocol} table (first use) ...`, "note");
    const answer = await asked;
    if (entry && entry.table === "on demand") {
      entry.table = "ready";
      quiet();
    }
    const first = answer.positions[0], main = GameTree.fromAnswer(answer, readLine);
    Object.assign(state, {board: first.board, protocol: first.protocol, start: answer.start, grid: answer.grid,
                          table: answer.values !== null, root: readLine(answer).nodes[0], main});
    showLine(GameTree.linesOf(main)[view.line] || main, view.ply);
    if (cursor && !cellAt(cursor)) cursor = null;
    if (how === "push" || (how === "replace" && !answer.refused)) record(how);
    render();
    return answer.refused;
  }

  /** Show the view of a link or of pasted text, saying which of its turns was refused, if one was. */
  async function showAsked(view, how) {
    const refused = await show(view, how);
    if (refused) say(`${capitalise(refused)}; the turns before it are shown.`);
    return refused;
  }

  /** Show ``line`` of the tree at ``ply`` (the end of the line if null or past it). */
  function showLine(line, ply = null) {
    state.line = line;
    state.turns = GameTree.movesOf(line);
    state.nodes = [state.root, ...GameTree.nodesOf(line)];
    state.ply = ply === null || ply > state.turns.length ? state.turns.length : ply;
    chosen = [];
  }

  // Every change of the view runs in turn, so that a click arriving while an answer is awaited waits.
  let queue = Promise.resolve();

  function act(change) {
    queue = queue.then(change).catch(error => say(capitalise(error.message)));
    return queue;
  }

  /** Go to ``ply`` of ``line`` of the tree (a step if it is the line shown). */
  function goToLine(line, ply) {
    cancelReply();
    if (line === state.line && ply === state.ply) return;
    showLine(line, ply);
    record("replace");
    render();
  }

  const goTo = ply => goToLine(state.line, Math.max(0, Math.min(state.turns.length, ply)));

  /**
   * The line of the tree that holds ``turns`` played after ``ply`` turns of the line shown: the tree's
   * own if it holds them all; else they lengthen the line they leave at its end, or start a variation
   * of it before (tree.js: follow, graft), the server asked for the positions after them.
   */
  async function lineWith(ply, turns) {
    const moves = [...state.turns.slice(0, ply), ...turns], held = GameTree.follow(state.main, moves);
    if (held.held === moves.length) return held.line;
    const before = held.held ? GameTree.nodesOf(held.line)[held.held - 1] : state.root;
    const answer = await api("game", {game: "necnon", board: state.board, protocol: state.protocol,
                                      position: before.rules.position, moves: moves.slice(held.held).join(" ")});
    if (answer.refused) throw new Error(answer.refused);
    const rest = readLine(answer);
    return GameTree.graft(held, [...moves.slice(0, held.held), ...rest.moves], rest.nodes.slice(1), null);
  }

  /**
   * Play the turn ``name`` from the position shown: the line's own next turn keeps the line; a turn the
   * tree holds goes to its line; another lengthens the line at its end, or starts a variation before it.
   * The reply follows if asked, unless the turn is one (``byReply``).
   */
  async function play(name, {byReply = false} = {}) {
    cancelReply();
    const ply = state.ply + 1;
    showLine(state.turns[state.ply] === name ? state.line : await lineWith(state.ply, [name]), ply);
    record("push");
    render();
    if (!byReply && $("reply-toggle").checked && !shown().over) {
      replyTimer = setTimeout(() => act(reply), state.table ? REPLY_DELAY : 0);
    }
  }

  /** The other side's turn: the table's best, or the search engine's choice after its thinking time. */
  async function reply() {
    replyTimer = null;
    if (shown().over || state.ply !== state.turns.length) return;
    if (state.table) {
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
    Page.keepingFocus("turns", "game", () => {
      renderStatus();
      renderBoard();
      renderTurnBar();
      renderTurns();
      renderGame();
      renderChart();
      renderControls();
      renderStats();
    });
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
    if (editor.open) {
      status.append(html("strong", {}, "Setting up a position"));
      document.title = "Setting up a position · NECNON explorer";
      return;
    }
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
    // The editor's position: its stones, no cell allowed or forbidden, nothing of the game's.
    const position = editor.open ? {position: editor.notation(), allowed: [], over: true, smothered: [], to_move: "black"}
      : shown();
    const [width, height] = state.grid.extent;
    const across = 2 * MARGIN + width * CELL, down = 2 * MARGIN + height * CELL;
    boardSvg.setAttribute("viewBox", `0 0 ${across} ${down}`);
    boardSvg.style.width = `${100 * across / Math.max(across, down)}%`;  // a tall board narrower, not taller
    boardSvg.setAttribute("aria-label", `Board ${state.board}, ${position.position}` +
                          (cursor ? `, the cursor on ${cursor}` : "") + (chosen.length ? `, chosen ${chosen.join(" ")}` : ""));
    const last = !editor.open && state.ply > 0 && state.turns[state.ply - 1] !== "pass" ? state.turns[state.ply - 1].split(",") : [];
    const stones = stonesOf(position.position), node = editor.open ? null : valued(), best = node ? bestByCell() : new Map();
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
      : `the search engine's, ${view.iterations.toLocaleString("en")} playouts${endgameText(view, position)}`;
    for (const entry of view.turns.slice(0, 30)) {
      const words = view.solved ? `keeps the perfect margin ${label(entry.mean_margin)}`
        : `${entry.visits.toLocaleString("en")} playouts, ${Math.round(100 * entry.won)}% won, mean ${label(Math.round(10 * entry.mean_margin) / 10)}`;
      panel.append(turnButton(entry.turn, `${entry.turn}: ${words}`, entry === view.turns[0],
                              html("span", {class: "view"}, words)));
    }
  }

  /**
   * The end of the caption of a search the exact endgame did not finish: the endgame's nodes if it ran,
   * the time, and the margin it proved the first turn keeps for the side to move (that turn is then
   * played rather than the most visited), if it proved one.
   */
  function endgameText(view, position) {
    const nodes = view.nodes ? ` and ${view.nodes.toLocaleString("en")} nodes of the exact endgame` : "";
    const floor = view.floor === null ? ""
      : `; the exact endgame proved ${view.turns[0].turn} worth at least ${label(view.floor)} to ${capitalise(position.to_move)}`;
    return `${nodes} in ${view.seconds} s${floor}`;
  }

  function turnButton(turn, title, best, ...parts) {
    const button = html("button", {type: "button", class: `move${best ? " best" : ""}`, "data-turn": turn, title});
    button.append(html("span", {class: "name"}, turn), ...parts);
    button.addEventListener("click", () => act(() => play(turn)));
    return button;
  }

  /**
   * The game as a tree: the main line, a turn a row, each variation under the turn it replaces, indented,
   * its own nested in it; every turn a button that goes to its line at that ply, the turn shown
   * highlighted, those after it on its line faint. The caption is the line shown's, and so is the score
   * at its end, its smothered groups named.
   */
  function renderGame() {
    const list = $("game"), main = state.main, places = new Map(GameTree.linesOf(main).map((line, at) => [line, at]));
    const mainNodes = [state.root, ...GameTree.nodesOf(main)];
    const block = {button: (line, ply) => gameButton(line, ply, places.get(line)), number: (line, ply) => `${ply}.`,
                   name: line => `Variation at turn ${line.ply}`};
    list.replaceChildren();
    main.moves.forEach((turn, at) => {
      const ply = at + 1, button = gameButton(main, ply, 0);
      button.prepend(html("span", {class: "number"}, `${ply}.`), stoneIcon(mainNodes[at].rules.to_move));
      if (state.table) button.append(html("span", {class: "label"}, label(mainNodes[ply].values.value)));
      const item = html("li");
      item.append(button);
      list.append(item);
      const branches = main.variations.filter(branch => branch.ply === ply);
      if (branches.length) {
        list.append(html("li", {class: "variations"}));
        list.lastChild.append(...branches.map(branch => GameTree.variationBlock(branch, block)));
      }
    });
    if (!main.moves.length) list.append(html("li", {class: "empty"}, "No turns yet: choose a cell on the board."));
    const end = state.nodes[state.nodes.length - 1].rules;
    $("game-caption").textContent = state.turns.length
      ? `${state.line === main ? "" : "variation: "}${turnsText(state.turns.length)}` : "";
    const smothered = end.smothered.map(group => `${group.colour} ${group.cells.join(" ")}`).join("; ");
    $("score").textContent = end.over
      ? `${capitalise(end.result)}: Black ${end.points.black} points, Green ${end.points.green}` +
        (smothered ? ` (smothered: ${smothered}).` : " (nothing smothered).") : "";
    const current = list.querySelector(".current");
    if (current) Page.scrollWithin(list, current);
  }

  /** The button of turn ``ply`` of ``line``, the ``place``-th line of the tree: it goes there. */
  function gameButton(line, ply, place) {
    const turn = line.moves[ply - line.ply], node = line.nodes[ply - line.ply];
    const classes = ["ply", GameTree.standing(line, ply, state.line, state.ply)].join(" ").trim();
    const button = html("button", {type: "button", class: classes, "data-ply": ply, "data-line": place,
                                   title: `Turn ${ply}, ${turn}` + (node.values ? `: then ${terse(node.values)}` : "")});
    button.append(html("span", {class: "turn"}, turn));
    button.addEventListener("click", () => goToLine(line, ply));
    return button;
  }

  /**
   * The value history (chart.js), with a table: across, each position's value, Black's points ahead to
   * the left, Green's to the right; a point coloured by what it is to the side to move (a win, a draw,
   * a loss), a link by what the turn leaves its player.
   */
  function renderChart() {
    $("history").hidden = !state.table;
    if (!state.table) return;
    const nodes = state.nodes, reach = Math.max(2, ...nodes.map(node => Math.abs(node.values.value)));
    const unit = 0.5 / (reach + 1), every = reach > 10 ? 5 : 1;
    const standing = (value, side) => {
      const mine = side === "black" ? value : -value;
      return mine > 0 ? "win" : mine === 0 ? "draw" : "loss";
    };
    const ticks = [];
    for (let margin = 0; margin <= reach; margin += 1) {
      const major = margin % every === 0;
      ticks.push({at: 0.5 - margin * unit, text: major ? String(margin) : null, major});
      if (margin) ticks.push({at: 0.5 + margin * unit, text: major ? String(margin) : null, major});
    }
    const rows = nodes.map((node, ply) => ({
      at: 0.5 - node.values.value * unit, value: standing(node.values.value, node.rules.to_move),
      title: `${ply ? `${ply}. ${state.turns[ply - 1]}` : "start"}: ${terse(node.values)}`,
      label: state.turns[ply], left: node.rules.to_move === "black",
      link: ply < state.turns.length ? standing(nodes[ply + 1].values.value, node.rules.to_move) : null,
    }));
    ValueChart.draw($("chart-head"), $("chart"), {sides: ["\u25C0 Black ahead", "draw", "Green ahead \u25B6"],
                                                  axis: "points ahead", ticks, rows, current: state.ply, pick: goTo});
  }

  // -- the statistics panel: closed as the page starts; opened, the figures of the board's table ------

  const figures = new Map();  // "board|protocol" -> the /api/stats answer

  async function renderStats() {
    const panel = $("stats"), key = `${state.board}|${state.protocol}`;
    $("stats-caption").textContent = `${state.board} ${state.protocol}`;
    if (panel.hidden || panel.dataset.key === key) return;
    panel.dataset.key = key;
    if (!state.table) {
      panel.replaceChildren(html("p", {class: "empty"}, "No table for this board: the search engine plays it."));
      return;
    }
    if (!figures.has(key)) {
      panel.replaceChildren(html("p", {class: "empty"}, "Reading the table ..."));
      try {
        figures.set(key, await api("stats", {game: "necnon", board: state.board, protocol: state.protocol}));
      } catch (error) {
        panel.replaceChildren(html("p", {class: "stats-error"}, capitalise(error.message)));
        return;
      }
    }
    if (panel.dataset.key === key) panel.replaceChildren(...statsParts(figures.get(key)));
  }

  /** The figures of a /api/stats answer: counts of the positions reachable, and by value. */
  function statsParts(answer) {
    const number = count => count.toLocaleString("en-US");
    const share = count => `${(100 * count / answer.positions).toFixed(2)} %`;
    return [
      Page.figures("Positions reachable from the empty board", [
        ["Positions", number(answer.positions), ""], ["Symmetry classes", number(answer.classes), ""],
        ["Black ahead", number(answer.black_wins), share(answer.black_wins)], ["Draws", number(answer.draws), share(answer.draws)],
        ["Green ahead", number(answer.green_wins), share(answer.green_wins)], ["Finished", number(answer.finished), ""],
        ["Empty board", terse(answer), null], ["Longest game", turnsText(answer.longest), null],
        ["Best first stones", answer.best_first.join(" "), null],
      ]),
      Page.figures("Positions by value (Black's points minus Green's)", Object.entries(answer.margins)
        .sort(([a], [b]) => Number(b) - Number(a))
        .map(([margin, count]) => [label(Number(margin)), number(count), share(count)])),
    ];
  }

  $("stats-toggle").addEventListener("click", () => {
    const open = $("stats-toggle").getAttribute("aria-expanded") !== "true";
    $("stats-toggle").setAttribute("aria-expanded", String(open));
    $("stats").hidden = !open;
    delete $("stats").dataset.key;
    if (open) renderStats();
  });

  function renderControls() {
    $("first").disabled = $("back").disabled = state.ply === 0;
    $("forward").disabled = $("last").disabled = state.ply === state.turns.length;
    $("promote").disabled = $("delete").disabled = state.line === state.main;
    const engine = !state.table;
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
    if (cell && !editor.open) choose(cell.dataset.cell);
  });

  // In the editor a press and its release put a stone (or empty the cell), or drag the stone pressed to
  // the cell of the release (off the board: taken off).
  let pressed = null;  // {cell, pointer}: the cell a press in the editor went down on
  const cellUnder = event => {
    const under = document.elementFromPoint(event.clientX, event.clientY);
    return under && boardSvg.contains(under) && under.closest(".cell") ? under.closest(".cell").dataset.cell : null;
  };
  boardSvg.addEventListener("pointerdown", event => {
    if (!editor.open || event.button !== 0) return;
    pressed = {cell: cellUnder(event), pointer: event.pointerId};
    boardSvg.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  boardSvg.addEventListener("pointerup", event => {
    if (!editor.open || !pressed || event.pointerId !== pressed.pointer) return;
    const from = pressed.cell, to = cellUnder(event);
    pressed = null;
    if (from && from !== to && editor.at(from)) editor.move(from, to);
    else if (to && to === from) editor.put(to, editor.chosen());
  });
  boardSvg.addEventListener("pointercancel", () => { pressed = null; });

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
    const puts = {b: "black", g: "green", Delete: "empty", Backspace: "empty"};
    if (event.key.startsWith("Arrow")) {
      cursor = step(cursor, event.key);
    } else if (editor.open && (event.key in puts || event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      event.stopPropagation();
      editor.put(cursor, puts[event.key] || editor.chosen());
      return;
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
  const firstCursor = () => (editor.open ? null : shown().allowed[0]) || state.grid.cells[0].name;

  // The cursor shows while the board has the keyboard's focus; a click's focus redraws nothing (the click
  // would lose the cell it went down on).
  boardSvg.addEventListener("focus", () => {
    if (!state.grid || !boardSvg.matches(":focus-visible")) return;  // the page is starting, or a click
    cursor = cursor || firstCursor();
    renderBoard();
  });

  // -- the position editor (editor.js) --------------------------------------------------------------
  //
  // As on the Neutreeko page, on the board and protocol shown, with whose turn it is and whether the other
  // side just passed; checked by /api/rules (the message the command line gives for a position that
  // cannot occur, and the stones the turn lays) and, with a table, /api/position (its value, or that it
  // cannot be reached).

  /** The position of ``stones`` (a Map of cell -> "black" or "green"), in notation: rows top first, whose
   * turn, the passes just made. */
  function editorNotation(stones) {
    const rows = state.grid.rows.map(row => {
      let text = "", empty = 0;
      for (const name of row) {
        const colour = stones.get(name);
        if (colour) {
          text += (empty || "") + colour[0];
          empty = 0;
        } else {
          empty += 1;
        }
      }
      return text + (empty || "");
    });
    return [rows.join("/"), $("editor-side").value, $("editor-passes").value].join(" ").trim();
  }

  async function editorCheck(notation) {
    const asking = {game: "necnon", board: state.board, protocol: state.protocol, position: notation};
    const [rules, values] = await Promise.all([api("rules", asking), state.table ? api("position", asking) : null]);
    const lays = rules.stones ? `lays ${rules.stones} stone${rules.stones === 1 ? "" : "s"}` : "passes";
    const turn = rules.over ? `the game is over: ${rules.result}` : `${capitalise(rules.to_move)} to move, ${lays}`;
    return `${turn}${values ? `; ${terse(values)}` : ""}`;
  }

  const editor = PositionEditor.create({
    notation: editorNotation,
    query: notation => "?" + queryText([["board", state.board], ["protocol", state.protocol], ["edit", notation]]),
    check: editorCheck,
    redraw: renderBoard,
    explore: notation => act(() => show({board: state.board, protocol: state.protocol, start: notation, moves: "",
                                         line: 0, ply: null}, "push")),
    cancel: () => {
      record("replace");
      render();
    },
    hides: ".board-panel .controls, .board-panel .turn-bar, .tools-panel",
    inert: ".game-panel",
    moves: "turns",
  });

  /** Open the editor on the position ``notation`` (on the board shown), recorded in the URL as ``how`` says. */
  function openEditor(notation, how) {
    cancelReply();
    const fields = notation.trim().split(/\s+/);
    $("editor-side").value = fields[1] === "g" ? "g" : "b";
    $("editor-passes").value = ["p", "pp"].includes(fields[2]) ? fields[2] : "";
    chosen = [];
    editor.begin(notation.toLowerCase() === "empty" ? [] : [...stonesOf(fields[0])], how);
    renderStatus();
  }

  $("edit-button").addEventListener("click", () => act(() => openEditor(shown().position, "push")));
  $("editor-side").addEventListener("change", () => editor.changed("replace"));
  $("editor-passes").addEventListener("change", () => editor.changed("replace"));

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
    if (event.target.closest("input, select, textarea, dialog, #board") || event.altKey || event.ctrlKey || event.metaKey) return;
    if (editor.open) return;  // no game to step through
    const steps = {ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: state.turns.length};
    if (event.key in steps) {
      event.preventDefault();
      goTo(steps[event.key]);
    }
  });

  // The perfect line from the position shown: the line's own rest if it is the perfect one, else a
  // variation (or the line's end lengthened), shown where it starts.
  $("line-button").addEventListener("click", () => act(async () => {
    if (shown().over || !state.table) return;
    const line = await api("line", {game: "necnon", board: state.board, protocol: state.protocol,
                                    position: shown().position});
    const ply = state.ply;
    showLine(await lineWith(ply, line.line.map(step => step.play)), ply);
    record("push");
    render();
    say(`The perfect line from here: ${turnsText(line.line.length)}, ${line.result}. ` +
        "Step through it with \u25B6 or the right arrow key.", "note");
  }));

  /** The game record of the tree, variations and all, as the server writes it (/api/record). */
  async function gameRecord() {
    const answer = await api("record", {game: "necnon", board: state.board, protocol: state.protocol,
                                        position: state.start, moves: GameTree.textOf(state.main)});
    return answer.record;
  }

  Page.attachExport({position: () => shown().position, record: gameRecord, reader: "necnon annotate",
                     file: () => `necnon-${state.board}-${state.protocol}.txt`, act});

  GameTree.attachTools({view: () => state, act, show: (line, ply) => {
    cancelReply();
    showLine(line, ply);
    record("push");
    render();
  }});

  /**
   * The view a pasted text asks for: a link, a game record (tags, or several lines: the server reads
   * it, variations and all, and its answer is the view's), a position (and turns after it), ``empty``
   * and turns, or turns from the start shown (numbered or not, with variations or not).
   */
  async function pastedView(text) {
    text = text.trim();
    if (/^\[/.test(text) || text.includes("\n")) return {answer: await api("game", {game: "necnon"}, text), line: 0, ply: null};
    if (/^(https?:\/\/|\?)/i.test(text)) return viewOf(new URL(text, location.href).searchParams);
    const words = text.split(/\s+/), view = {board: state.board, protocol: state.protocol, line: 0, ply: null};
    if (words[0].includes("/")) {  // rows, the side to move, and the passes just made if any
      const fields = /^p{1,2}$/i.test(words[2] || "") ? 3 : 2;
      return {...view, board: null, start: words.slice(0, fields).join(" "), moves: words.slice(fields).join(" ")};
    }
    if (words[0].toLowerCase() === "empty") return {...view, start: "empty", moves: words.slice(1).join(" ")};
    return {...view, start: state.start, moves: text};
  }

  Page.attachPaste(async text => showAsked(await pastedView(text), "push"), act);

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

  const fresh = (board, protocol) => ({board, protocol, start: "empty", moves: "", line: 0, ply: null});
  $("board-select").addEventListener("change", () => act(() => show(fresh($("board-select").value, state.protocol), "push")));
  $("protocol-select").addEventListener("change", () => act(() => show(fresh(state.board, $("protocol-select").value), "push")));

  window.addEventListener("popstate", () => act(async () => {
    const parameters = new URLSearchParams(location.search);
    await showAsked(viewOf(parameters), null);
    if (parameters.get("edit")) openEditor(parameters.get("edit"), null);
  }));

  // -- start ----------------------------------------------------------------------------------------

  act(async () => {
    const parameters = new URLSearchParams(location.search), asked = viewOf(parameters);
    try {
      await showAsked(asked, "replace");
      if (parameters.get("edit")) openEditor(parameters.get("edit"), "replace");
    } catch (error) {
      await show({...asked, moves: "", line: 0, ply: null}, "replace").catch(() => show(fresh(null, null), "replace"));
      throw new Error(`the link could not be shown: ${error.message}`);
    }
  });
})();
