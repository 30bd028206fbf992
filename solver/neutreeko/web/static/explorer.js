/* The Neutreeko explorer's page: the board, every move with its value, the game with its marks, the value
 * history chart, and the URL that holds the view.
 *
 * Everything the page knows of the game comes from the server's JSON API: /api/games (the boards and rules),
 * /api/game (a link's whole game at once, its variations too: every position's moves and each move's
 * judgement; a pasted game record is posted there), /api/position (a position's value and every move,
 * best first, each with the position it leads to), /api/annotate (every move of a line judged: best,
 * inaccuracy, mistake, blunder), /api/line (the perfect line) and /api/record (the game written as a
 * record, to copy or download); the statistics panel (stats.js) asks /api/stats. The page never decides a rule or a value itself: a move is legal when
 * the server lists it. Values are from the side to move's point of view, a move's for the player making
 * it.
 *
 * The game is a tree (tree.js): its main line and variations, nested. The board, the moves, the value
 * history and the status show one line of it, the current one, at one of its plies; the game panel shows
 * the whole tree, every move a button that goes there. A move that is not the line's next one, played
 * before the line's end (or the perfect line from there), starts a variation instead of replacing what
 * follows; one the tree already holds goes to it.
 *
 * The view is the board, the rule, the start position, the tree, the line shown and its ply; the URL
 * holds it (?board=5x5&rule=connected&start=...&moves=B1-C1+(C4-C3+D5-D2)+B5-A5&line=1&ply=1: the
 * tree's move text, variations in parentheses; the line by its place among the variations, in the order
 * their parentheses open, none for the main line), so a link reproduces it. A tree whose link would be
 * too long keeps only the main line and the line shown (tree.js: queryOf). A new move, variation or
 * position adds a history entry (the browser's back button undoes it); stepping through the line
 * replaces the current one. The position editor (editor.js) sets up a position on the board shown; while
 * it is open the URL holds that position (?board=5x5&rule=connected&edit=...).
 */
"use strict";

(() => {
  const {$, element, html, capitalise, plyCount, queryText, api, say, quiet} = Page;  // page.js
  const {CELL, CURSOR_STEPS, squaresOf, piecesOf} = BoardView;  // board.js
  const VALUES = ["win", "draw", "loss"];  // best first, for the side they belong to
  const GROUPS = {win: "Winning", draw: "Drawing", loss: "Losing"};
  const REPLY_DELAY = 450;  // ms before the perfect reply is played
  const MARKS = {  // the marks of /api/annotate
    inaccuracy: {symbol: "?!", plural: "inaccuracies", words: "Inaccuracy: keeps the value, but a slower win or a quicker loss"},
    mistake: {symbol: "?", plural: "mistakes", words: "Mistake: a win thrown to a draw, or a draw to a loss"},
    blunder: {symbol: "??", plural: "blunders", words: "Blunder: a win thrown to a loss"},
  };

  const boardSvg = $("board"), chartSvg = $("chart");

  // -- small helpers --------------------------------------------------------------------------------

  const other = side => (side === "black" ? "white" : "black");
  /** "win in 3", "draw", "loss in 22": a value as the tables word it. */
  const terse = ({value, plies}) => (value === "draw" ? "draw" : `${value} in ${plies}`);
  /** "wins in 3", "draw", "loses in 22": a move's value for the player making it. */
  const moveText = ({value, plies}) =>
    (value === "draw" ? "draw" : `${value === "win" ? "wins" : "loses"} in ${plies}`);
  const sameValue = (a, b) => a.value === b.value && a.plies === b.plies;

  const positions = new Map();  // "board|rule|position" -> promise of the /api/position answer

  function positionAnswer(board, rule, position) {
    const key = `${board}|${rule}|${position}`;
    if (!positions.has(key)) {
      const answer = api("position", {position, board, rule});
      answer.catch(() => positions.delete(key));
      positions.set(key, answer);
    }
    return positions.get(key);
  }

  const annotations = new Map();  // "board|rule|start|moves" -> promise of the /api/annotate answer

  function annotationOf(game) {
    const moves = game.moves.join(" ");
    const key = `${game.board}|${game.rule}|${game.start}|${moves}`;
    if (!annotations.has(key)) {
      const answer = api("annotate", {position: game.start, board: game.board, rule: game.rule, moves});
      answer.catch(() => annotations.delete(key));
      annotations.set(key, answer);
    }
    return annotations.get(key);
  }

  // -- the view -------------------------------------------------------------------------------------

  let games = [];  // /api/games: [{game: "neutreeko", board, rule, table}], Neutreeko's entries
  // Asked for as the page starts, alongside the first view's game; a view is shown once it is here.
  const catalogue = api("games").then(answer => {
    games = answer.games.filter(entry => entry.game === "neutreeko");
    fillBoards();
  });
  // root: the /api/position answer of the start; main: the tree's main line (tree.js); line: the line
  // shown, ply: its ply shown. moves, nodes and
  // judged are the line's whole line: its moves from the start, nodes[i] the /api/position answer
  // of the position after i of them, the /api/annotate answer of the moves.
  const state = {board: "5x5", rule: "connected", start: "start", root: null, main: null, line: null, ply: 0,
                 moves: [], nodes: [], judged: []};
  let selected = null;  // the square of the piece picked up
  let drag = null;      // {square, pointer, from: {x, y}, moved}
  let cursor = null;    // the keyboard's square on the board
  let flipped = false;  // the board turned half round, Black's side at the bottom
  let slide = null;     // [from, to]: the piece the next drawing of the board slides there
  let replyTimer = null;

  const current = () => state.nodes[state.ply];

  /** How the game has ended at ``ply`` (a win, or a position's third occurrence), or null. */
  function ending(ply, nodes = state.nodes) {
    const node = nodes[ply];
    if (!node.moves.length) {
      return {result: `${capitalise(other(node.to_move))} wins`, winner: other(node.to_move),
              text: `${capitalise(other(node.to_move))} has won`};
    }
    const seen = nodes.slice(0, ply + 1).filter(earlier => earlier.position === node.position).length;
    if (seen >= 3) {
      return {result: "Draw by repetition", winner: null, text: "Draw by repetition: the same position a third time"};
    }
    return null;
  }

  /** The server's judgement of the move that led to nodes[ply]: {move, before, after, mark, best, ...}. */
  const judged = ply => state.judged[ply - 1];

  /** The URL query of the view: its tree whole, or its main line and its line if that is too long. */
  function queryOf(view) {
    const parts = [["board", view.board], ["rule", view.rule]];
    if (view.start !== "start") parts.push(["start", view.start]);
    return GameTree.queryOf(parts, view);
  }

  /**
   * The words of move text, its move numbers left out, its parentheses kept: "1. B1-C1 B5-A5",
   * "1.B1-C1", "12... B5-A5", "B1-C1 (C4-C3) B5-A5".
   */
  const moveTokens = text => text.replace(/[()]/g, " $& ").split(/[\s,]+/)
    .map(token => token.replace(/^\d+\.+/, ""))
    .filter(token => token && !/^(\.\.\.|\u2026)$/.test(token));

  function viewOf(parameters) {
    const number = name => {
      const value = parameters.get(name);
      return value === null || !/^\d+$/.test(value) ? null : Number(value);
    };
    return {
      board: parameters.get("board"),  // null: the server's default (the start's board, "connected")
      rule: parameters.get("rule"),
      start: parameters.get("start") || "start",
      moves: moveTokens(parameters.get("moves") || ""),
      line: GameTree.placeOf(parameters),
      ply: number("ply"),
    };
  }

  /** Record the view in the URL: "push" a new history entry or "replace" the current one. */
  function record(how) {
    const query = queryOf(state);
    if (query === location.search) return;
    if (how === "push") history.pushState(null, "", query);
    else history.replaceState(null, "", query);
  }

  /**
   * The game of a view, {game, refused}, in one request (/api/game; a pasted record's answer is the
   * view's already): its tree, and why a move of the view could not be played, or null. The server
   * checks the board, the rule and the start (its message names a bad one), and reads the moves while
   * they are legal and their game goes on.
   */
  async function gameOf(view) {
    const answer = view.answer ||
      await api("game", {position: view.start, board: view.board, rule: view.rule, moves: view.moves.join(" ")});
    const {board, rule} = answer.annotation;
    const main = GameTree.fromAnswer(answer, part => {
      const judgements = part === answer ? answer.annotation.moves : part.moves;
      return {moves: judgements.map(judgement => judgement.move), nodes: part.positions, judged: judgements};
    });
    positions.set(`${board}|${rule}|${answer.positions[0].position}`, Promise.resolve(answer.positions[0]));
    for (const line of GameTree.linesOf(main)) {
      for (const node of line.nodes) positions.set(`${board}|${rule}|${node.position}`, Promise.resolve(node));
    }
    return {game: {board, rule, start: answer.start, root: answer.positions[0], main}, refused: answer.refused};
  }

  /** Show ``line`` of the tree at ``ply`` (the end of the line if null or past it). */
  function showLine(line, ply = null) {
    state.line = line;
    state.moves = GameTree.movesOf(line);
    state.nodes = [state.root, ...GameTree.nodesOf(line)];
    state.judged = GameTree.judgedOf(line);
    state.ply = ply === null || ply > state.moves.length ? state.moves.length : ply;
  }

  /**
   * Show ``view`` (its line, by its place among the tree's lines, at its ply: the end of the line if
   * null), recorded in the URL as ``how`` says; returns why one of its moves was refused (what comes
   * before it is shown), or null. A refused link keeps its URL ("replace" records nothing then): it
   * stays the link that was shared.
   */
  async function show(view, how) {
    editor.leave();
    const asked = gameOf(view);  // asked for before the catalogue is awaited: the two requests overlap
    await catalogue;
    const entry = games.find(game => game.board === view.board && game.rule === view.rule);
    if (entry && entry.table === "on demand") {
      say(`Building the ${view.board} ${view.rule} table (first use: a few seconds) ...`, "note");
    }
    const {game, refused} = await asked;
    if (entry && entry.table === "on demand") {
      entry.table = "ready";
      quiet();
    }
    Object.assign(state, game);
    showLine(GameTree.linesOf(game.main)[view.line || 0] || game.main, view.ply);
    selected = cursor = null;
    if (how === "push" || (how === "replace" && !refused)) record(how);
    render();
    return refused;
  }

  /** Show the view of a link or of pasted text, saying which of its moves was refused, if one was. */
  async function showAsked(view, how) {
    const refused = await show(view, how);
    if (refused) say(`${capitalise(refused)}; the moves before it are shown.`);
    return refused;
  }

  // Every change of the view runs in turn, so that a click arriving while an answer is awaited waits.
  let queue = Promise.resolve();

  function act(change) {
    queue = queue.then(change).catch(error => say(capitalise(error.message)));
    return queue;
  }

  /** Go to ``ply`` of ``line`` of the tree: a step if it is the line shown. */
  function goToLine(line, ply) {
    if (line === state.line) {
      goTo(ply);
      return;
    }
    cancelReply();
    showLine(line, ply);
    selected = null;
    record("replace");
    render();
  }

  function goTo(ply) {
    cancelReply();
    const target = Math.max(0, Math.min(state.moves.length, ply));
    if (target === state.ply) return;
    if (Math.abs(target - state.ply) === 1) {  // one step: the piece of the move between slides
      const [from, to] = squaresOf(state.moves[Math.min(target, state.ply)]);
      slide = target > state.ply ? [from, to] : [to, from];
    }
    state.ply = target;
    selected = null;
    record("replace");
    render();
  }

  /**
   * Play ``name`` from the position shown: the line's own next move keeps the line; a move the tree holds
   * goes to its line; another lengthens the line at its end, or starts a variation before it. The piece
   * slides there unless it was dragged (``slides``); a move ``byTable`` gets no perfect reply.
   */
  async function play(name, {byTable = false, slides = true} = {}) {
    const entry = current().moves.find(option => option.move === name);
    if (!entry || ending(state.ply)) return;
    cancelReply();
    if (state.moves[state.ply] === name) {
      state.ply += 1;
    } else {
      const moves = state.moves.slice(0, state.ply).concat(name), held = GameTree.follow(state.main, moves);
      if (held.held < moves.length) {
        const [child, annotation] = await Promise.all([positionAnswer(state.board, state.rule, entry.position),
                                                       annotationOf({...state, moves})]);
        showLine(GameTree.graft(held, moves, [child], annotation.moves.slice(held.held)), moves.length);
      } else {
        showLine(held.line, moves.length);
      }
    }
    selected = null;
    if (slides) slide = squaresOf(name);
    record("push");
    render();
    if (!byTable && $("reply-toggle").checked && !ending(state.ply)) {
      const expected = state.ply;
      replyTimer = setTimeout(() => act(() => {
        if (state.ply === expected && state.moves.length === expected) return play(current().moves[0].move, {byTable: true});
        return null;
      }), REPLY_DELAY);
    }
  }

  function cancelReply() {
    clearTimeout(replyTimer);
    replyTimer = null;
  }

  // -- rendering ------------------------------------------------------------------------------------

  function render() {
    Page.keepingFocus("moves", "game", () => {
      renderStatus();
      renderBoard();
      renderMoves();
      renderGame();
      renderChart();
      renderControls();
      StatsPanel.show(state.board, state.rule);  // stats.js
    });
  }

  function pieceIcon(colour) {
    const icon = element("svg", {viewBox: "0 0 20 20", class: "piece-icon", "aria-hidden": "true"});
    icon.append(element("circle", {cx: 10, cy: 10, r: 8, class: `piece ${colour}`}));
    return icon;
  }

  function pill(value, text = terse(value)) {
    return html("span", {class: `pill ${value.value}`}, text);
  }

  function renderStatus() {
    const node = current(), end = ending(state.ply), status = $("status");
    status.replaceChildren();
    if (editor.open) {
      status.append(html("strong", {}, "Setting up a position"));
      document.title = "Setting up a position · Neutreeko explorer";
      return;
    }
    if (end) {
      status.append(pieceIcon(end.winner || node.to_move), html("strong", {}, end.text));
    } else {
      status.append(pieceIcon(node.to_move), html("strong", {}, `${capitalise(node.to_move)} to move`),
                    pill(node));
    }
    status.append(html("span", {class: "ply"}, `ply ${state.ply} of ${state.moves.length}`));
    $("fen").textContent = node.position;
    document.title = `${terse(node)} · ${node.position} · Neutreeko explorer`;
  }

  /** Where the squares of the board shown are drawn (board.js). */
  const shape = () => BoardView.geometry(state.board, flipped);

  /** The moves of the piece on ``square`` that the position shown allows, by target square. */
  function targetsOf(square) {
    const targets = new Map();
    if (!square || ending(state.ply)) return targets;
    for (const entry of current().moves) {
      const [origin, target] = squaresOf(entry.move);
      if (origin === square) targets.set(target, entry);
    }
    return targets;
  }

  function movable(square) {
    return targetsOf(square).size > 0;
  }

  function renderBoard() {
    if (editor.open) {
      BoardView.draw(boardSvg, {
        board: state.board, flipped, position: editor.notation(), label: `Position editor, ${editor.notation()}` +
          (cursor ? `, the cursor on ${cursor}` : ""), last: null, selected: null, cursor, targets: new Map(),
        movable: () => false, target: null, winner: null, drag: drag && drag.moved ? drag : null, slide: null,
      });
      return;
    }
    const node = current(), end = ending(state.ply);
    BoardView.draw(boardSvg, {
      board: state.board, flipped, position: node.position,
      label: `Board ${node.position}` + (cursor ? `, the cursor on ${cursor}` : "") +
             (selected ? `, the piece on ${selected} picked up` : ""),
      last: state.ply > 0 ? state.moves[state.ply - 1] : null, selected, cursor, targets: targetsOf(selected),
      movable, target: valueDot, winner: end ? end.winner : null,
      drag: drag && drag.moved ? drag : null, slide,
    });
    slide = null;
  }

  /** A target's dot, which says the move's value in letters too: W3, D, L22. */
  function valueDot(entry, {x, y}) {
    const dot = element("g", {class: `dot ${entry.value}`});
    dot.append(element("title", {}, `${entry.move}: ${moveText(entry)}`),
               element("circle", {cx: x, cy: y, r: 0.22 * CELL}),
               element("text", {x, y, "font-size": 0.2 * CELL},
                       entry.value[0].toUpperCase() + (entry.value === "draw" ? "" : entry.plies)));
    return dot;
  }

  /** Draw the arrow of a move (an entry of the position's ranking), or none. */
  function showArrow(entry) {
    const layer = boardSvg.querySelector(".arrows");
    if (!layer) return;
    layer.replaceChildren();
    if (!entry) return;
    const [origin, target] = squaresOf(entry.move).map(shape().centre);
    const length = Math.hypot(target.x - origin.x, target.y - origin.y);
    const ux = (target.x - origin.x) / length, uy = (target.y - origin.y) / length;
    const nx = -uy * 0.09 * CELL, ny = ux * 0.09 * CELL;  // set off to the right of the direction
    const tip = {x: target.x + nx - ux * 0.06 * CELL, y: target.y + ny - uy * 0.06 * CELL};
    const base = {x: tip.x - ux * 0.28 * CELL, y: tip.y - uy * 0.28 * CELL};
    const half = 0.13 * CELL;
    const arrow = element("g", {class: `arrow ${entry.value}`});
    arrow.append(
      element("line", {x1: origin.x + nx + ux * 0.38 * CELL, y1: origin.y + ny + uy * 0.38 * CELL,
                       x2: base.x + ux * 2, y2: base.y + uy * 2}),
      element("polygon", {points: [[tip.x, tip.y], [base.x - uy * half, base.y + ux * half],
                                   [base.x + uy * half, base.y - ux * half]].map(point => point.join(",")).join(" ")}));
    layer.append(arrow);
  }

  function renderMoves() {
    const node = current(), end = ending(state.ply), panel = $("moves");
    panel.replaceChildren();
    if (end) {
      $("moves-caption").textContent = "";
      panel.append(html("p", {class: "empty"}, `${end.text}: no moves.`));
      return;
    }
    $("moves-caption").textContent = `${capitalise(node.to_move)}'s ${node.moves.length}, best first`;
    const best = node.moves[0];
    for (const value of VALUES) {
      const entries = node.moves.filter(entry => entry.value === value);
      if (!entries.length) continue;
      const group = html("div", {class: `group ${value}`});
      group.append(html("h3", {}, `${GROUPS[value]} (${entries.length})`));
      for (const entry of entries) {
        const isBest = sameValue(entry, best);
        const button = html("button", {type: "button", class: `move${isBest ? " best" : ""}`, "data-move": entry.move,
                                       title: `${entry.move} ${moveText(entry)}${isBest ? " (best)" : ""}`});
        button.append(html("span", {class: "name"}, entry.move), pill(entry));
        button.addEventListener("mouseenter", () => showArrow(entry));
        // Focus from the keyboard draws the arrow, as hovering does; focus from a click (or put back after
        // one) does not, so that the arrow of a move the pointer is not on does not stay drawn.
        button.addEventListener("focus", () => { if (button.matches(":focus-visible")) showArrow(entry); });
        button.addEventListener("mouseleave", () => showArrow(null));
        button.addEventListener("blur", () => showArrow(null));
        button.addEventListener("click", () => act(() => play(entry.move)));
        group.append(button);
      }
      panel.append(group);
    }
  }

  /** The tooltip of a move of the game, judged as ``judgement``: its value, and for a marked move the better moves. */
  function verdict({move, before, after, mark, best, keeping, legal}) {
    if (mark === "best") {
      return `${move}: ${moveText(after)}, a best move` +
             (before.value === "loss" ? "" : ` (${keeping} of ${legal} moves keep the ${before.value})`);
    }
    return `${MARKS[mark].words}. Played ${move}: ${moveText(after)}; better ${best.join(", ")}: ${moveText(before)}`;
  }

  /**
   * The game as a tree: the main line in move pairs, each variation under the move it replaces, indented,
   * its own nested in it; every move a button that goes to its line at that ply, the move shown
   * highlighted, those after it on its line faint. The caption is the line shown's.
   */
  function renderGame() {
    const list = $("game"), main = state.main, places = new Map(GameTree.linesOf(main).map((line, at) => [line, at]));
    const button = (line, ply) => moveButton(line, ply, places.get(line));
    list.replaceChildren();
    let row = null;
    main.moves.forEach((move, at) => {
      const ply = at + 1, {side, number} = main.judged[at];
      if (side === "black" || !row) {
        row = html("li");
        row.append(html("span", {class: "number"}, number.replace(/\.+$/, ".")));
        if (side === "white") row.append(html("span", {class: "filler"}, "..."));
        list.append(row);
      }
      row.append(button(main, ply));
      const branches = main.variations.filter(branch => branch.ply === ply);
      if (side === "white" || branches.length) row = null;
      if (branches.length) {
        list.append(html("li", {class: "variations"}));
        list.lastChild.append(...branches.map(branch => GameTree.variationBlock(branch, {button, number: variationNumber, name: variationName})));
      }
    });
    const end = ending(main.moves.length, [state.root, ...GameTree.nodesOf(main)]);
    if (end) list.append(html("li", {class: "game-result"}, end.result));
    if (!main.moves.length) list.append(html("li", {class: "game-result"}, "No moves yet: play one on the board."));
    const marked = {inaccuracy: 0, mistake: 0, blunder: 0};
    for (const {mark} of state.judged) if (mark !== "best") marked[mark] += 1;
    const counts = Object.entries(marked).filter(([, count]) => count)
      .map(([kind, count]) => `${count} ${count > 1 ? MARKS[kind].plural : kind}`);
    const first = state.judged.find(({mark}) => mark === "mistake" || mark === "blunder");
    $("game-caption").textContent = state.moves.length
      ? `${state.line === main ? "" : "variation: "}${plyCount(state.moves.length)}` +
        `${counts.length ? "; " + counts.join(", ") : ""}` +
        (first ? `; first decisive error ${first.number} ${first.move}` : "") : "";
    const currentButton = list.querySelector(".current");
    if (currentButton) Page.scrollWithin(list, currentButton);
  }

  // A variation's moves say their numbers as the game's pairs do: a Black move's, and the first of a line.
  function variationNumber(line, ply, first) {
    const {side, number} = line.judged[ply - line.ply];
    return first || side === "black" ? number : null;
  }

  const variationName = line => `Variation at ${line.judged[0].number}`;

  /** The button of ply ``ply`` of ``line``, the ``place``-th line of the tree. */
  function moveButton(line, ply, place) {
    const judgement = line.judged[ply - line.ply];
    const classes = ["ply", GameTree.standing(line, ply, state.line, state.ply)].join(" ").trim();
    const item = html("button", {type: "button", class: classes, "data-ply": ply, "data-line": place,
                                 title: verdict(judgement)}, judgement.move);
    if (judgement.mark !== "best") item.append(html("span", {class: `mark ${judgement.mark}`}, MARKS[judgement.mark].symbol));
    item.addEventListener("click", () => goToLine(line, ply));
    if (judgement.mark !== "mistake" && judgement.mark !== "blunder") return item;
    const both = html("span", {class: "marked"});  // one cell of the game's grid
    both.append(item, betterMoveLink(judgement));
    return both;
  }

  /** The training page (train.js) on the position before a mistake or blunder: find a move that keeps the value. */
  function betterMoveLink({move, position, number}) {
    const query = queryText([["board", state.board], ["rule", state.rule], ["position", position], ["played", move]]);
    return html("a", {class: "better", href: `/train?${query}`, title: `Find a better move than ${number} ${move}`,
                      "aria-label": `Find a better move than ${number} ${move}`}, "find better");
  }

  /**
   * The value history (chart.js): across, the plies to the end of a won position, counted from Black's edge
   * (left) when Black wins and from White's (right) when White does; draws on the centre line. Each point
   * is coloured by its value for the side to move, each link by the move's value for its player.
   */
  function renderChart() {
    const nodes = state.nodes, longest = Math.max(10, ...nodes.map(node => node.plies || 0));
    const step = longest > 40 ? 10 : 5, minor = longest > 40 ? 5 : 1;  // labelled and faint grid lines
    const reach = Math.ceil(longest / step) * step, unit = 0.5 / (reach + 2);
    const atOf = node => {
      if (node.value === "draw") return 0.5;
      const blackWins = (node.value === "win") === (node.to_move === "black");
      return blackWins ? node.plies * unit : 1 - node.plies * unit;
    };
    const ticks = [];
    for (let distance = 0; distance <= reach; distance += minor) {
      const major = distance % step === 0, text = major && distance < reach ? String(distance) : null;
      ticks.push({at: distance * unit, text, major}, {at: 1 - distance * unit, text, major});
    }
    const rows = nodes.map((node, ply) => ({
      at: atOf(node), value: node.value, left: node.to_move === "black",
      title: `${ply ? `${ply}. ${state.moves[ply - 1]}` : "start"}: ${capitalise(node.to_move)} to move, ${terse(node)}`,
      label: state.moves[ply], link: ply < state.moves.length ? judged(ply + 1).after.value : null,
    }));
    ValueChart.draw($("chart-head"), chartSvg, {sides: ["\u25C0 Black wins", "draw", "White wins \u25B6"],
                                                axis: "plies to the end", ticks, rows, current: state.ply, pick: goTo});
  }

  function renderControls() {
    $("first").disabled = $("back").disabled = state.ply === 0;
    $("forward").disabled = $("last").disabled = state.ply === state.moves.length;
    $("line-button").disabled = Boolean(ending(state.ply));
    $("promote").disabled = $("delete").disabled = state.line === state.main;
    $("board-select").value = state.board;
    fillRules();
    $("rule-select").value = state.rule;
  }

  // -- the board's pointer: click a piece then a target, or drag it ---------------------------------

  const pointOf = event => shape().pointOf(boardSvg, event);
  const squareAt = point => shape().squareAt(point);

  /**
   * A square chosen, by a click or by Enter on the cursor: a target of the piece picked up plays its move
   * (returns true); a piece that can move is picked up; any other square puts the piece down.
   */
  function choose(square) {
    const entry = targetsOf(selected).get(square);
    if (entry) {
      act(() => play(entry.move));
      return true;
    }
    selected = square && movable(square) ? square : null;
    return false;
  }

  boardSvg.addEventListener("pointerdown", event => {
    if (event.button !== 0) return;
    const square = squareAt(pointOf(event));
    if (editor.open) {
      // A piece may be dragged (a click puts or takes off, at the pointer's release); an empty square is a click.
      if (square && editor.at(square)) {
        drag = {square, pointer: event.pointerId, from: pointOf(event), at: pointOf(event), moved: false};
        boardSvg.setPointerCapture(event.pointerId);
        event.preventDefault();
      } else if (square) {
        editor.put(square, editor.chosen());
      }
      return;
    }
    if (choose(square)) return;
    if (selected) {
      drag = {square, pointer: event.pointerId, from: pointOf(event), at: pointOf(event), moved: false};
      boardSvg.setPointerCapture(event.pointerId);
      event.preventDefault();
    }
    renderBoard();
  });

  boardSvg.addEventListener("pointermove", event => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const at = pointOf(event);
    if (!at) return;
    drag.at = at;
    if (!drag.moved && Math.hypot(at.x - drag.from.x, at.y - drag.from.y) < 0.08 * CELL) return;
    drag.moved = true;
    renderBoard();
  });

  function endDrag(event, dropped) {
    if (!drag || event.pointerId !== drag.pointer) return;
    const {moved, square} = drag;
    drag = null;
    if (editor.open) {
      if (!moved) editor.put(square, editor.chosen());
      else if (dropped) editor.move(square, squareAt(pointOf(event)));
      else renderBoard();
      return;
    }
    if (moved) {
      const target = dropped ? squareAt(pointOf(event)) : null;
      const entry = targetsOf(square).get(target);
      if (entry) {
        act(() => play(entry.move, {slides: false}));
        return;
      }
      if (target !== square) selected = null;
    }
    renderBoard();
  }

  boardSvg.addEventListener("pointerup", event => endDrag(event, true));
  boardSvg.addEventListener("pointercancel", event => endDrag(event, false));

  // -- the position editor (editor.js) --------------------------------------------------------------
  //
  // It sets up a position on the board and rule shown, checked by /api/position: its value, or the
  // message the command line gives for a position that is not legal.

  /** The position of ``pieces`` (a Map of square -> "black" or "white") on the board shown, in notation. */
  function editorFen(pieces) {
    const [width, height] = BoardView.dimensions(state.board), ranks = [];
    for (let rank = height - 1; rank >= 0; rank -= 1) {
      let text = "", empty = 0;
      for (let file = 0; file < width; file += 1) {
        const colour = pieces.get(BoardView.squareName(file, rank));
        if (colour) {
          text += (empty || "") + colour[0];
          empty = 0;
        } else {
          empty += 1;
        }
      }
      ranks.push(text + (empty || ""));
    }
    return `${ranks.join("/")} ${$("editor-side").value}`;
  }

  const editor = PositionEditor.create({
    notation: editorFen,
    query: fen => "?" + queryText([["board", state.board], ["rule", state.rule], ["edit", fen]]),
    check: fen => api("position", {position: fen, board: state.board, rule: state.rule})
      .then(answer => `${capitalise(answer.to_move)} to move, ${terse(answer)}`),
    redraw: renderBoard,
    explore: fen => act(() => show({board: state.board, rule: state.rule, start: fen, moves: [], ply: null}, "push")),
    cancel: () => {
      record("replace");
      render();
    },
    hides: ".board-panel .controls, .tools-panel",
    inert: ".game-panel",
    moves: "moves",
  });

  const placed = fen => piecesOf(fen, state.board).map(({colour, square}) => [square, colour]);

  /** Open the editor on ``fen`` (on the board and rule shown), recorded in the URL as ``how`` says. */
  function openEditor(fen, how) {
    cancelReply();
    $("editor-side").value = /\sw\s*$/.test(fen) ? "w" : "b";
    selected = null;
    editor.begin(placed(fen), how);
    renderStatus();
  }

  $("edit-button").addEventListener("click", () => act(() => openEditor(current().position, "push")));
  $("editor-side").addEventListener("change", () => editor.changed("replace"));
  $("editor-start").addEventListener("click", () => act(async () => {
    const start = await api("position", {position: "start", board: state.board, rule: state.rule});
    $("editor-side").value = "b";
    editor.begin(placed(start.position), "replace");
  }));

  // -- controls, keys and forms ---------------------------------------------------------------------

  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(state.ply - 1));
  $("forward").addEventListener("click", () => goTo(state.ply + 1));
  $("last").addEventListener("click", () => goTo(state.moves.length));

  // The board's own keys, while it has the keyboard's focus: the arrows move the cursor over the squares
  // as they are drawn (a flipped board's too), Enter or Space chooses the square under it.
  boardSvg.addEventListener("keydown", event => {
    if (!state.nodes.length || !boardSvg.matches(":focus-visible") || event.altKey || event.ctrlKey || event.metaKey) return;
    cursor = cursor || firstCursor();
    const puts = {b: "black", w: "white", Delete: "empty", Backspace: "empty"};
    if (event.key in CURSOR_STEPS) {
      cursor = shape().step(cursor, event.key);
    } else if (editor.open && (event.key in puts || event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      event.stopPropagation();
      editor.put(cursor, puts[event.key] || editor.chosen());
      return;
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (choose(cursor)) return;
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();  // not a step through the game
    renderBoard();
  });

  /** Where the cursor starts (on a new board or view): on a piece that can move, or A1. */
  const firstCursor = () => (editor.open ? "A1"
    : piecesOf(current().position, state.board).map(piece => piece.square).find(movable) || "A1");

  // The cursor shows while the board has the keyboard's focus.
  boardSvg.addEventListener("focus", () => {
    if (!state.nodes.length) return;  // the page is starting
    cursor = cursor || firstCursor();
    renderBoard();
  });

  document.addEventListener("keydown", event => {
    if (event.target.closest("input, select, textarea, dialog") || event.altKey || event.ctrlKey || event.metaKey) return;
    if (editor.open) return;  // no game to step through
    const steps = {ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: state.moves.length,
                   ArrowUp: 0, ArrowDown: state.moves.length};
    if (event.key in steps) {
      event.preventDefault();
      goTo(steps[event.key]);
    } else if (event.key === "Escape" && selected) {
      selected = null;
      renderBoard();
    } else if (event.key === "f") {
      flipped = !flipped;
      renderBoard();
    } else if (event.key === "?") {
      showKeys();
    }
  });

  /** The list of keys, over the page; Escape or its button closes it, the focus going back where it was. */
  function showKeys() {
    const before = document.activeElement;
    $("keys").addEventListener("close", () => before.focus({preventScroll: true}), {once: true});
    $("keys").showModal();
  }

  $("line-button").addEventListener("click", () => act(async () => {
    const node = current();
    if (ending(state.ply)) return;
    const line = await api("line", {position: node.position, board: state.board, rule: state.rule});
    const names = line.moves.map(step => step.move);
    // A drawn line goes on past the third repetition, where the page ends the game: /api/game cuts it there.
    const moves = state.moves.slice(0, state.ply).concat(names);
    let held = GameTree.follow(state.main, moves), shown = held.line;
    if (held.held < moves.length) {
      const answer = await api("game", {position: state.start, board: state.board, rule: state.rule,
                                        moves: moves.join(" ")});
      const played = answer.annotation.moves.map(judgement => judgement.move);
      held = GameTree.follow(state.main, played);
      shown = held.held < played.length
        ? GameTree.graft(held, played, answer.positions.slice(held.held + 1), answer.annotation.moves.slice(held.held))
        : held.line;
    }
    showLine(shown, state.ply);
    record("push");
    render();
    say(`The perfect line from here: ${plyCount(names.length)}, ${line.result}. ` +
        "Step through it with \u25B6 or the right arrow key.", "note");
  }));

  /** The game record of the tree, variations and all, as the server writes it (/api/record). */
  async function gameRecord() {
    const answer = await api("record", {position: state.start, board: state.board, rule: state.rule,
                                        moves: GameTree.textOf(state.main)});
    return answer.record;
  }

  Page.attachExport({position: () => current().position, record: gameRecord, reader: "neutreeko annotate",
                     file: () => `neutreeko-${state.board}-${state.rule}.txt`, act});

  GameTree.attachTools({view: () => state, act, show: (line, ply) => {
    showLine(line, ply);
    record("push");
    render();
  }});

  /**
   * The view a pasted text asks for: a link, a game record (tags, or several lines: the server reads
   * it, variations and all, and its answer is the view's), a position (and moves after it), or moves
   * from the start.
   */
  async function pastedView(text) {
    text = text.trim();
    if (/^\[/.test(text) || text.includes("\n")) {
      const answer = await api("game", {}, text);
      return {board: answer.annotation.board, rule: answer.annotation.rule, start: answer.start, answer, ply: null};
    }
    if (/^(https?:\/\/|\?)/i.test(text)) {
      const view = viewOf(new URL(text, location.href).searchParams);
      return view;
    }
    const tokens = moveTokens(text);
    if (tokens.length && tokens[0].includes("/")) {
      return {board: null, rule: state.rule, start: tokens.slice(0, 2).join(" "), moves: tokens.slice(2), ply: null};
    }
    if (tokens.length && tokens[0].toLowerCase() === "start") {
      return {board: state.board, rule: state.rule, start: "start", moves: tokens.slice(1), ply: null};
    }
    return {board: state.board, rule: state.rule, start: state.start, moves: tokens, ply: null};
  }

  Page.attachPaste(async text => showAsked(await pastedView(text), "push"), act);

  function fillBoards() {
    const select = $("board-select");
    const boards = [...new Set(games.map(game => game.board))];
    select.replaceChildren(...boards.map(board => {
      const available = games.some(game => game.board === board && game.table !== "missing");
      return html("option", {value: board, disabled: available ? null : "",
                             title: available ? null : `no table: build one with neutreeko solve --board ${board}`},
                  available ? board : `${board} (no table)`);
    }));
  }

  function fillRules() {
    const select = $("rule-select");
    const board = $("board-select").value || state.board;
    const offered = games.filter(game => game.board === board);
    if ([...select.options].map(option => option.value + option.disabled).join() ===
        offered.map(game => game.rule + (game.table === "missing")).join()) return;
    select.replaceChildren(...offered.map(game => html("option", {
      value: game.rule, disabled: game.table === "missing" ? "" : null,
      title: game.table === "missing" ? `no table: build one with neutreeko solve --board ${board} --rule ${game.rule}` : null,
    }, game.table === "missing" ? `${game.rule} (no table)` : game.rule)));
  }

  $("board-select").addEventListener("change", () => {
    const board = $("board-select").value;
    const rules = games.filter(game => game.board === board && game.table !== "missing").map(game => game.rule);
    const rule = rules.includes(state.rule) ? state.rule : rules[0];
    act(() => show({board, rule, start: "start", moves: [], ply: null}, "push"));
  });

  $("rule-select").addEventListener("change", () => {
    act(() => show({board: state.board, rule: $("rule-select").value, start: "start", moves: [], ply: null}, "push"));
  });

  // A longest win's link in the statistics panel opens its position as a new view.
  StatsPanel.attach({pill, open: parameters => act(() => showAsked(viewOf(parameters), "push"))});

  window.addEventListener("popstate", () => act(async () => {
    const parameters = new URLSearchParams(location.search);
    await showAsked(viewOf(parameters), null);
    if (parameters.get("edit")) openEditor(parameters.get("edit"), null);
  }));

  // The perfect-reply setting is kept across visits. Storage may be refused (a browser's privacy
  // settings): the setting then lasts as long as the page.
  const REPLY_SETTING = "neutreeko-explorer.reply";
  try {
    $("reply-toggle").checked = localStorage.getItem(REPLY_SETTING) === "on";
  } catch (error) { /* refused: the box starts unticked */ }
  $("reply-toggle").addEventListener("change", () => {
    try {
      localStorage.setItem(REPLY_SETTING, $("reply-toggle").checked ? "on" : "off");
    } catch (error) { /* refused: kept for this page only */ }
  });

  // -- start ----------------------------------------------------------------------------------------

  act(async () => {
    const parameters = new URLSearchParams(location.search), asked = viewOf(parameters);
    try {
      await showAsked(asked, "replace");
      if (parameters.get("edit")) openEditor(parameters.get("edit"), "replace");
    } catch (error) {
      await show({...asked, moves: [], ply: null}, "replace")
        .catch(() => show({board: null, rule: null, start: "start", moves: [], ply: null}, "replace"));
      throw new Error(`the link could not be shown: ${error.message}`);
    }
  });
})();
