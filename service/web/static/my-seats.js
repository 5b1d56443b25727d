// "My seats": the games this browser holds a token for (kept in localStorage
// by the lobby and the table, service/web/static/api.js), with whose turn it
// is in each, a link back to the seat, and a way to forget it here.
//
// Each row asks GET /games/{id}/state with the seat's token (the listing has
// no turn in it: whose turn is the game's to say), for the newest few games.

import { ApiError, call, el, forgetGame, humanize, keptGames } from "/web/api.js";

/** At most this many rows ask for their game's state: a lobby stays light. */
const ASKED = 12;

/** Words for whose turn it is, as the table's banner says them. */
export function turnWords(state) {
  if (state.status === "lobby") return "not started";
  if (state.over || state.status === "ended") return "over";
  if (state.seat !== null && state.waiting_for.includes(state.seat)) return "Your turn";
  const waiting = state.waiting_for.filter((s) => s !== state.seat);
  if (!waiting.length) return "moving on";
  const named = (s) => {
    const entry = (state.seats || [])[s] || {};
    const who = entry.name || (entry.kind === "bot" ? "a bot" : null);
    return `seat ${s}${who ? ` (${who})` : ""}`;
  };
  return `Waiting for ${waiting.map(named).join(", ")}`;
}

async function row(kept, redraw) {
  const token = kept.seat || kept.creator;
  let state = null;
  let gone = false;
  try {
    state = (await call("GET", `/games/${kept.gameId}/state`, { token })).body;
  } catch (error) {
    if (!(error instanceof ApiError) || ![403, 404].includes(error.status)) throw error;
    gone = true; // the game is gone, or the token no longer holds the seat
  }
  const forget = el("button", {
    type: "button", dataset: { forget: kept.gameId },
    onclick: () => {
      forgetGame(kept.gameId);
      redraw();
    },
  }, "Forget");
  if (gone) {
    return el("li", { dataset: { gameId: kept.gameId } }, el("span", {}, "A game this browser no longer holds a seat in"),
      el("span", { class: "game-buttons" }, forget));
  }
  const turn = turnWords(state);
  const mine = state.seat === null ? "as its creator" : `seat ${state.seat}`;
  return el("li", { dataset: { gameId: kept.gameId, turn: turn === "Your turn" ? "yours" : "" } },
    el("span", { class: "game-name" }, `${humanize(state.game)} · ${mine}`),
    el("span", { class: `game-turn${turn === "Your turn" ? " yours" : ""}` }, turn),
    el("span", { class: "game-buttons" },
      el("a", { href: `/play/${kept.gameId}`, class: "button" }, "Open"), forget),
  );
}

/** Draw the list into `list`; `section` is hidden while this browser holds no seat; `forgot()` after a Forget. */
export async function showMySeats(section, list, forgot) {
  const redraw = forgot;
  const kept = keptGames();
  section.hidden = kept.length === 0;
  const rows = await Promise.all(kept.slice(0, ASKED).map((k) => row(k, redraw).catch(() => null)));
  list.replaceChildren(...rows.filter(Boolean));
}

/** The game ids this browser holds a seat in: the listing offers "Open" rather than "Join" on them. */
export function heldSeats() {
  return new Set(keptGames().filter((k) => k.seat).map((k) => k.gameId));
}
