/* The position editor both pages of the explorer share (explorer.js: Neutreeko's pieces, necnon.js:
 * NECNON's stones): what stands on each square (cell) of the position set up, changed by a click, a key
 * or a drag; each change drawn, held in the URL (edit=...) and checked by the server, its verdict under
 * the board (the message the command line gives for a position that cannot be, or what the position
 * is); Explore shows the position as a new view, Cancel the view as it was. The page reads its own
 * controls of the side to move, and draws the board.
 */
"use strict";

const PositionEditor = (() => {
  const {$, html} = Page;  // page.js

  /**
   * The editor of the page's #editor: ``notation(pieces)`` writes the position set up (``pieces``: a Map
   * of square or cell to colour; the side to move read from the page's controls), ``query(notation)`` is
   * the URL query holding it, ``check(notation)`` a promise of the words saying what a legal position is
   * (an Error, with the server's message, for one that is not), ``redraw()`` draws the board,
   * ``explore(notation)`` shows it as a view, ``cancel()`` the view as it was (each draws the page's
   * panels again). While the editor is open the elements ``hides`` selects are hidden, those ``inert``
   * selects take no click or key, and the list of id ``moves`` (the page's word for them: "moves",
   * "turns"), in the moves panel, says they show once the position is explored.
   */
  function create({notation, query, check, redraw, explore, cancel, hides, inert, moves}) {
    let pieces = null;  // while the editor is open
    let checks = 0;     // the number of the latest check: an answer to an older one is dropped

    function shown(open) {
      const parts = [...document.querySelectorAll(hides)], focused = document.activeElement;
      $("editor").hidden = !open;
      for (const part of parts) part.hidden = open;
      for (const part of document.querySelectorAll(inert)) part.inert = open;
      if (!open) return;
      // The keyboard's focus, on a control now hidden (Edit position), goes on in the editor.
      if (parts.some(part => part.contains(focused))) $("editor").querySelector('input[name="put"]:checked').focus();
      // The moves of the view left would not be those of the position set up.
      $(moves).closest(".moves-panel").querySelector("h2 small").textContent = "";
      $(moves).replaceChildren(html("p", {class: "empty"}, `Editing: the ${moves} show once you explore the position.`));
    }

    /** Draw the position set up, hold it in the URL ("push", "replace", or null: as it is), and check it. */
    function changed(how) {
      redraw();
      const text = notation(pieces), verdict = $("editor-verdict"), asked = ++checks;
      if (how === "push") history.pushState(null, "", query(text));
      else if (how === "replace") history.replaceState(null, "", query(text));
      $("editor-explore").disabled = true;
      verdict.className = "editor-verdict";
      verdict.textContent = "Checking the position ...";
      check(text).then(words => {
        if (asked !== checks) return;
        verdict.className = "editor-verdict legal";
        verdict.textContent = `A legal position: ${words}.`;
        $("editor-explore").disabled = false;
      }, error => {
        if (asked !== checks) return;
        verdict.className = "editor-verdict illegal";
        verdict.textContent = `Not a legal position: ${error.message}.`;
      });
    }

    const editor = {
      get open() { return pieces !== null; },
      /** The colour on ``square``, or undefined. */
      at: square => pieces.get(square),
      notation: () => notation(pieces),
      /** What a click puts: "black", the other colour, or "empty". */
      chosen: () => document.querySelector('input[name="put"]:checked').value,
      changed,
      /** Open the editor (or set it) on ``placed`` ([square, colour] pairs), recorded in the URL as ``how`` says. */
      begin(placed, how) {
        pieces = new Map(placed);
        shown(true);
        changed(how);
      },
      leave() {
        if (pieces === null) return;
        pieces = null;
        checks += 1;
        shown(false);
      },
      /** Put ``kind`` on ``square`` ("empty", or the colour already there: empty it). */
      put(square, kind) {
        if (kind === "empty" || pieces.get(square) === kind) pieces.delete(square);
        else pieces.set(square, kind);
        changed("replace");
      },
      /** Move what is on ``from`` to ``to`` (off the board if null: take it off). */
      move(from, to) {
        const colour = pieces.get(from);
        pieces.delete(from);
        if (to) pieces.set(to, colour);
        changed("replace");
      },
    };
    $("editor-clear").addEventListener("click", () => editor.begin([], "replace"));
    $("editor-cancel").addEventListener("click", () => {
      editor.leave();
      cancel();
    });
    $("editor-explore").addEventListener("click", () => {
      const text = notation(pieces);
      editor.leave();
      explore(text);
    });
    return editor;
  }

  return {create};
})();
