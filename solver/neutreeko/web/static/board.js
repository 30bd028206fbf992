/* The Neutreeko board as both Neutreeko pages draw it (index.html: the explorer, train.html: training):
 * the squares and their labels, the last move, the piece picked up, the keyboard's cursor, the pieces,
 * and where each square is on the screen (a flipped board's too). What is drawn on the targets of the
 * piece picked up is the page's: the explorer's value dots, training's plain rings (values hidden).
 */
"use strict";

const BoardView = (() => {
  const {element} = Page;  // page.js
  // Board geometry in SVG units: a square is CELL; the margins hold the rank and file labels, and are
  // MARGINS on a 5 x 5 board. Every board is drawn in the same square on the page (its longer side fills
  // it), so margins and labels grow with the board's longer side to keep their size on the screen.
  const CELL = 100;
  const MARGINS = {left: 30, top: 6, right: 6, bottom: 30, label: 17};
  // The board's keys: the arrows move the cursor over the squares as they are drawn.
  const CURSOR_STEPS = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};

  const dimensions = board => board.split("x").map(Number);  // [files, ranks]
  /** The letter of the file numbered ``file`` from 0: A, B, ... up to the board's width. */
  const fileLetter = file => String.fromCharCode(65 + file);
  const fileNumber = letter => letter.charCodeAt(0) - 65;
  const squareName = (file, rank) => `${fileLetter(file)}${rank + 1}`;
  const squaresOf = move => move.split("-");

  /** Pieces of a position in notation: [{colour, square}], read from the server's own notation. */
  function piecesOf(fen, board) {
    const [, height] = dimensions(board);
    const pieces = [];
    fen.split(" ")[0].split("/").forEach((rank, row) => {
      let file = 0;
      for (const token of rank.match(/\d+|[bw]/g) || []) {
        if (/\d/.test(token)) {
          file += Number(token);
        } else {
          pieces.push({colour: token === "b" ? "black" : "white", square: squareName(file, height - 1 - row)});
          file += 1;
        }
      }
    });
    return pieces;
  }

  /** Where the squares of ``board`` are drawn, Black's side at the bottom if ``flipped``. */
  function geometry(board, flipped) {
    const [width, height] = dimensions(board);
    const scale = Math.max(width, height) / 5;
    const margins = Object.fromEntries(Object.entries(MARGINS).map(([name, size]) => [name, size * scale]));

    /** Where ``square`` is drawn: its column and row on the screen, from the top left. */
    function cellOf(square) {
      const file = fileNumber(square[0]), rank = Number(square.slice(1)) - 1;
      return flipped ? {column: width - 1 - file, row: rank} : {column: file, row: height - 1 - rank};
    }

    /** The square drawn at ``column`` and ``row`` (see cellOf), or null off the board. */
    function squareOfCell(column, row) {
      if (column < 0 || column >= width || row < 0 || row >= height) return null;
      return flipped ? squareName(width - 1 - column, row) : squareName(column, height - 1 - row);
    }

    /** Centre of a square in board units. */
    function centre(square) {
      const {column, row} = cellOf(square);
      return {x: margins.left + (column + 0.5) * CELL, y: margins.top + (row + 0.5) * CELL};
    }

    /** The point of a pointer ``event`` in ``svg``'s board units, or null while it is not laid out. */
    function pointOf(svg, event) {
      const matrix = svg.getScreenCTM();
      if (!matrix) return null;
      const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
      return {x: point.x, y: point.y};
    }

    function squareAt(point) {
      if (!point) return null;
      return squareOfCell(Math.floor((point.x - margins.left) / CELL), Math.floor((point.y - margins.top) / CELL));
    }

    /** The square the arrow ``key`` (one of CURSOR_STEPS) takes the cursor to from ``square``. */
    function step(square, key) {
      const {column, row} = cellOf(square), [across, down] = CURSOR_STEPS[key];
      return squareOfCell(column + across, row + down) || square;
    }

    return {width, height, margins, cellOf, squareOfCell, centre, pointOf, squareAt, step};
  }

  /**
   * Draw ``scene`` into ``svg``, replacing what was there: {board, flipped, position, label (the board's
   * accessible name), last (the move that led there, or null), selected and cursor (squares, or null),
   * targets (the selected piece's moves by target square), movable(square) (a piece there can move),
   * target(entry, at) (what to draw on a target, at its centre), winner (the colour with three in a row,
   * ringed, or null), drag ({square, at}: the piece dragged and where it is, or null), slide ([from, to]:
   * the piece on ``to`` slides there from ``from``, or null)}. The layers "squares", "marks", "pieces",
   * "arrows" and "lifted" are the svg's children, in that order.
   */
  function draw(svg, scene) {
    const shape = geometry(scene.board, scene.flipped), {width, height, centre, cellOf} = shape;
    const {left, top, right, bottom, label} = shape.margins;
    const across = left + width * CELL + right, down = top + height * CELL + bottom;
    svg.setAttribute("viewBox", `0 0 ${across} ${down}`);
    svg.style.width = `${100 * across / Math.max(across, down)}%`;  // a tall board narrower, not taller
    svg.setAttribute("aria-label", scene.label);
    const layers = ["squares", "marks", "pieces", "arrows", "lifted"].map(name => element("g", {class: name}));
    const [squares, marks, pieces, , lifted] = layers;
    for (let rank = 0; rank < height; rank += 1) {
      for (let file = 0; file < width; file += 1) {
        const name = squareName(file, rank), {column, row} = cellOf(name);
        const classes = ["square", (file + rank) % 2 === 1 ? "light" : "dark"];
        if (scene.targets.has(name)) classes.push("target");
        else if (scene.movable(name)) classes.push("movable");
        squares.append(element("rect", {x: left + column * CELL, y: top + row * CELL, width: CELL,
                                        height: CELL, class: classes.join(" "), "data-square": name}));
      }
    }
    squares.append(element("rect", {x: left, y: top, width: width * CELL, height: height * CELL, class: "edge"}));
    for (let file = 0; file < width; file += 1) {
      squares.append(element("text", {x: centre(squareName(file, 0)).x, y: top + height * CELL + bottom / 2 + 1,
                                      class: "label", "font-size": label}, fileLetter(file)));
    }
    for (let rank = 0; rank < height; rank += 1) {
      squares.append(element("text", {x: left / 2, y: centre(squareName(0, rank)).y, class: "label",
                                      "font-size": label}, String(rank + 1)));
    }
    const inset = (square, by, attributes = {}) => {
      const {x, y} = centre(square);
      return element("rect", {x: x - CELL / 2 + by, y: y - CELL / 2 + by, width: CELL - 2 * by,
                              height: CELL - 2 * by, ...attributes});
    };
    if (scene.last) marks.append(...squaresOf(scene.last).map(square => inset(square, 0, {class: "last"})));
    if (scene.selected) marks.append(inset(scene.selected, 3, {class: "selected"}));
    if (scene.cursor) marks.append(inset(scene.cursor, 9, {rx: 6, class: "cursor"}));
    for (const [square, entry] of scene.targets) marks.append(scene.target(entry, centre(square)));
    const {drag, slide} = scene;
    for (const {colour, square} of piecesOf(scene.position, scene.board)) {
      const {x, y} = centre(square);
      if (scene.winner === colour) pieces.append(element("circle", {cx: x, cy: y, r: 0.44 * CELL, class: "ring"}));
      const piece = element("circle", {cx: x, cy: y, r: 0.36 * CELL, class: `piece ${colour}`, "data-square": square});
      if (drag && drag.square === square) {
        piece.classList.add("lifted");
        lifted.append(element("circle", {cx: drag.at.x, cy: drag.at.y, r: 0.36 * CELL,
                                         class: `piece ${colour} dragged`}));
      }
      pieces.append(piece);
    }
    const sliding = slide && pieces.querySelector(`.piece[data-square="${slide[1]}"]`);
    if (sliding) {  // drawn where it was, then let go: explorer.css's transition takes it to its square
      const [from, to] = slide.map(centre);
      sliding.style.transform = `translate(${from.x - to.x}px, ${from.y - to.y}px)`;
    }
    svg.replaceChildren(...layers);
    if (sliding) {
      getComputedStyle(sliding).transform;  // the style from which the transition starts
      sliding.style.transform = "";
    }
  }

  return {CELL, CURSOR_STEPS, dimensions, fileLetter, squareName, squaresOf, piecesOf, geometry, draw};
})();
