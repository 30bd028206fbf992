/* The explorer's game tree: the game (its main line) and its variations, as the page keeps them.
 *
 * A line is the main line (ply 1, no parent) or a variation: moves played instead of ply ``ply`` of its
 * parent line, and on, from the position before that ply. A line holds its own moves, the server's
 * answer for the position after each of them (``nodes``: /api/position objects), the annotation of its
 * whole line (/api/annotate's object of the moves from the start: its parent's whole line up to the ply
 * before its own, then its own moves) and its variations, in the order of their plies; several at one
 * ply are alternatives to the same move.
 *
 * The lines in depth-first order (``linesOf``) are in the order in which their parentheses open in the
 * tree's move text (``textOf``), which is how solver/neutreeko/record.py reads variations and how the
 * server's /api/game answers them: so a line is named in a link by its place in that order.
 */
"use strict";

const GameTree = (() => {
  function newLine(parent, ply, moves, nodes, annotation) {
    return {parent, ply, moves, nodes, annotation, variations: []};
  }

  /** The ply of the last move of ``line``'s whole line. */
  const lastPly = line => line.ply - 1 + line.moves.length;

  /** The moves of ``line``'s whole line, from the start. */
  function movesOf(line) {
    return line.parent ? movesOf(line.parent).slice(0, line.ply - 1).concat(line.moves) : line.moves.slice();
  }

  /** The nodes after each move of ``line``'s whole line (the start's not among them). */
  function nodesOf(line) {
    return line.parent ? nodesOf(line.parent).slice(0, line.ply - 1).concat(line.nodes) : line.nodes.slice();
  }

  /** The line among ``line`` and its parents whose own moves hold ply ``ply`` of ``line``'s whole line. */
  function owner(line, ply) {
    return ply >= line.ply || !line.parent ? line : owner(line.parent, ply);
  }

  /** ``line`` and every variation under it, depth first. */
  const linesOf = line => [line, ...line.variations.flatMap(linesOf)];

  /** The move text of ``line``'s own moves, its variations in parentheses after the move they replace. */
  function textOf(line) {
    const words = [];
    line.moves.forEach((move, index) => {
      words.push(move);
      for (const branch of line.variations.filter(branch => branch.ply === line.ply + index)) {
        words.push(`(${textOf(branch)})`);
      }
    });
    return words.join(" ");
  }

  /**
   * The move text of the main line ``main`` with one variation: the rest of ``line``'s whole line from
   * where it leaves the main line (none if ``line`` is the main line). A link too long for the whole
   * tree keeps this: the game and the line shown.
   */
  function pathText(main, line) {
    if (line === main) return main.moves.join(" ");
    let top = line;
    while (top.parent !== main) top = top.parent;
    const cut = top.ply;
    return [...main.moves.slice(0, cut), `(${movesOf(line).slice(cut - 1).join(" ")})`, ...main.moves.slice(cut)].join(" ");
  }

  /**
   * How far the tree from ``main`` holds ``moves`` (from the start): ``{line, held}``, the line reached
   * (each line's own move preferred to its variations) and how many of the moves it holds.
   */
  function follow(main, moves) {
    let reached = main;
    for (let index = 0; index < moves.length; index += 1) {
      const ply = index + 1;
      if (ply <= lastPly(reached) && reached.moves[ply - reached.ply] === moves[index]) continue;
      const branch = reached.variations.find(branch => branch.ply === ply && branch.moves[0] === moves[index]);
      if (!branch) return {line: reached, held: index};
      reached = branch;
    }
    return {line: reached, held: moves.length};
  }

  /**
   * Put ``moves`` (from the start) into the tree where ``follow`` stopped (``{line, held}``): after the
   * end of that line they lengthen it; before, they start a variation of it. ``nodes`` are the nodes
   * after each move not held, ``annotation`` the /api/annotate object of ``moves``. Returns the line
   * that now ends with them.
   */
  function graft({line: reached, held}, moves, nodes, annotation) {
    const rest = moves.slice(held);
    if (held === lastPly(reached)) {
      reached.moves.push(...rest);
      reached.nodes.push(...nodes);
      reached.annotation = annotation;
      return reached;
    }
    const branch = newLine(reached, held + 1, rest, nodes, annotation);
    const after = reached.variations.filter(other => other.ply <= branch.ply).length;
    reached.variations.splice(after, 0, branch);
    return branch;
  }

  /**
   * Make ``variation`` its parent's own moves from its ply on, and what they were a variation in its
   * place. The variations of the moves that change lines go with them; those at the variation's own ply
   * are alternatives to the same move, and stay where they are.
   */
  function promote(variation) {
    const parent = variation.parent, cut = variation.ply - parent.ply;
    const moves = parent.moves.slice(cut), nodes = parent.nodes.slice(cut);
    parent.moves = parent.moves.slice(0, cut).concat(variation.moves);
    parent.nodes = parent.nodes.slice(0, cut).concat(variation.nodes);
    variation.moves = moves;
    variation.nodes = nodes;
    [parent.annotation, variation.annotation] = [variation.annotation, parent.annotation];
    const later = branch => branch.ply > variation.ply;
    const fromParent = parent.variations.filter(later), fromVariation = variation.variations.filter(later);
    parent.variations = parent.variations.filter(branch => !later(branch)).concat(fromVariation);
    variation.variations = variation.variations.filter(branch => !later(branch)).concat(fromParent);
    for (const branch of fromVariation) branch.parent = parent;
    for (const branch of fromParent) branch.parent = variation;
  }

  /** Take ``variation`` (and the variations under it) out of the tree. */
  function remove(variation) {
    const siblings = variation.parent.variations;
    siblings.splice(siblings.indexOf(variation), 1);
  }

  /** The main line of the tree of an /api/game answer, its variations under it. */
  function fromAnswer(answer) {
    const main = newLine(null, 1, answer.annotation.moves.map(judged => judged.move), answer.positions.slice(1),
                      answer.annotation);
    const grow = (parent, parts) => {
      for (const part of parts) {
        const branch = newLine(parent, part.ply, part.annotation.moves.slice(part.ply - 1).map(judged => judged.move),
                            part.positions, part.annotation);
        parent.variations.push(branch);
        grow(branch, part.variations);
      }
    };
    grow(main, answer.variations);
    return main;
  }

  return {lastPly, movesOf, nodesOf, owner, linesOf, textOf, pathText, follow, graft, promote, remove, fromAnswer};
})();
