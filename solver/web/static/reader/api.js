/* The explorer's JSON API answered in the browser, from the tables of a release read over HTTP (table.js):
 * the answers of `neutreeko serve` (docs/reference/json-api.md) for /api/games, /api/position,
 * /api/game, /api/annotate and /api/line of Neutreeko; what needs Python (a table the release lacks,
 * the other endpoints, NECNON) is refused with a message that says so. page.js calls answer() when the
 * page is a static site (site.json beside it names where the release lives).
 */
import {openTable} from "./table.js";
import * as N from "./neutreeko.js";

const MAX_LINE_PLIES = 1000;
const NEEDS_PYTHON = "needs the installed explorer (pip install neutreeko-solver, then neutreeko serve)";

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

const opened = new Map();  // "board rule" -> promise of the table, checked

/** ``game``'s table from the release, opened once; an Error saying what is missing and where to get it. */
async function tableOf(game) {
  const key = `${game.board.name} ${game.rule}`;
  if (!opened.has(key)) {
    opened.set(key, (async () => {
      const {base, entries} = await releaseOf();
      const entry = entries.find(e => e.game === "neutreeko" && e.board === game.board.name && e.rule === game.rule);
      if (!entry) throw new Error(`no table for ${key} in this site's release: building one ${NEEDS_PYTHON}`);
      return N.checkTable(game, await openTable(new URL(entry.file, base).href));
    })());
    opened.get(key).catch(() => opened.delete(key));
  }
  return opened.get(key);
}

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

const moveWords = text => String(text || "").replace(/,/g, " ").split(/\s+/).filter(Boolean);

/** How play has ended at ``p``, seen ``times`` times: {result, reason} or null (outcome.py's ending). */
function ending(p, times) {
  const winner = N.winner(p);
  if (winner) return {result: `${winner} wins`};
  if (!N.moves(p).length) return {result: `${p.blackToMove ? "white" : "black"} wins`};
  return times >= 3 ? {result: "draw by repetition"} : null;
}

const sameValue = (a, b) => a.value === b.value && a.plies === b.plies;
const MARKS = ["inaccuracy", "mistake", "blunder"];

/** Ply ``ply`` of a game from ``start`` judged: annotate.py's ply object. */
async function judge(table, start, ply, p, move) {
  const ranked = await N.rankedMoves(table, p);
  const played = ranked.find(m => m.move[0] === move[0] && m.move[1] === move[1]);
  const before = ranked[0].evaluation, after = played.evaluation;
  const values = ["win", "draw", "loss"];
  const number = Math.floor((ply - 1 + (start.blackToMove ? 0 : 1)) / 2) + 1;
  return {ply, number: `${number}${(ply % 2 === 1) === start.blackToMove ? "." : "..."}`, side: side(p), move: played.name,
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
    const ply = i + 1, black = (ply % 2 === 1) === start.blackToMove;
    const number = Math.floor((ply - 1 + (start.blackToMove ? 0 : 1)) / 2) + 1;
    if (ply > 1 && !black) groups[groups.length - 1] += ` ${step.move}`;
    else groups.push(`${number}${black ? "." : "..."} ${step.move}`);
  });
  const end = steps.length ? steps[steps.length - 1].p : start;
  const names = p => (p.blackToMove ? p.white : p.black).map(s => N.squareName(start.game, s)).join(" ");
  const reason = over.result === "stopped" ? "ply limit" : over.result === "draw by repetition"
    ? "the same position for the third time" : N.winner(end) ? `three in a row on ${names(end)}`
      : `${end.blackToMove ? "Black" : "White"} cannot move`;
  return {...positionObject(start, value),
          moves: steps.map((step, i) => ({ply: i + 1, number: Math.floor((i + (start.blackToMove ? 0 : 1)) / 2) + 1,
                                         move: step.move, forced: step.forced, position: N.fen(step.p),
                                         to_move: side(step.p), ...valueOf(step.value)})),
          movetext: groups.join(" "), result: over.result, reason};
}

/** The list of /api/games: every board and rule, "ready" where the release has its table. */
async function games() {
  const {entries} = await releaseOf(), list = [];
  for (let width = 3; width <= 11; width++) for (let height = 3; height <= 11; height++) {
    for (const rule of N.RULE_NAMES) {
      try {
        N.gameOf(`${width}x${height}`, rule);
      } catch (error) {
        continue;
      }
      const ready = entries.some(e => e.game === "neutreeko" && e.board === `${width}x${height}` && e.rule === rule);
      list.push({game: "neutreeko", board: `${width}x${height}`, rule, table: ready ? "ready" : "missing"});
    }
  }
  return {games: list, default: {board: "5x5", rule: "connected"}, max_line_plies: MAX_LINE_PLIES};
}

/** The answer of /api/<endpoint> to ``parameters`` (``body``: a posted record), as serve gives it. */
export async function answer(endpoint, parameters = {}, body = null) {
  if (endpoint === "games") return games();
  if ((parameters.game || "neutreeko") !== "neutreeko" || body !== null
      || !["position", "game", "annotate", "line"].includes(endpoint)) {
    throw new Error(`this ${NEEDS_PYTHON}`);
  }
  const start = startOf(parameters), table = await tableOf(start.game), words = moveWords(parameters.moves);
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
      throw new Error(`max_plies ${JSON.stringify(plies.slice(0, 20))} is not a whole number from 0 to ${MAX_LINE_PLIES}`);
    }
    return line(table, p, Number(plies));
  }
  return queryObject(table, p);
}
