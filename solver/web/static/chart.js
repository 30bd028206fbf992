/* The value history both pages of the explorer draw (explorer.js: Neutreeko, necnon.js: NECNON), as
 * GamesmanUni draws it: one row per position, the game going down; across, how the position stands, Black's
 * side to the left, the other player's to the right, the centre a draw. Each point is a position, each
 * link the move (turn) made from it, coloured by its value; a row is labelled with the move made from
 * it, on its player's side, and a click on it goes there. The head (the sides, the scale and what it
 * counts) stays above the rows, which scroll.
 */
"use strict";

const ValueChart = (() => {
  const {element} = Page;  // page.js
  const WIDTH = 360, LABELS = 44, HEADER = 44, ROW = 17, TOP = 4;

  /**
   * Draw the chart into the SVG elements ``head`` and ``chart`` (inside its scrolling frame).
   * ``sides``: [left, centre, right], the head's words; ``axis``: what the scale counts, said on each
   * half; ``ticks``: [{at, text, major}], grid lines at ``at`` (0: the left edge, 1: the right one), the
   * major ones darker, labelled ``text`` unless it is null; ``rows``: [{at, value, title, label, left}], each position: where it
   * stands (0 to 1), its value's class (win, draw, loss, or keeps, worse), its tooltip, the move made
   * from it (none for the last) labelled on the left if ``left``, and ``link``: that move's class;
   * ``current``: the row shown; ``pick(row)``: a click on a row.
   */
  function draw(head, chart, {sides, axis, ticks, rows, current, pick}) {
    const span = WIDTH - 2 * LABELS, xOf = at => LABELS + at * span, yOf = row => TOP + row * ROW + ROW / 2;
    const height = TOP + rows.length * ROW + 4;
    const top = [
      element("text", {x: LABELS, y: 8, class: "side", "text-anchor": "start"}, sides[0]),
      element("text", {x: WIDTH / 2, y: 8, class: "side", "text-anchor": "middle"}, sides[1]),
      element("text", {x: WIDTH - LABELS, y: 8, class: "side", "text-anchor": "end"}, sides[2]),
      element("text", {x: LABELS + span / 4, y: HEADER - 7, class: "axis", "text-anchor": "middle"}, axis),
      element("text", {x: WIDTH - LABELS - span / 4, y: HEADER - 7, class: "axis", "text-anchor": "middle"}, axis),
    ];
    const shapes = rows.map((row, index) => {
      const rect = element("rect", {x: 0, y: TOP + index * ROW, width: WIDTH, height: ROW,
                                    class: `row${index === current ? " current" : ""}`, "data-ply": index});
      rect.append(element("title", {}, row.title));
      rect.addEventListener("click", () => pick(index));
      return rect;
    });
    for (const {at, text, major} of ticks) {
      shapes.push(element("line", {x1: xOf(at), y1: 0, x2: xOf(at), y2: height, class: `grid${major ? " major" : ""}`}));
      if (text !== null) top.push(element("text", {x: xOf(at), y: HEADER / 2 + 1, "text-anchor": "middle"}, text));
    }
    shapes.push(element("line", {x1: WIDTH / 2, y1: 0, x2: WIDTH / 2, y2: height, class: "centre"}));
    rows.forEach((row, index) => {
      if (!row.label) return;
      shapes.push(element("text", {x: row.left ? LABELS - 4 : WIDTH - LABELS + 4, y: yOf(index), class: "move-label",
                                   "text-anchor": row.left ? "end" : "start"}, row.label));
      if (index + 1 < rows.length) {
        shapes.push(element("line", {x1: xOf(row.at), y1: yOf(index), x2: xOf(rows[index + 1].at), y2: yOf(index + 1),
                                     class: `link ${row.link}`}));
      }
    });
    rows.forEach((row, index) => {
      shapes.push(element("circle", {cx: xOf(row.at), cy: yOf(index), r: index === current ? 5 : 3.6,
                                     class: `point ${row.value}`}));
    });
    head.setAttribute("viewBox", `0 0 ${WIDTH} ${HEADER}`);
    head.replaceChildren(...top);
    chart.setAttribute("viewBox", `0 0 ${WIDTH} ${height}`);
    chart.replaceChildren(...shapes);
    // The row shown is kept in view, within the frame only (the window stays where it is).
    const frame = chart.parentElement, scale = chart.clientWidth / WIDTH || 1;
    const headHeight = HEADER * scale, rowTop = headHeight + (TOP + current * ROW) * scale;
    if (rowTop < frame.scrollTop + headHeight || rowTop + ROW * scale > frame.scrollTop + frame.clientHeight) {
      frame.scrollTop = Math.max(0, rowTop - headHeight - (frame.clientHeight - headHeight) / 2);
    }
  }

  return {draw};
})();
