/* The game tree both pages of the explorer keep (explorer.js: Neutreeko, necnon.js: NECNON): the game
 * (its main line) and its variations, what a link says of it, and how the game list shows a variation.
 *
 * A line is the main line (ply 1, no parent) or a variation: moves (NECNON's turns) played instead of ply
 * ``ply`` of its parent line, and on, from the position before that ply. A line holds its own moves, the
 * page's node for the position after each of them (``nodes``: Neutreeko's /api/position objects,
 * NECNON's state and values), the page's judgement of each of them if it keeps one (``judged``:
 * Neutreeko's /api/annotate judgements, each of a move as a ply of the line's whole line; NECNON's null)
 * and its variations, in the order of their plies; several at one ply are alternatives to the same move.
 *
 * The lines in depth-first order (``linesOf``) are in the order in which their parentheses open in the
 * tree's move text (``textOf``), which is how both games' records read variations (solver/core/answers/record.py)
 * and how the server's /api/game answers them: so a line is named in a link by its place in that order.
 */
"use strict";

const GameTree = (() => {
  const {$, html, queryText} = Page;  // page.js
  // The longest query a link keeps the whole tree in: requests of the tree then stay well within the
  // server's bound on a URL (8,192 characters).
  const MAX_LINK = 4000;

  function newLine(parent, ply, moves, nodes, judged) {
    return {parent, ply, moves, nodes, judged, variations: []};
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

  /** The judgements of the moves of ``line``'s whole line (null if the page keeps none). */
  function judgedOf(line) {
    if (!line.judged) return null;
    return line.parent ? judgedOf(line.parent).slice(0, line.ply - 1).concat(line.judged) : line.judged.slice();
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
   * after each move not held, ``judged`` the judgement of each of them (or null). Returns the line
   * that now ends with them.
   */
  function graft({line: reached, held}, moves, nodes, judged) {
    const rest = moves.slice(held);
    if (held === lastPly(reached)) {
      reached.moves.push(...rest);
      reached.nodes.push(...nodes);
      if (judged) reached.judged.push(...judged);
      return reached;
    }
    const branch = newLine(reached, held + 1, rest, nodes, judged);
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
    if (parent.judged) {
      const judged = parent.judged.slice(cut);
      parent.judged = parent.judged.slice(0, cut).concat(variation.judged);
      variation.judged = judged;
    }
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

  /**
   * The main line of the tree of an /api/game answer, its variations under it. ``read(part, ply)`` gives
   * ``{moves, nodes, judged}`` of the answer (``ply`` 1) or of one of its variations: its own moves,
   * from ``ply`` on, and the page's node of each of its ``positions`` (the answer's own begin with the
   * start's, which is no line's).
   */
  function fromAnswer(answer, read) {
    const line = (parent, part, ply) => {
      const {moves, nodes, judged} = read(part, ply);
      return newLine(parent, ply, moves, parent ? nodes : nodes.slice(1), judged);
    };
    const grow = (parent, parts) => {
      for (const part of parts) {
        const branch = line(parent, part, part.ply);
        parent.variations.push(branch);
        grow(branch, part.variations);
      }
    };
    const main = line(null, answer, 1);
    grow(main, answer.variations);
    return main;
  }

  /**
   * The URL query of a view of the tree from ``main``, showing ``line`` at ``ply``: ``parts`` ([name,
   * value] pairs: the board and what else names the game), the tree's move text (``moves``), the line by
   * its place among the lines (``line``; none for the main line) and the ply (``ply``; none at the
   * line's end). A tree whose query would be longer than MAX_LINK keeps the main line and the line shown.
   */
  function queryOf(parts, {main, line, ply}) {
    const query = (moves, place) => "?" + queryText([
      ...parts, ...(moves ? [["moves", moves]] : []), ...(place ? [["line", String(place)]] : []),
      ...(ply !== lastPly(line) ? [["ply", String(ply)]] : [])]);
    const whole = query(textOf(main), linesOf(main).indexOf(line));
    return whole.length <= MAX_LINK ? whole : query(pathText(main, line), line === main ? 0 : 1);
  }

  /** The line of a link's query: its place among the tree's lines (``line``), 0 (the main line) if none. */
  function placeOf(parameters) {
    const place = parameters.get("line");
    return place !== null && /^\d+$/.test(place) ? Number(place) : 0;
  }

  /**
   * How ply ``ply`` of ``line`` stands to the view (``shown``: the line shown, ``at``: its ply shown):
   * "current" for the move shown, "future" for one after it on the line shown, else "".
   */
  function standing(line, ply, shown, at) {
    const onShown = owner(shown, ply) === line && ply <= lastPly(shown);
    return onShown && ply === at ? "current" : onShown && ply > at ? "future" : "";
  }

  /**
   * The game list's block of ``line``, a variation: its moves in order, each a button made by
   * ``button(line, ply)``, before it its number where ``number(line, ply, first)`` gives one (``first``:
   * the variation's first move or the first after one of its own variations, which always say theirs),
   * its own variations nested after the move they replace; ``name(line)`` names it to assistive technology.
   */
  function variationBlock(line, {button, number, name}) {
    const block = html("div", {class: "variation", role: "group", "aria-label": name(line)});
    let first = true;
    line.moves.forEach((move, at) => {
      const ply = line.ply + at, said = number(line, ply, first);
      if (said) block.append(html("span", {class: "number"}, said));
      block.append(button(line, ply));
      const branches = line.variations.filter(branch => branch.ply === ply);
      block.append(...branches.map(branch => variationBlock(branch, {button, number, name})));
      first = branches.length > 0;
    });
    return block;
  }

  /**
   * Wire the game panel's Promote variation and Delete variation buttons: ``view()`` is the view
   * ({main, line, ply}), ``show(line, ply)`` shows a line of the changed tree as a new history entry,
   * ``act`` runs a change in turn with the page's others. The focus, on a button the main line
   * disables, goes to the move shown, or to the game list (a browser may already have dropped it to the
   * page as the button was disabled: the button is remembered from before the change).
   */
  function attachTools({view, show, act}) {
    const change = changed => act(() => {
      const {main, line, ply} = view();
      if (line === main) return;
      const focused = document.activeElement;
      show(...changed(line, ply));
      if (focused.disabled) ($("game").querySelector(".ply.current") || $("game")).focus();
    });
    // The variation's moves become its parent's, at the same ply: the same line is shown, now its parent's.
    $("promote").addEventListener("click", () => change((line, ply) => {
      promote(line);
      return [line.parent, ply];
    }));
    $("delete").addEventListener("click", () => change(line => {
      remove(line);
      return [line.parent, line.ply - 1];
    }));
  }

  return {lastPly, movesOf, nodesOf, judgedOf, owner, linesOf, textOf, pathText, follow, graft, promote, remove, fromAnswer,
          queryOf, placeOf, standing, variationBlock, attachTools};
})();
