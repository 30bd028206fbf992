/* NECNON in the browser, as its tables see it (solver/necnon/model, tables/table.py): square and hexhex
 * boards, positions in notation, the turns the protocols allow, the score, keys and their canonical form,
 * and the probe of a solved table opened by table.js (records sorted by key, found by the chunk map's
 * fences, then by binary search in the chunk). Keys are BigInts: two masks and three bits of a board of
 * up to 30 cells.
 */
import {InputError, quote} from "./neutreeko.js";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const SETTINGS = ["nec", "non", "nec-non", "non-nec"];
const bits = mask => { let n = 0; for (; mask; mask &= mask - 1) n++; return n; };
const grids = new Map();

/** The board named ``text`` ("4x4", "hex3"): cells, names, neighbours, rows, centres and symmetries. */
export function gridOf(text) {
  text = String(text).trim();
  if (grids.has(text)) return grids.get(text);
  let kind, width, height, match;
  if ((match = /^(\d{1,2}) *[xX] *(\d{1,2})$/.exec(text))) {
    [kind, width, height] = ["square", Number(match[1]), Number(match[2])];
    if (![width, height].every(side => side >= 2 && side <= 7)) throw new InputError(`board ${width}x${height} is not supported: each side must be from 2 to 7`);
  } else if ((match = /^hex *(\d{1,2})$/i.exec(text))) {
    [kind, width, height] = ["hex", Number(match[1]), Number(match[1])];
    if (width < 2 || width > 6) throw new InputError(`board hex${width} is not supported: a hexhex board's base is from 2 to 6`);
  } else {
    throw new InputError(`board ${quote(text)} is neither WIDTHxHEIGHT (e.g. 4x4) nor hexN (e.g. hex3)`);
  }
  const coordinates = [];  // [row from the bottom, column]
  if (kind === "square") {
    for (let rank = 0; rank < height; rank++) for (let file = 0; file < width; file++) coordinates.push([rank, file]);
  } else {
    for (let row = 0; row < 2 * width - 1; row++) {
      for (let column = 0; column < 2 * width - 1; column++) if (Math.abs(column - row) <= width - 1) coordinates.push([row, column]);
    }
  }
  const at = new Map(coordinates.map(([row, column], cell) => [`${row},${column}`, cell]));
  const cellAt = (row, column) => at.get(`${row},${column}`);
  const steps = kind === "square" ? [[0, 1], [0, -1], [1, 0], [-1, 0]] : [[0, 1], [0, -1], [1, 0], [-1, 0], [1, 1], [-1, -1]];
  const grid = {
    kind, width, height, name: kind === "square" ? `${width}x${height}` : `hex${width}`, cells: coordinates.length,
    cellName: cell => {
      const [row, column] = coordinates[cell];
      return kind === "square" ? `${LETTERS[column]}${row + 1}` : `${LETTERS[row]}${column + 1}`;
    },
    cellAt,
    neighbours: coordinates.map(([row, column]) => steps.map(([dr, dc]) => cellAt(row + dr, column + dc))
      .filter(cell => cell !== undefined).sort((a, b) => a - b)),
    rows: [...new Set(coordinates.map(([row]) => row))].sort((a, b) => b - a)
      .map(row => coordinates.map((c, cell) => [c, cell]).filter(([c]) => c[0] === row).map(([, cell]) => cell)),
  };
  grid.symmetries = symmetriesOf(grid, coordinates);
  grid.centres = coordinates.map(([row, column]) => (kind === "square" ? [column + 0.5, height - row - 0.5]
    : [column - row / 2 + (width - 1) / 2 + 0.5, (2 * width - 2 - row) * 3 ** 0.5 / 2 + 3 ** 0.5 / 3]));
  grid.extent = kind === "square" ? [width, height] : [2 * width - 1, (2 * width - 2) * 3 ** 0.5 / 2 + 2 * 3 ** 0.5 / 3];
  grids.set(text, grid);
  return grid;
}

function symmetriesOf({kind, width, height, cellAt}, coordinates) {
  const image = ([row, column], turns, mirrored) => {
    if (kind === "square") {
      let x = mirrored ? width - 1 - column : column, y = row;
      for (let k = 0; k < turns; k++) [x, y] = width === height ? [width - 1 - y, x] : [width - 1 - x, height - 1 - y];
      return cellAt(y, x);
    }
    const centre = width - 1;
    let a = column - centre, b = row - centre;
    if (mirrored) [a, b] = [b, a];
    for (let k = 0; k < turns; k++) [a, b] = [a - b, a];
    return cellAt(b + centre, a + centre);
  };
  const turns = kind === "hex" ? 6 : width === height ? 4 : 2, table = [];
  for (const mirrored of [false, true]) for (let turn = 0; turn < turns; turn++) table.push(coordinates.map(c => image(c, turn, mirrored)));
  return table;
}

/** The game of ``board`` under the protocol setting ``setting`` ("nec", "non", "nec-non", "non-nec"). */
export function gameOf(board, setting) {
  const names = String(setting).toLowerCase().split("-");
  if (String(setting).length > 16 || !(names.length === 1 || names.length === 2) || !names.every(n => n === "nec" || n === "non")) {
    throw new InputError(`unknown protocol ${quote(setting)}; known: ${SETTINGS.join(", ")}`);
  }
  const [black, green] = [names[0], names[names.length - 1]];
  return {grid: gridOf(board), black, green, setting: black === green ? black : `${black}-${green}`};
}

const countsMemo = new Map();

/** Can turns leave ``black`` and ``green`` stones, this side to move, after ``passes`` passes? (position.py) */
function countsOccur(black, green, blackToMove, passes) {
  const memo = `${black} ${green} ${blackToMove} ${passes}`;
  if (countsMemo.has(memo)) return countsMemo.get(memo);
  let found = false;
  const lastBlack = !blackToMove;
  if (black === 0) found = green === 0 && blackToMove && passes === 0;
  else if (passes) found = countsOccur(black, green, lastBlack, passes - 1);
  else {
    for (const laid of [1, 2]) {
      const [b, g] = lastBlack ? [black - laid, green] : [black, green - laid];
      if (Math.min(b, g) < 0 || (lastBlack && b === 0 && laid === 2)) continue;
      if (countsOccur(b, g, lastBlack, 0) || countsOccur(b, g, lastBlack, 1)) found = true;
    }
  }
  countsMemo.set(memo, found);
  return found;
}

const allows = (protocol, enemies) => (protocol === "nec" ? enemies === 0 || enemies % 2 === 1 : enemies % 2 === 0);
const colour = black => (black ? "black" : "green");
const capital = word => word[0].toUpperCase() + word.slice(1);
export const full = p => bits(p.black | p.green) === p.game.grid.cells;
export const over = p => p.passes === 2 || full(p);
const names = (grid, cells) => cells.map(cell => grid.cellName(cell)).join(" ");

/** The empty cells the side to move (or ``black``'s side) may lay a stone on. */
export function allowed(p, black = p.blackToMove) {
  const protocol = black ? p.game.black : p.game.green, enemy = black ? p.green : p.black, occupied = p.black | p.green;
  const cells = [];
  for (let cell = 0; cell < p.game.grid.cells; cell++) {
    if (occupied >> cell & 1) continue;
    if (allows(protocol, p.game.grid.neighbours[cell].filter(near => enemy >> near & 1).length)) cells.push(cell);
  }
  return cells;
}

/** A position {game, black, green (masks), blackToMove, passes}, refused as Position refuses one that cannot occur. */
export function position(game, black, green, blackToMove = true, passes = 0) {
  const made = {game, black, green, blackToMove, passes};
  const [b, g] = [bits(black), bits(green)];
  if (!countsOccur(b, g, blackToMove, passes)) {
    throw new InputError(`${notation(made)} cannot occur: no sequence of turns leaves ${b} black and ${g} green stones with ${capital(colour(blackToMove))} to move${passes ? " after a pass" : ""}`);
  }
  if (passes && full(made)) throw new InputError(`${notation(made)} cannot occur: the game ends when the board is full, before anyone passes`);
  for (const [passer, count] of [[!blackToMove, 1], [blackToMove, 2]]) {
    const cells = allowed(made, passer);
    if (passes >= count && cells.length) {
      throw new InputError(`${notation(made)} cannot occur: ${capital(colour(passer))} passed with cells allowed (${names(game.grid, cells)})`);
    }
  }
  return made;
}

/** The position of ``text`` (notation or "empty") in ``game``. */
export function parsePosition(text, game) {
  text = String(text);
  if (text.trim().toLowerCase() === "empty") return position(game, 0, 0);
  const fields = text.trim().split(/\s+/);
  if (fields.length < 2 || fields.length > 3) throw new InputError(`position ${quote(text)} needs the rows, a space and the side to move (b or g), then p or pp after a pass`);
  const [placement, side] = [fields[0], fields[1].toLowerCase()], passes = (fields[2] || "").toLowerCase();
  if (side !== "b" && side !== "g") throw new InputError(`side to move ${quote(fields[1])} is not b or g`);
  if (!["", "p", "pp"].includes(passes)) throw new InputError(`${quote(fields[2])} after the side to move is not p (a pass) or pp (two passes)`);
  const rows = placement.split("/").map((row, number) => {
    const cells = [];
    for (const token of row.toLowerCase().match(/\d+|[bg]|./g) || []) {
      if (token === "b" || token === "g") cells.push(token);
      else if (/^\d{1,2}$/.test(token) && Number(token) <= 11) cells.push(...Array(Number(token)).fill(""));
      else throw new InputError(`unexpected ${quote(token)} in row ${number + 1} ${quote(row)}`);
    }
    if (!cells.length) throw new InputError(`row ${number + 1} is empty`);
    return cells;
  });
  const board = boardOf(placement, rows.map(row => row.length));
  if (gridOf(board) !== game.grid) throw new InputError(`position ${quote(placement)} is on a ${board} board, not ${game.grid.name} (give --board ${board})`);
  let black = 0, green = 0;
  game.grid.rows.flat().forEach((cell, at) => {
    const stone = rows.flat()[at];
    if (stone === "b") black |= 1 << cell;
    if (stone === "g") green |= 1 << cell;
  });
  return position(game, black, green, side === "b", ["", "p", "pp"].indexOf(passes));
}

/** The board whose rows (from the top) have ``lengths`` cells, e.g. "4x4" or "hex3". */
function boardOf(placement, lengths) {
  const base = (lengths.length + 1) / 2;
  if (new Set(lengths).size === 1) return `${lengths[0]}x${lengths.length}`;
  if (lengths.length % 2 && lengths.every((n, row) => n === 2 * base - 1 - Math.abs(row - base + 1))) return `hex${base}`;
  throw new InputError(`position ${quote(placement)}: rows of ${lengths.join(", ")} cells make neither a rectangle nor a hexhex board`);
}

/** The board a position's notation is written on, or null for "empty" (on any board). */
export function notationBoard(text) {
  const placement = String(text).trim().split(/\s+/)[0];
  if (String(text).trim().toLowerCase() === "empty" || !placement) return null;
  return boardOf(placement, placement.split("/").map(row => (row.toLowerCase().match(/\d+|[bg]/g) || [])
    .reduce((sum, token) => sum + (/\d/.test(token) ? Number(token) : 1), 0)));
}

/** The position in notation. */
export function notation(p) {
  const rows = p.game.grid.rows.map(row => {
    let text = "", run = 0;
    for (const cell of row) {
      const stone = p.black >> cell & 1 ? "b" : p.green >> cell & 1 ? "g" : "";
      if (!stone) {
        run++;
        continue;
      }
      text += (run || "") + stone;
      run = 0;
    }
    return text + (run || "");
  });
  const mark = ["", "p", "pp"][p.passes];
  return `${rows.join("/")} ${p.blackToMove ? "b" : "g"}${mark ? " " + mark : ""}`;
}

/** Every turn (sorted cells: two, one, or none for a pass) in increasing order; none once the game is over. */
export function turns(p) {
  if (over(p)) return [];
  const cells = allowed(p);
  if (!(p.black | p.green) || cells.length === 1) return cells.map(cell => [cell]);
  if (!cells.length) return [[]];
  const pairs = [];
  for (let i = 0; i < cells.length; i++) for (let j = i + 1; j < cells.length; j++) pairs.push([cells[i], cells[j]]);
  return pairs;
}

export const turnName = (grid, turn) => (turn.length ? turn.map(cell => grid.cellName(cell)).join(",") : "pass");

export function play(p, turn) {
  const laid = turn.reduce((mask, cell) => mask | 1 << cell, 0);
  return position(p.game, p.blackToMove ? p.black | laid : p.black, p.blackToMove ? p.green : p.green | laid,
                  !p.blackToMove, turn.length ? 0 : p.passes + 1);
}

/** The turn ``text`` ("c3,d4", "c3", "pass") if the rules allow it in ``p``; else an InputError saying why. */
export function parseTurn(p, text) {
  const grid = p.game.grid;
  if (over(p)) throw new InputError(`the game is over in ${notation(p)}: no turn ${quote(text)} can be made`);
  const cells = allowed(p), side = capital(colour(p.blackToMove));
  if (text.toLowerCase() === "pass") {
    if (cells.length) throw new InputError(`${side} cannot pass: ${names(grid, cells)} ${cells.length === 1 ? "is" : "are"} allowed`);
    return [];
  }
  const parts = text.split(",");
  if (parts.length > 2 || !parts.every(part => part.trim())) throw new InputError(`turn ${quote(text)} is not c3,d4 (two stones), c3 (one) or pass`);
  const turn = parts.map(part => {
    const match = /^([A-Za-z])(\d{1,2})$/.exec(part.trim());
    const cell = match && (grid.kind === "square" ? grid.cellAt(Number(match[2]) - 1, LETTERS.indexOf(match[1].toLowerCase()))
      : grid.cellAt(LETTERS.indexOf(match[1].toLowerCase()), Number(match[2]) - 1));
    if (!match) throw new InputError(`turn ${quote(text)}: ${quote(part.trim())} is not a cell name such as c3`);
    if (cell === undefined) throw new InputError(`turn ${quote(text)}: there is no cell ${part.trim().toLowerCase()} on the ${grid.name} board`);
    return cell;
  }).sort((a, b) => a - b);
  if (turn.length === 2 && turn[0] === turn[1]) throw new InputError(`turn ${quote(text)} lays two stones on one cell`);
  if (!cells.length) throw new InputError(`${side} has no allowed cell and must pass`);
  for (const cell of turn) {
    if ((p.black | p.green) >> cell & 1) throw new InputError(`${grid.cellName(cell)} is occupied (by ${p.black >> cell & 1 ? "black" : "green"})`);
    if (!cells.includes(cell)) {
      const enemies = grid.neighbours[cell].filter(near => (p.blackToMove ? p.green : p.black) >> near & 1).length;
      throw new InputError(`${grid.cellName(cell)} is forbidden to ${side} (${p.blackToMove ? p.game.black : p.game.green}: ${enemies} enemy neighbour${enemies === 1 ? "" : "s"})`);
    }
  }
  if (turn.length === 1 && (p.black | p.green) && cells.length > 1) throw new InputError(`${grid.cellName(turn[0])} alone: ${cells.length} cells are allowed, so the turn lays two stones`);
  if (turn.length === 2 && !(p.black | p.green)) throw new InputError("the first turn lays one stone");
  return turn;
}

/** Every group: {colour, cells, smothered}, in order of its lowest cell. */
export function groups(p) {
  const {neighbours, cells} = p.game.grid, occupied = p.black | p.green, found = [];
  let seen = 0;
  for (let cell = 0; cell < cells; cell++) {
    const black = p.black >> cell & 1;
    if (!(occupied >> cell & 1) || seen >> cell & 1) continue;
    const own = black ? p.black : p.green;
    let group = 1 << cell, breathes = false;
    const frontier = [cell];
    while (frontier.length) {
      for (const near of neighbours[frontier.pop()]) {
        if (own >> near & 1 && !(group >> near & 1)) {
          group |= 1 << near;
          frontier.push(near);
        }
        breathes = breathes || !(occupied >> near & 1);
      }
    }
    seen |= group;
    found.push({colour: colour(black), cells: [...Array(cells).keys()].filter(c => group >> c & 1), smothered: !breathes});
  }
  return found;
}

/** [Black's points, Green's points] if the game ended here. */
export function points(p) {
  const lost = {black: 0, green: 0};
  for (const group of groups(p)) if (group.smothered) lost[group.colour] += group.cells.length;
  return [lost.green, lost.black];
}

/** The canonical key of ``p``: the smallest key among its images under the board's symmetries. */
export function canonicalKey(p) {
  const n = BigInt(p.game.grid.cells);
  const flags = BigInt(p.blackToMove ? 0 : 1) | BigInt(p.passes) << 1n;
  let best = null;
  for (const g of p.game.grid.symmetries) {
    let black = 0n, green = 0n;
    g.forEach((to, from) => {
      if (p.black >> from & 1) black |= 1n << BigInt(to);
      if (p.green >> from & 1) green |= 1n << BigInt(to);
    });
    const image = flags << 2n * n | green << n | black;
    if (best === null || image < best) best = image;
  }
  return best;
}

/** Check that ``table`` (table.js) is ``game``'s NECNON table, as open_table does; returns it. */
export function checkTable(game, table) {
  const a = table.attributes, fail = why => { throw new InputError(`${table.url} ${why}`); };
  if (a.format !== "neutreeko-solver table" || a.game !== "necnon") fail("is not a NECNON table");
  if (a.format_version !== 1 || a.sorted_by !== "key" || table.header.dataset !== "classes" || table.itemBytes !== 11) fail("has a format this page does not read");
  if (a.board !== game.grid.name || a.protocol !== game.setting) fail(`is a table for ${a.board} ${a.protocol}, not ${game.grid.name} ${game.setting}`);
  if (table.length !== a.classes || a.classes < 1) fail(`is damaged: it holds ${table.length} classes, its attributes ${a.classes}`);
  return table;
}

/** {margin, turns} of ``p`` from ``table``; an InputError if it cannot be reached from the empty board. */
export async function probe(table, p) {
  const key = canonicalKey(p);
  let low = 0, high = table.count;  // the last chunk whose fence is at most the key
  while (low < high) {
    const middle = (low + high) >> 1;
    if (table.fence(middle) <= key) low = middle + 1;
    else high = middle;
  }
  const chunk = await table.chunk(Math.max(0, low - 1)), view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let first = 0, last = chunk.length / 11;
  while (first < last) {
    const middle = (first + last) >> 1;
    if (view.getBigUint64(middle * 11, true) < key) first = middle + 1;
    else last = middle;
  }
  if (first * 11 >= chunk.length || view.getBigUint64(first * 11, true) !== key) {
    throw new InputError(`${notation(p)} cannot be reached from the empty board under ${p.game.setting}`);
  }
  return {margin: view.getInt8(first * 11 + 8), turns: view.getUint8(first * 11 + 9)};
}

/** "Black wins by 3", "Green wins by 1", "draw". */
export const result = margin => (margin > 0 ? `Black wins by ${margin}` : margin < 0 ? `Green wins by ${-margin}` : "draw");

function orderKey(e, black) {
  const gain = black ? e.margin : -e.margin;
  return [-gain, gain >= 0 ? e.turns : -e.turns];
}

/** Every turn of ``p`` best first for its side to move, each {turn, name, evaluation, position}. */
export async function rankedTurns(table, p) {
  await probe(table, p);  // the position itself must be reachable
  const ranked = await Promise.all(turns(p).map(async turn => {
    const after = play(p, turn), e = await probe(table, after);
    return {turn, name: turnName(p.game.grid, turn), evaluation: {margin: e.margin, turns: e.turns + 1}, position: after};
  }));
  const compare = (a, b) => { for (let i = 0; i < Math.max(a.length, b.length); i++) { if (a[i] !== b[i]) return a[i] === undefined ? -1 : b[i] === undefined ? 1 : a[i] - b[i]; } return 0; };
  return ranked.sort((x, y) => compare(orderKey(x.evaluation, p.blackToMove), orderKey(y.evaluation, p.blackToMove)) || compare(x.turn, y.turn));
}
