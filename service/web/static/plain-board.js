// The plain board: what the table shows for a game that brings no drawing.
//
// It also documents what a board module is. A game draws its own board in
// `web/board.js` inside its package (domain/<game>/web/board.js), served at
// /web/boards/<game>.js; the table imports it by the game's name and calls:
//
//   draw(view, context)          → a DOM node (usually an <svg>) for the board
//   seats(view, context)         → [{seat, title, rows: [[label, value]…], hand: [text…]}]
//                                  each seat's visible hand and track
//   describeAction(action, view) → the words on an action's button
//   describePending(view, context) → the pending decision in words, used
//                                  when the API gives no `prompt`
//
// `view` is the `view` of GET /games/{id}/state (the game's View schema in
// the API document), as the caller's seat may see it. `context` is
// {seat, names, version, actions, act}: the caller's seat (null for a spectator), each
// seat's display name, the version shown — and `actions` (what the caller
// may post now; empty when looking at the past) with `act(action)` to post
// one, for a board that lets the player act on the board itself. Only `draw`
// is required.

import { el, humanize } from "/web/api.js";

export function draw(view) {
  return el("pre", { class: "plain-view" }, JSON.stringify(view, null, 2));
}

/** An action in words from its fields: `nameOf(value)` names an id (a board passes its names), else made readable. */
export function describeAction(action, view, nameOf = (value) => humanize(value)) {
  const details = Object.entries(action)
    .filter(([key]) => key !== "type" && key !== "text")
    .map(([key, value]) => {
      if (typeof value === "string") return nameOf(value);
      if (typeof value === "number") return `${humanize(key).toLowerCase()} ${value}`;
      return `${humanize(key).toLowerCase()} ${JSON.stringify(value)}`;
    });
  return details.length ? `${humanize(action.type)}: ${details.join(", ")}` : humanize(action.type);
}
