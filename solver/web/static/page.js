/* What both pages of the explorer share (index.html: Neutreeko, necnon.html: NECNON): making elements,
 * the server's JSON API, the message line under the board, and the game selector of the top bar, which
 * goes from one page to the other.
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

  /**
   * The JSON answer of /api/<endpoint> to a GET with ``parameters`` (empty ones left out), or to a POST
   * of ``body``; an Error with the server's message if it refuses.
   */
  async function api(endpoint, parameters = {}, body = null) {
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

  // The game selector's options are the pages' addresses.
  $("game-select").addEventListener("change", event => { location.href = event.target.value; });

  return {SVG, $, element, html, capitalise, plyCount, queryText, api, say, quiet};
})();
