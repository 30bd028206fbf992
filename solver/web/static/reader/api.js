/* The explorer's JSON API answered in the browser, from the tables of a release read over HTTP (table.js):
 * the answers of `neutreeko serve` (docs/reference/json-api.md) for /api/games, and /api/position,
 * /api/game, /api/annotate and /api/line of Neutreeko, /api/position, /api/game, /api/line and
 * /api/rules of NECNON (necnon.js); what needs Python (a table the release lacks, variations, the other
 * endpoints, NECNON's search engine) is refused with a message that says so. page.js calls answer() when
 * the page is a static site (site.json beside it names where the release lives).
 */
import {openTable} from "./table.js";
import * as N from "./neutreeko.js";
import * as C from "./necnon.js";

const MAX_LINE_PLIES = 1000;
const NEEDS_PYTHON = "needs the installed explorer (install neutreeko-solver, then run neutreeko serve)";

let release = null;  // promise of {base: URL of the release, entries: the manifest's tables}

/** The release this site reads, from site.json: {base, entries}. */
function releaseOf() {
  if (!release) {
    release = (async () => {
      const site = await (await fetch(new URL("site.json", document.baseURI))).json();
      const base = new URL(site.tables.replace(/\/?$/, "/"), document.baseURI);
      const response = await fetch(new URL("manifest.json", base));
      if (!response.ok) throw new Error(`the release at ${base} has no manifest.json (${response.status})`);
      const manifest = await response.json();
      if (manifest.format !== "neutreeko-solver release") throw new Error(`${base}manifest.json is not a release's manifest`);
      return {base, entries: manifest.tables};
    })();
    release.catch(() => { release = null; });
  }
  return release;
}

const opened = new Map();  // "game board variant" -> promise of the table, checked

/** The table of ``game`` ("neutreeko" or "necnon") on ``board`` under ``variant`` (its rule or protocol),
 * opened once and checked by ``check``; an Error saying what is missing and where to get it. */
async function tableOf(game, board, variant, check) {
  const key = `${game} ${board} ${variant}`;
  if (!opened.has(key)) {
    opened.set(key, (async () => {
      const {base, entries} = await releaseOf();
      const entry = entries.find(e => e.game === game && e.board === board && (e.rule || e.protocol) === variant);
      if (!entry) throw new Error(`no table for ${board} ${variant} in this site's release: building one ${NEEDS_PYTHON}`);
      return check(await openTable(new URL(entry.file, base).href));
    })());
    opened.get(key).catch(() => opened.delete(key));
  }
  return opened.get(key);
}

const neutreekoTable = game => tableOf("neutreeko", game.board.name, game.rule, table => N.checkTable(game, table));

const valueOf = e => ({value: e.value, plies: e.plies});
const side = p => (p.blackToMove ? "black" : "white");

function positionObject(p, e) {
  return {position: N.fen(p), board: p.game.board.name, to_move: side(p), ...valueOf(e)};
}

async function queryObject(table, p) {
  const ranked = await N.rankedMoves(table, p);
  return {...positionObject(p, await N.probe(table, p)),
          moves: ranked.map(m => ({move: m.name, ...valueOf(m.evaluation), position: N.fen(m.position)}))};
}

/** The position the parameters name before their moves. */
const startOf = q => N.parsePosition(q.position || "start", q.board || null, q.rule || "connected");

/** The moves of move text, split at ``separators`` (Neutreeko's: spaces and commas; NECNON's turns hold
 * commas), move numbers ("1.", "1...") left out. */
const moveWords = (text, separators = /[\s,]+/) => String(text || "").split(separators)
  .map(word => word.replace(/^\d+\.+/, "")).filter(Boolean);

/** How play has ended at ``p``, seen ``times`` times: {result} or null (outcome.py's ending). */
function ending(p, times) {
  const winner = N.winner(p);
  if (winner) return {result: `${winner} wins`};
  if (!N.moves(p).length) return {result: `${p.blackToMove ? "white" : "black"} wins`};
  return times >= 3 ? {result: "draw by repetition"} : null;
}

/** The move number of ply ``ply`` (from 1) of a game from ``start``, and its label ("3." or "3..."). */
const moveNumber = (start, ply) => Math.floor((ply - 1 + (start.blackToMove ? 0 : 1)) / 2) + 1;
const plyLabel = (start, ply) => `${moveNumber(start, ply)}${(ply % 2 === 1) === start.blackToMove ? "." : "..."}`;

const sameValue = (a, b) => a.value === b.value && a.plies === b.plies;
const MARKS = ["inaccuracy", "mistake", "blunder"];

/** Ply ``ply`` of a game from ``start`` judged: annotate.py's ply object. */
async function judge(table, start, ply, p, move) {
  const ranked = await N.rankedMoves(table, p);
  const played = ranked.find(m => m.move[0] === move[0] && m.move[1] === move[1]);
  const before = ranked[0].evaluation, after = played.evaluation;
  const values = ["win", "draw", "loss"];
  return {ply, number: plyLabel(start, ply), side: side(p), move: played.name,
          position: N.fen(p), before: valueOf(before), after: valueOf(after),
          mark: sameValue(before, after) ? "best" : MARKS[values.indexOf(after.value) - values.indexOf(before.value)],
          best: ranked.filter(m => sameValue(m.evaluation, before)).map(m => m.name),
          keeping: ranked.filter(m => m.evaluation.value === before.value).length, legal: ranked.length};
}

/** The moves of ``words`` from ``start`` while each is legal and the game goes on: {positions, moves, refused}. */
function playable(start, words) {
  const positions = [start], moves = [], seen = new Map([[N.fen(start), 1]]);
  for (const word of words) {
    const p = positions[positions.length - 1], over = ending(p, seen.get(N.fen(p)));
    const refused = reason => ({positions, moves, refused: `ply ${moves.length + 1}, ${word.slice(0, 24)}, cannot be played: ${reason}`});
    if (over) return refused(`the game is over (${over.result})`);
    let move;
    try {
      move = N.parseMove(p, word);
    } catch (error) {
      return refused(error.message);
    }
    const after = N.play(p, move);
    seen.set(N.fen(after), (seen.get(N.fen(after)) || 0) + 1);
    positions.push(after);
    moves.push(move);
  }
  return {positions, moves, refused: null};
}

async function annotation(table, start, played) {
  const {positions, moves} = played;
  const plies = [];
  for (let i = 0; i < moves.length; i++) plies.push(await judge(table, start, i + 1, positions[i], moves[i]));
  const end = positions[positions.length - 1], first = plies.find(p => p.mark === "mistake" || p.mark === "blunder");
  const summary = {};
  for (const colour of ["black", "white"]) {
    const own = plies.filter(p => p.side === colour), count = mark => own.filter(p => p.mark === mark).length;
    summary[colour] = {moves: own.length, kept: count("best") + count("inaccuracy"), best: count("best"),
                       inaccuracies: count("inaccuracy"), mistakes: count("mistake"), blunders: count("blunder")};
  }
  const times = positions.filter(p => N.fen(p) === N.fen(end)).length, over = ending(end, times);
  return {board: start.game.board.name, rule: start.game.rule, start: N.fen(start), ...valueOf(await N.probe(table, start)),
          moves: plies, summary, first_error: first ? first.ply : null,
          end: {position: N.fen(end), to_move: side(end), ...valueOf(await N.probe(table, end))},
          result: over ? over.result : "*"};
}

async function line(table, start, maxPlies) {
  const value = await N.probe(table, start), steps = [], seen = new Map([[N.fen(start), 1]]);
  let current = start, currentValue = value, over;
  while (!(over = ending(current, seen.get(N.fen(current))))) {
    if (steps.length >= maxPlies) {
      over = {result: "stopped"};
      break;
    }
    const ranked = await N.rankedMoves(table, current), best = ranked[0];
    const keeping = ranked.filter(m => currentValue.value === "loss" || m.evaluation.value === currentValue.value);
    current = best.position;
    currentValue = await N.probe(table, current);
    seen.set(N.fen(current), (seen.get(N.fen(current)) || 0) + 1);
    steps.push({move: best.name, forced: keeping.length === 1, p: current, value: currentValue});
  }
  const groups = [];
  steps.forEach((step, i) => {
    const label = plyLabel(start, i + 1);
    if (i > 0 && label.endsWith("...")) groups[groups.length - 1] += ` ${step.move}`;
    else groups.push(`${label} ${step.move}`);
  });
  const end = steps.length ? steps[steps.length - 1].p : start;
  const names = p => (p.blackToMove ? p.white : p.black).map(s => N.squareName(start.game, s)).join(" ");
  const reason = over.result === "stopped" ? "ply limit" : over.result === "draw by repetition"
    ? "the same position for the third time" : N.winner(end) ? `three in a row on ${names(end)}`
      : `${end.blackToMove ? "Black" : "White"} cannot move`;
  return {...positionObject(start, value),
          moves: steps.map((step, i) => ({ply: i + 1, number: moveNumber(start, i + 1),
                                         move: step.move, forced: step.forced, position: N.fen(step.p),
                                         to_move: side(step.p), ...valueOf(step.value)})),
          movetext: groups.join(" "), result: over.result, reason};
}

/** The list of /api/games: every board and rule (and NECNON's boards and protocols), "ready" where the
 * release has its table. */
async function games() {
  const {entries} = await releaseOf(), list = [];
  const ready = (game, board, variant) => entries.some(e => e.game === game && e.board === board && (e.rule || e.protocol) === variant);
  for (let width = 3; width <= 11; width++) for (let height = 3; height <= 11; height++) {
    for (const rule of N.RULE_NAMES) {
      try {
        N.gameOf(`${width}x${height}`, rule);
      } catch (error) {
        continue;
      }
      list.push({game: "neutreeko", board: `${width}x${height}`, rule,
                 table: ready("neutreeko", `${width}x${height}`, rule) ? "ready" : "missing"});
    }
  }
  const boards = [];
  for (let width = 2; width <= 7; width++) for (let height = 2; height <= 7; height++) boards.push(`${width}x${height}`);
  for (let base = 2; base <= 6; base++) boards.push(`hex${base}`);
  for (const board of boards) {
    for (const protocol of ["nec", "non", "nec-non", "non-nec"]) {
      const table = ready("necnon", board, protocol) ? "ready" : C.gridOf(board).cells > 30 ? "too large" : "missing";
      list.push({game: "necnon", board, protocol, table});
    }
  }
  return {games: list, default: {board: "5x5", rule: "connected"}, max_line_plies: MAX_LINE_PLIES};
}

/** The answer of /api/<endpoint> to ``parameters`` (``body``: a posted record), as serve gives it. */
export async function answer(endpoint, parameters = {}, body = null) {
  if (endpoint === "games") return games();
  const necnon = parameters.game === "necnon";
  const answered = necnon ? ["position", "game", "line", "rules"] : ["position", "game", "annotate", "line"];
  if (!["neutreeko", "necnon", undefined].includes(parameters.game) || body !== null || !answered.includes(endpoint)) {
    throw new Error(`this ${NEEDS_PYTHON}`);
  }
  if (necnon) return necnonAnswer(endpoint, parameters);
  const start = startOf(parameters), table = await neutreekoTable(start.game), words = moveWords(parameters.moves);
  if (words.some(word => /[()]/.test(word))) throw new Error(`variations need the installed explorer (${NEEDS_PYTHON})`);
  if (endpoint === "game") {
    const played = playable(start, words);
    const positions = [];
    for (const p of played.positions) positions.push(await queryObject(table, p));
    return {start: N.fen(start) === N.fen(start.game.start) ? "start" : N.fen(start), positions,
            annotation: await annotation(table, start, played), refused: played.refused, variations: []};
  }
  const played = playable(start, words);
  if (played.refused) throw new Error(played.refused);
  if (endpoint === "annotate") return annotation(table, start, played);
  const p = played.positions[played.positions.length - 1];
  if (endpoint === "line") {
    const plies = parameters.max_plies === undefined ? String(MAX_LINE_PLIES) : String(parameters.max_plies);
    if (!/^\d{1,4}$/.test(plies) || Number(plies) > MAX_LINE_PLIES) {
      throw new Error(`max_plies ${N.quote(plies.slice(0, 20))} is not a whole number from 0 to ${MAX_LINE_PLIES}`);
    }
    return line(table, p, Number(plies));
  }
  return queryObject(table, p);
}

// -- NECNON ----------------------------------------------------------------------------------------

function described(p) {
  return {position: C.notation(p), board: p.game.grid.name, protocol: p.game.setting, to_move: p.blackToMove ? "black" : "green",
          over: C.over(p)};
}

function score(p) {
  const [black, green] = C.points(p);
  return {points: {black, green}, smothered: C.groups(p).filter(g => g.smothered)
    .map(g => ({colour: g.colour, cells: g.cells.map(cell => p.game.grid.cellName(cell))}))};
}

const valued = (p, e) => ({...described(p), value: e.margin, turns: e.turns, result: C.result(e.margin)});

/** What the rules say of ``p`` (report.state_object). */
function stateObject(p) {
  const turns = C.turns(p), [black, green] = C.points(p);
  return {...described(p), allowed: C.over(p) ? [] : C.allowed(p).map(cell => p.game.grid.cellName(cell)),
          stones: turns.length ? turns[0].length : 0, result: C.result(black - green), ...score(p)};
}

async function necnonQuery(table, p) {
  const ranked = await C.rankedTurns(table, p);
  return {...valued(p, await C.probe(table, p)),
          ranking: ranked.map(r => ({turn: r.name, value: r.evaluation.margin, turns: r.evaluation.turns,
                                     position: C.notation(r.position)}))};
}

const round = x => Math.round(x * 1e4) / 1e4;

function gridObject(grid) {
  return {board: grid.name, kind: grid.kind, extent: grid.extent.map(round),
          cells: grid.centres.map(([x, y], cell) => ({name: grid.cellName(cell), x: round(x), y: round(y)})),
          rows: grid.rows.map(row => row.map(cell => grid.cellName(cell)))};
}

/** The turns of ``words`` from ``start`` while each can be played: {positions, turns, refused}. */
function playableTurns(start, words) {
  const positions = [start], turns = [];
  for (const word of words) {
    const p = positions[positions.length - 1];
    const refused = reason => ({positions, turns, refused: `turn ${turns.length + 1}, ${word.slice(0, 24)}, cannot be played: ${reason}`});
    if (C.over(p)) {
      const [black, green] = C.points(p);
      return refused(`the game is over (${C.result(black - green)})`);
    }
    try {
      const turn = C.parseTurn(p, word);
      positions.push(C.play(p, turn));
      turns.push(turn);
    } catch (error) {
      return refused(error.message);
    }
  }
  return {positions, turns, refused: null};
}

async function necnonAnswer(endpoint, parameters) {
  const text = parameters.position || "empty";
  const board = parameters.board || C.notationBoard(text) || "4x4";
  const game = C.gameOf(board, parameters.protocol || "nec");
  if (game.grid.cells > 30) throw new Error(`no table for ${game.grid.name} ${game.setting}: the board has more cells than the solver takes; its search engine ${NEEDS_PYTHON}`);
  const start = C.parsePosition(text, game);
  const words = moveWords(parameters.moves, /\s+/);
  if (words.some(word => /[()]/.test(word))) throw new Error(`variations need the installed explorer (${NEEDS_PYTHON})`);
  const played = playableTurns(start, words);
  if (endpoint !== "game" && played.refused) throw new Error(played.refused.replace(/^turn \d+, [^,]*, cannot be played: /, ""));
  const p = played.positions[played.positions.length - 1];
  if (endpoint === "rules") return stateObject(p);
  const table = await tableOf("necnon", game.grid.name, game.setting, t => C.checkTable(game, t));
  if (endpoint === "position") return necnonQuery(table, p);
  if (endpoint === "line") {
    const steps = [];
    for (let current = p; !C.over(current);) {
      const best = (await C.rankedTurns(table, current))[0];
      steps.push({name: best.name, by: current.blackToMove ? "black" : "green", p: best.position,
                  e: await C.probe(table, best.position)});
      current = best.position;
    }
    const end = steps.length ? steps[steps.length - 1].p : p;
    return {...valued(p, await C.probe(table, p)),
            line: steps.map((step, i) => ({turn: i + 1, play: step.name, by: step.by, position: C.notation(step.p),
                                           value: step.e.margin, turns: step.e.turns})), ...score(end)};
  }
  const values = [];
  for (const each of played.positions) values.push(await necnonQuery(table, each));
  return {start: C.notation(start) === C.notation(C.parsePosition("empty", game)) ? "empty" : C.notation(start),
          grid: gridObject(game.grid), turns: played.turns.map(turn => C.turnName(game.grid, turn)),
          positions: played.positions.map(stateObject), values, refused: played.refused, variations: []};
}
