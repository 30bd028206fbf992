/* Neutreeko in the browser, as the tables see it (solver/neutreeko/model, tables/folding.py): boards 3 x 3
 * to 11 x 11 and their rules, positions in notation, moves, the dense index, symmetry classes and the class
 * numbers of a folded table, and the probe of a table opened by table.js: a position's value and its moves
 * ranked. Indices stay below 2^53 on every board (11 x 11: 7.7e10), so plain Numbers hold them.
 */

export class InputError extends Error {}

const LETTERS = "ABCDEFGHIJK";
const DIRECTIONS = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
/** ``text`` quoted for a message as the Python side quotes it (its repr), cut to 60 characters. */
export function quote(text, limit = 60) {
  const repr = t => (t.includes("'") && !t.includes('"') ? `"${t.replace(/\\/g, "\\\\")}"`
    : `'${t.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`);
  text = String(text);
  if (text.length <= limit) return repr(text);
  const cut = repr(text.slice(0, limit - 3));
  return `${cut.slice(0, -1)}...${cut.slice(-1)}`;
}

export const rank3 = (a, b, c) => a + b * (b - 1) / 2 + c * (c - 1) * (c - 2) / 6;
const choose3 = n => n * (n - 1) * (n - 2) / 6;
const squeeze = (s, [m0, m1, m2]) => s - (m0 < s) - (m1 < s) - (m2 < s);
const sorted = squares => [...squares].sort((a, b) => a - b);

function unsqueeze(free, [m0, m1, m2]) {
  free += m0 <= free;
  free += m1 <= free;
  return free + (m2 <= free);
}

/** The rules (solver/neutreeko/model/rules.py): where each is offered, and the triples that win. */
const RULES = {
  connected: {offered: () => true, lines: board => adjacent(board, [[1, 0], [0, 1], [1, 1], [-1, 1]])},
  orthogonal: {offered: () => true, lines: board => adjacent(board, [[1, 0], [0, 1]])},
  diagonal: {offered: ({width, height}) => Math.min(width, height) >= 4, lines: board => adjacent(board, [[1, 1], [-1, 1]])},
  equidistant: {offered: ({width, height}) => Math.max(width, height) >= 5, lines: spaced},
  centre: {offered: ({width, height}) => width % 2 && height % 2 && Math.min(width, height) >= 5, lines: centred},
};
export const RULE_NAMES = Object.keys(RULES);
const SPECIAL_STARTS = {
  "connected 5x5": [["B1", "D1", "C4"], ["B5", "D5", "C2"]],
  "connected 7x7": [["C1", "E1", "D5"], ["D3", "C7", "E7"]],
  "centre 5x5": [["C1", "A4", "E4"], ["A2", "E2", "C5"]],
  "centre 7x7": [["D2", "B5", "F5"], ["B3", "F3", "D6"]],
};

function adjacent({width, height}, steps) {
  const lines = [];
  for (let rank = 0; rank < height; rank++) {
    for (let file = 0; file < width; file++) {
      for (const [df, dr] of steps) {
        const f2 = file + 2 * df, r2 = rank + 2 * dr;
        if (f2 >= 0 && f2 < width && r2 >= 0 && r2 < height) {
          lines.push([0, 1, 2].map(k => (rank + k * dr) * width + file + k * df));
        }
      }
    }
  }
  return lines;
}

function spaced({width, size}) {
  const lines = [];
  for (let c = 0; c < size; c++) {
    for (let a = 0; a < c; a++) {
      const df = c % width - a % width, dr = Math.floor(c / width) - Math.floor(a / width);
      if (df % 2 === 0 && dr % 2 === 0) lines.push([a, a + df / 2 + dr / 2 * width, c]);
    }
  }
  return lines;
}

function centred({width, height, size}) {
  const centre = Math.floor(height / 2) * width + Math.floor(width / 2), lines = [];
  for (let c = 0; c < size; c++) for (let b = 0; b < c; b++) for (let a = 0; a < b; a++) {
    if (a === centre || b === centre || c === centre) lines.push([a, b, c]);
  }
  return lines;
}

const games = new Map();

/** The game of ``boardText`` ("5x5") and ``ruleName``: its board, winning triples, symmetries and starts. */
export function gameOf(boardText, ruleName) {
  const key = `${boardText} ${ruleName}`;
  if (games.has(key)) return games.get(key);
  const match = /^(\d{1,2}) *[xX] *(\d{1,2})$/.exec(String(boardText).trim());
  if (!match) throw new InputError(`board ${quote(boardText)} is not of the form WIDTHxHEIGHT, e.g. 5x5`);
  const width = Number(match[1]), height = Number(match[2]);
  if (![width, height].every(side => side >= 3 && side <= 11)) {
    throw new InputError(`board ${width}x${height} is not supported: each side must be from 3 to 11`);
  }
  const rule = RULES[String(ruleName).toLowerCase()];
  if (!rule) throw new InputError(`unknown rule ${quote(ruleName)}; known rules: ${RULE_NAMES.join(", ")}`);
  const size = width * height, board = {width, height, size, name: `${width}x${height}`};
  if (!rule.offered(board)) throw new InputError(`rule '${ruleName}' is not offered on the ${board.name} board`);
  const wins = new Uint8Array(choose3(size));
  for (const line of rule.lines(board)) wins[rank3(...sorted(line))] = 1;
  const game = {board, rule: String(ruleName).toLowerCase(), wins, otherCount: choose3(size - 3),
                steps: stepsOf(board), symmetries: symmetriesOf(board)};
  game.start = startOf(game);
  games.set(key, game);
  return game;
}

function stepsOf({width, height, size}) {
  const steps = new Int16Array(size * 8).fill(-1);
  for (let s = 0; s < size; s++) {
    DIRECTIONS.forEach(([df, dr], d) => {
      const f = s % width + df, r = Math.floor(s / width) + dr;
      if (f >= 0 && f < width && r >= 0 && r < height) steps[s * 8 + d] = r * width + f;
    });
  }
  return steps;
}

/** The board's symmetries as square permutations, the identity first (symmetry.py's order). */
function symmetriesOf({width, height, size}) {
  const square = (f, r) => r * width + f;
  const rotate = [], mirror = [];
  for (let s = 0; s < size; s++) {
    const f = s % width, r = Math.floor(s / width);
    rotate.push(width === height ? square(width - 1 - r, f) : square(width - 1 - f, height - 1 - r));
    mirror.push(square(width - 1 - f, r));
  }
  const turns = [Array.from({length: size}, (_, s) => s)];
  for (let k = 0; k < (width === height ? 3 : 1); k++) turns.push(turns[turns.length - 1].map(s => rotate[s]));
  return [...turns, ...turns.map(turn => mirror.map(s => turn[s]))];
}

export const squareName = (game, s) => `${LETTERS[s % game.board.width]}${Math.floor(s / game.board.width) + 1}`;

function parseSquare(game, text) {
  const match = /^([A-Za-z])([1-9]\d{0,2})$/.exec(text.trim());
  if (!match) throw new InputError(`${quote(text)} is not a square name such as C4`);
  const file = match[1].toUpperCase().charCodeAt(0) - 65, rank = Number(match[2]) - 1;
  const {width, height} = game.board;
  if (file >= width || rank >= height) throw new InputError(`square ${text.trim().toUpperCase()} is not on the ${game.board.name} board`);
  return rank * width + file;
}

function startOf(game) {
  const special = SPECIAL_STARTS[`${game.rule} ${game.board.name}`], n = game.board.size;
  const [black, white] = special ? special.map(names => sorted(names.map(name => parseSquare(game, name))))
    : [[0, 2, n - 2], [1, n - 3, n - 1]];
  return {game, black, white, blackToMove: true};
}

const winsWith = (game, [a, b, c]) => game.wins[rank3(a, b, c)] === 1;

/** A position: {game, black, white (sorted squares), blackToMove}; refuses one whose mover has won. */
function position(game, black, white, blackToMove) {
  const made = {game, black, white, blackToMove};
  if (winsWith(game, mover(made))) {
    throw new InputError(`${fen(made)} is not a legal position: ${blackToMove ? "black" : "white"} to move already has a winning triple`);
  }
  return made;
}

export const mover = p => (p.blackToMove ? p.black : p.white);
export const other = p => (p.blackToMove ? p.white : p.black);

/** The position of ``text`` (notation or "start") in the game of ``boardText`` (null: the text's board) and ``rule``. */
export function parsePosition(text, boardText, rule) {
  text = String(text);
  if (text.length > 266 || !/^[\x20-\x7e]*$/.test(text)) throw new InputError(`position ${quote(text)} is not printable text of at most 266 characters`);
  if (text.trim().toLowerCase() === "start") return gameOf(boardText || "5x5", rule).start;
  const fields = text.trim().split(/\s+/);
  if (fields.length !== 2) throw new InputError(`position ${quote(text)} needs the ranks, a space and the side to move (b or w)`);
  const [placement, side] = fields;
  if (side !== "b" && side !== "w") throw new InputError(`side to move ${quote(side)} is not b or w (lower case)`);
  const ranks = placement.split("/").map((rankText, number, all) => {
    const squares = [];
    for (const token of rankText.match(/[0-9]+|[bw]|./g) || []) {
      if (/^[bw]$/.test(token)) squares.push(token);
      else if (/^[1-9][0-9]?$/.test(token) && Number(token) <= 11) squares.push(...Array(Number(token)).fill(""));
      else throw new InputError(`unexpected ${quote(token)} in rank ${all.length - number} ${quote(rankText)}`);
    }
    if (!squares.length) throw new InputError(`rank ${all.length - number} is empty`);
    return squares;
  });
  const width = ranks[0].length;
  if (ranks.some(rank => rank.length !== width)) throw new InputError(`the ranks of ${quote(placement)} are not all as wide`);
  const game = gameOf(`${width}x${ranks.length}`, rule);
  if (boardText && gameOf(boardText, rule) !== game) {
    throw new InputError(`position ${quote(placement)} has ${ranks.length} ranks of ${width} squares: a ${width}x${ranks.length} board, not ${boardText}`);
  }
  const pieces = {b: [], w: []};
  ranks.forEach((rank, row) => rank.forEach((occupant, file) => {
    if (occupant) pieces[occupant].push((ranks.length - 1 - row) * width + file);
  }));
  for (const [colour, name] of [["b", "black"], ["w", "white"]]) {
    if (pieces[colour].length !== 3) throw new InputError(`${name} has ${pieces[colour].length} pieces in ${quote(placement)}, not 3`);
  }
  return position(game, sorted(pieces.b), sorted(pieces.w), side === "b");
}

/** The position in notation, e.g. "1w1w1/2b2/5/2w2/1b1b1 b". */
export function fen(p) {
  const {width, height} = p.game.board, ranks = [];
  for (let rank = height - 1; rank >= 0; rank--) {
    let text = "", empty = 0;
    for (let file = 0; file < width; file++) {
      const s = rank * width + file;
      const occupant = p.black.includes(s) ? "b" : p.white.includes(s) ? "w" : "";
      if (occupant) {
        text += (empty || "") + occupant;
        empty = 0;
      } else {
        empty++;
      }
    }
    ranks.push(text + (empty || ""));
  }
  return `${ranks.join("/")} ${p.blackToMove ? "b" : "w"}`;
}

/** "black" or "white" if the side that just moved has won, else null. */
export const winner = p => (winsWith(p.game, other(p)) ? (p.blackToMove ? "white" : "black") : null);

/** Every legal move [origin, target], by origin square then direction; none once the game is won. */
export function moves(p) {
  if (winner(p)) return [];
  const steps = p.game.steps, occupied = new Set([...p.black, ...p.white]), found = [];
  for (const origin of mover(p)) {
    for (let d = 0; d < 8; d++) {
      let target = origin;
      while (steps[target * 8 + d] >= 0 && !occupied.has(steps[target * 8 + d])) target = steps[target * 8 + d];
      if (target !== origin) found.push([origin, target]);
    }
  }
  return found;
}

export const moveName = (game, [origin, target]) => `${squareName(game, origin)}-${squareName(game, target)}`;

/** The position after the legal move [origin, target]. */
export function play(p, [origin, target]) {
  const moved = sorted(mover(p).map(s => (s === origin ? target : s)));
  return p.blackToMove ? position(p.game, moved, p.white, false) : position(p.game, p.black, moved, true);
}

/** The move named ``text`` ("C4-C3", any case) if it is legal in ``p``; else an InputError. */
export function parseMove(p, text) {
  const parts = String(text).split("-");
  if (text.length > 24 || parts.length !== 2) throw new InputError(`move ${quote(text)} is not of the form FROM-TO, e.g. C4-C3`);
  let squares;
  try {
    squares = parts.map(part => parseSquare(p.game, part));
  } catch (error) {
    throw new InputError(`move ${quote(text)}: ${error.message}`);
  }
  const move = moves(p).find(([o, t]) => o === squares[0] && t === squares[1]);
  if (!move) throw new InputError(`move ${moveName(p.game, squares)} is not legal in ${fen(p)}`);
  return move;
}

/** The dense index of (mover's sorted squares, other side's sorted squares). */
export const indexOf = (game, m, o) => rank3(...m) * game.otherCount + rank3(...o.map(s => squeeze(s, m)));

// -- symmetry classes (symmetry.py, folding.py) -------------------------------------------------------

/** ``images[g][rank]``: the rank of the image under symmetry g of the triple of that rank; made once. */
function imagesOf(game) {
  if (!game.images) {
    const count = choose3(game.board.size), triples = new Int16Array(count * 3);
    for (let c = 2, r = 0; r < count; c++) for (let b = 1; b < c; b++) for (let a = 0; a < b; a++, r++) triples.set([a, b, c], r * 3);
    game.triples = triples;
    game.images = game.symmetries.map(g => {
      const ranks = new Int32Array(count);
      for (let r = 0; r < count; r++) ranks[r] = sortedRank(g[triples[r * 3]], g[triples[r * 3 + 1]], g[triples[r * 3 + 2]]);
      return ranks;
    });
  }
  return game.images;
}

/** The rank of the three distinct squares, in any order (no array made: the tables of 11 x 11 call it millions of times). */
function sortedRank(a, b, c) {
  let t;
  if (a > b) { t = a; a = b; b = t; }
  if (b > c) { t = b; b = c; c = t; }
  if (a > b) { t = a; a = b; b = t; }
  return rank3(a, b, c);
}

const tripleAt = (game, rank) => [game.triples[rank * 3], game.triples[rank * 3 + 1], game.triples[rank * 3 + 2]];

/**
 * The numbering of the legal classes: blockStart[rank] (-1 for a triple not canonical or winning), the
 * symmetric canonical triples, and the count, as folding.Classes computes them (Burnside's lemma).
 */
function classesOf(game) {
  if (!game.classes) {
    const images = imagesOf(game), count = images[0].length, size = game.board.size;
    const blockStart = new Float64Array(count), symmetric = new Uint8Array(count);
    let next = 0;
    for (let r = 0; r < count; r++) {
      const keeping = images.filter(table => table[r] === r).length;
      if (game.wins[r] || images.some(table => table[r] < r)) {
        blockStart[r] = -1;
        continue;
      }
      blockStart[r] = next;
      if (keeping === 1) {
        next += game.otherCount;
        continue;
      }
      symmetric[r] = 1;
      const taken = tripleAt(game, r);
      let fixedTriples = 0, kept = 0;
      game.symmetries.forEach((g, at) => {
        if (images[at][r] !== r) return;
        let fixed = 0, swapped = 0;
        for (let s = 0; s < size; s++) {
          if (taken.includes(s)) continue;
          if (g[s] === s) fixed++;
          else if (g[g[s]] === s) swapped++;
        }
        fixedTriples += choose3(fixed) + fixed * Math.floor(swapped / 2);
        kept++;
      });
      next += fixedTriples / kept;
    }
    game.classes = {blockStart, symmetric, count: next, blocks: new Map()};
  }
  return game.classes;
}

/** The symmetries (as permutations) that keep the canonical triple of rank ``rank``. */
const keepers = (game, rank) => game.symmetries.filter((_, g) => game.images[g][rank] === rank);

/** The smallest squeezed rank of the images under ``keep`` of the other side's triple ``o`` around ``m``. */
function smallestAround(keep, m, o) {
  let best = Infinity;
  for (const g of keep) best = Math.min(best, sortedRank(squeeze(g[o[0]], m), squeeze(g[o[1]], m), squeeze(g[o[2]], m)));
  return best;
}

/** The sorted squeezed ranks of the classes of the symmetric triple of rank ``rank``'s block (a few kept). */
function blockOf(game, rank) {
  const blocks = game.classes.blocks;
  if (!blocks.has(rank)) {
    const m = tripleAt(game, rank), keep = keepers(game, rank), listed = [], n = game.board.size - 3;
    for (let c = 2, s = 0; c < n; c++) for (let b = 1; b < c; b++) for (let a = 0; a < b; a++, s++) {
      if (smallestAround(keep, m, [a, b, c].map(free => unsqueeze(free, m))) === s) listed.push(s);
    }
    if (blocks.size >= 8) blocks.delete(blocks.keys().next().value);
    blocks.set(rank, Int32Array.from(listed));
  }
  return blocks.get(rank);
}

/** The class number of the position (mover's, other's sorted squares), or -1 where not legal. */
export function classNumber(game, m, o) {
  const images = imagesOf(game), classes = classesOf(game);
  const rank = rank3(...m);
  let best = Infinity;
  game.symmetries.forEach((g, at) => { best = Math.min(best, images[at][rank]); });
  if (classes.blockStart[best] < 0) return -1;
  const canonicalMover = tripleAt(game, best);
  let within = Infinity;
  game.symmetries.forEach((g, at) => {
    if (images[at][rank] !== best) return;
    within = Math.min(within, sortedRank(...o.map(s => squeeze(g[s], canonicalMover))));
  });
  if (classes.symmetric[best]) {
    const block = blockOf(game, best);
    let low = 0, high = block.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (block[middle] < within) low = middle + 1;
      else high = middle;
    }
    within = low;
  }
  return classes.blockStart[best] + within;
}

// -- the probe -------------------------------------------------------------------------------------

/** Check that ``table`` (table.js) is ``game``'s Neutreeko table, as open_table does; returns it, with ``folded``. */
export function checkTable(game, table) {
  const a = table.attributes, folded = a.folded === true;
  const fail = why => { throw new InputError(`${table.url} ${why}`); };
  if (a.format !== "neutreeko-solver table" || (a.game || "neutreeko") !== "neutreeko") fail("is not a Neutreeko table");
  if (a.format_version !== 2 || a.index_scheme !== 1) fail(`has format ${a.format_version}, index scheme ${a.index_scheme}; this page reads format 2, index scheme 1`);
  if (a.board !== game.board.name || a.rule !== game.rule) fail(`is a table for ${a.board} ${a.rule}, not ${game.board.name} ${game.rule}`);
  if (table.header.dataset !== (folded ? "class_result" : "result") || table.itemBytes !== 1) fail("is not a Neutreeko table");
  if (folded && a.canonical_form !== "smallest index among the images under rotations and mirrors, index scheme 1") fail("is folded in a form this page does not read");
  const length = folded ? classesOf(game).count : choose3(game.board.size) * game.otherCount;
  if (table.length !== length) fail(`is damaged: it holds ${table.length} values, not ${length}`);
  table.folded = folded;
  return table;
}

/** The result byte of the position (mover's, other side's sorted squares) in ``table``. */
async function resultByte(table, m, o) {
  const game = gameOf(table.attributes.board, table.attributes.rule);
  if (!table.folded) return (await table.item(indexOf(game, m, o)))[0];
  const number = classNumber(game, m, o);
  return number < 0 ? 255 : (await table.item(number))[0];
}

/** {value, plies} of a result byte, for the side to move. */
export function evaluation(byte, url) {
  if (byte === 0) return {value: "draw", plies: null};
  if (byte === 255) throw new InputError(`table ${url} is damaged: it marks a legal position as illegal`);
  return {value: (byte - 1) % 2 ? "win" : "loss", plies: byte - 1};
}

/** The value of a move, for its player, that leads to a position valued ``e`` (for the other side). */
export const forMover = e => (e.plies === null ? e : {value: e.value === "loss" ? "win" : "loss", plies: e.plies + 1});

/** Sort key: wins by fewest plies, draws, losses by most plies. */
export const orderKey = e => [["win", "draw", "loss"].indexOf(e.value), e.value === "win" ? e.plies : -(e.plies || 0)];

export const probe = async (table, p) => evaluation(await resultByte(table, mover(p), other(p)), table.url);

/** Every move of ``p`` best first (probe.py's order), each {move, name, evaluation, position}. */
export async function rankedMoves(table, p) {
  const ranked = await Promise.all(moves(p).map(async move => {
    const after = play(p, move);
    return {move, name: moveName(p.game, move), evaluation: forMover(await probe(table, after)), position: after};
  }));
  return ranked.sort((x, y) => {
    const [a, b] = [orderKey(x.evaluation), orderKey(y.evaluation)];
    return a[0] - b[0] || a[1] - b[1] || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0);
  });
}
