/* What both pages of the explorer share (index.html: Neutreeko, necnon.html: NECNON): making elements,
 * the server's JSON API, the message line under the board, the focus and the scrolling of the lists,
 * the export buttons (copy the position, a link, the record; download the record), the paste box, the
 * rules (the game's rules.md, which the documentation includes too), and the game selector and the
 * menu of the top bar.
 */
"use strict";

const Page = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const $ = id => document.getElementById(id);

  /** An element (SVG's unless ``namespace`` is null: HTML's) with ``attributes`` (null ones left out) and text. */
  function element(tag, attributes = {}, text = null, namespace = SVG) {
    const node = namespace ? document.createElementNS(namespace, tag) : document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value !== null && value !== undefined) node.setAttribute(name, value);
    }
    if (text !== null) node.textContent = text;
    return node;
  }

  const html = (tag, attributes = {}, text = null) => element(tag, attributes, text, null);
  const capitalise = word => word.charAt(0).toUpperCase() + word.slice(1);
  /** "1 ply", "2 plies": a count of plies. */
  const plyCount = count => `${count} ${count === 1 ? "ply" : "plies"}`;
  /** A URL query of [name, value] pairs, a space as "+" and "/" as it is, so that positions read well. */
  const queryText = pairs => pairs.map(([name, value]) =>
    `${name}=${encodeURIComponent(value).replace(/%2F/g, "/").replace(/%20/g, "+")}`).join("&");

  // A static site (neutreeko site) marks its pages: they read the tables themselves (reader/api.js).
  const reader = document.documentElement.hasAttribute("data-site")
    ? import(new URL("reader/api.js", document.baseURI).href) : null;

  /**
   * The JSON answer of /api/<endpoint> to a GET with ``parameters`` (empty ones left out), or to a POST
   * of ``body``; an Error with the server's message if it refuses. On a static site the in-browser
   * reader answers instead, in the same shapes.
   */
  async function api(endpoint, parameters = {}, body = null) {
    if (reader) return (await reader).answer(endpoint, parameters, body);
    const query = queryText(Object.entries(parameters)
      .filter(([, value]) => value !== undefined && value !== null && value !== ""));
    let response, answer;
    try {
      response = await fetch(`/api/${endpoint}${query ? "?" + query : ""}`,
                             body === null ? {} : {method: "POST", body});
      answer = await response.json();
    } catch (error) {
      throw new Error(`the explorer's server does not answer (${error.message}); is neutreeko serve running?`);
    }
    if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
    return answer;
  }

  let messageTimer = null;

  /** Show ``text`` in the message line: an error (it stays), or a "note" (it goes after 8 s). */
  function say(text, kind = "error") {
    const box = $("message");
    box.textContent = text;
    box.className = `message ${kind === "note" ? "note" : ""}`;
    clearTimeout(messageTimer);
    if (kind === "note") messageTimer = setTimeout(quiet, 8000);
  }

  function quiet() {
    $("message").textContent = "";  // its line stays, empty (explorer.css)
  }

  /**
   * Scroll ``frame`` so that ``item``, inside it, is in view. Only the frame scrolls: scrollIntoView would
   * scroll the window too, and move the board away on a small screen.
   */
  function scrollWithin(frame, item) {
    const box = frame.getBoundingClientRect(), {top, bottom} = item.getBoundingClientRect();
    if (top < box.top) frame.scrollTop -= box.top - top;
    else if (bottom > box.bottom) frame.scrollTop += bottom - box.bottom;
  }

  /**
   * Run ``render``, which replaces the buttons of the list of choices (the element ``choices``: the moves
   * or turns of the position shown) and of the game list (``game``). If one of them held the keyboard's
   * focus, it would fall to the page: it goes back where play continues, on the first choice of the new
   * position or the game's current move, without scrolling.
   */
  function keepingFocus(choices, game, render) {
    const held = [choices, game].find(id => $(id).contains(document.activeElement)) || null;
    render();
    if (!held || document.activeElement !== document.body) return;
    const first = $(choices).querySelector(".move"), shown = $(game).querySelector(".ply.current");
    const target = held === choices ? first || shown : shown || $(game).querySelector(".ply") || first;
    if (target) target.focus({preventScroll: true});
  }

  /**
   * Put ``text`` on the clipboard and say so (``what`` names it: "a link to this view"); where the
   * clipboard is refused (an insecure origin, a browser's setting), ``refused()`` shows the text instead.
   */
  async function copy(text, what, refused = () => say(`${capitalise(what)}: ${text}`, "note")) {
    try {
      await navigator.clipboard.writeText(text);
      say(`${capitalise(what)} is on the clipboard.`, "note");
    } catch (error) {
      refused();
    }
  }

  /**
   * Wire the export buttons: Copy position (``position()``: the position shown, in notation), Copy link,
   * Copy record and Download record (``record()``: a promise of the game's record, variations and all;
   * ``file()``: the name it is saved as; ``reader``: who else reads it, in the note). ``act`` runs each
   * in turn with the page's changes. A record refused by the clipboard is put in the paste box,
   * selected, to be copied from there.
   */
  function attachExport({position, record, file, reader, act}) {
    $("copy-link").addEventListener("click", () => copy(location.href, "a link to this view"));
    $("copy-position").addEventListener("click", () => copy(position(), "the position"));
    $("copy-record").addEventListener("click", () => act(async () => {
      const text = await record();
      await copy(text, `the game's record (paste it here, or give it to ${reader})`, () => {
        $("paste-input").value = text;
        $("paste-input").rows = Math.min(8, text.split("\n").length);
        $("paste-input").select();
        say("The clipboard is not open to the page: the record is in the paste box, selected, to copy.", "note");
      });
    }));
    $("download-record").addEventListener("click", () => act(async () => {
      const url = URL.createObjectURL(new Blob([await record()], {type: "text/plain;charset=utf-8"}));
      const link = html("a", {href: url, download: file()});
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);  // once the download has read it
    }));
  }

  /**
   * Wire the paste box: it grows with a pasted record; Enter loads it, Shift+Enter starts a new line.
   * ``load(text)`` shows what the text asks for and says whether one of its moves was refused; the text
   * is then kept, to be mended, and otherwise cleared. ``act`` runs it in turn with the page's changes.
   */
  function attachPaste(load, act) {
    const input = $("paste-input");
    input.addEventListener("input", () => { input.rows = Math.min(8, input.value.split("\n").length); });
    input.addEventListener("keydown", event => {
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        $("paste-form").requestSubmit();
      }
    });
    $("paste-form").addEventListener("submit", event => {
      event.preventDefault();
      const text = input.value;
      if (!text.trim()) return;
      act(async () => {
        if (await load(text)) return;
        quiet();
        input.value = "";
        input.rows = 1;
        input.blur();
      });
    });
  }

  /**
   * The blocks of the Markdown of the rules (paragraphs, fenced code; in a paragraph **bold**, *italic*
   * and `code`), as elements: the text of the file, never markup of its own.
   */
  function markdown(text) {
    const blocks = [];
    let lines = [], fenced = false;
    const close = () => {
      if (fenced) blocks.push(html("pre", {}, lines.join("\n")));
      else if (lines.length) blocks.push(paragraph(lines.join(" ")));
      lines = [];
    };
    for (const line of text.split("\n")) {
      if (line.startsWith("```")) {
        close();
        fenced = !fenced;
      } else if (!fenced && !line.trim()) {
        close();
      } else {
        lines.push(fenced ? line : line.trim());
      }
    }
    close();
    return blocks;
  }

  function paragraph(text) {
    const block = html("p");
    for (const piece of text.split(/(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`)/)) {
      if (/^\*\*.+\*\*$/.test(piece)) block.append(html("strong", {}, piece.slice(2, -2)));
      else if (/^\*.+\*$/.test(piece)) block.append(html("em", {}, piece.slice(1, -1)));
      else if (/^`.+`$/.test(piece)) block.append(html("code", {}, piece.slice(1, -1)));
      else if (piece) block.append(piece);
    }
    return block;
  }

  /**
   * A table of figures (both pages' Statistics): ``rows`` of [name, value, share], each row marked with
   * its name (data-figure); a row whose share is null has its value across both columns, wrapping.
   */
  function figures(caption, rows) {
    const table = html("table", {class: "figures"});
    table.append(html("caption", {}, caption));
    for (const [name, value, share] of rows) {
      const row = html("tr", {"data-figure": name});
      row.append(html("th", {scope: "row"}, name), ...(share === null
        ? [html("td", {colspan: "2", class: "start"}, value)]
        : [html("td", {}, value), html("td", {class: "share"}, share)]));
      table.append(row);
    }
    return table;
  }

  // The Rules button opens the rules of the page's game (its data-source), read once, over the page.
  const rules = $("rules-button");
  if (rules) {
    let read = null;
    rules.addEventListener("click", async () => {
      read = read || fetch(rules.dataset.source).then(answer => answer.text());
      try {
        $("rules-text").replaceChildren(...markdown(await read));
      } catch (error) {
        read = null;
        say(`The rules could not be read (${error.message}).`);
        return;
      }
      $("rules").showModal();
    });
  }

  // On a phone the bar's selectors and paste box fold into its menu (explorer.css).
  const menu = $("menu-toggle");
  if (menu) {
    menu.addEventListener("click", () => {
      menu.setAttribute("aria-expanded", String(menu.closest(".bar").classList.toggle("open")));
    });
  }

  // The game selector's options are the pages' addresses.
  $("game-select").addEventListener("change", event => { location.href = event.target.value; });

  return {SVG, $, element, html, capitalise, plyCount, queryText, api, say, quiet, scrollWithin, keepingFocus,
          attachExport, attachPaste, markdown, figures};
})();
