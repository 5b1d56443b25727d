// The lobby: list games, create one (with bots if you like), join one by name.
//
// All through the REST API (docs/api.md, "Lobby"):
//   GET  /games?status=…         the listing, newest first (next_cursor pages on)
//   POST /games                  create: the creator token and the tokens of the seats taken
//   POST /games/{id}/seats       join the first open seat by name: that seat's token
// Tokens are shown once; the lobby keeps them in this tab's sessionStorage and
// opens the table at /play/<id>#token=<seat token>.

import { call, el, humanize, idempotencyKey, keepToken } from "/web/api.js";
// Signed in as a player (players.js): the seats created or joined here are bound to the player.
import { playerToken } from "/web/players.js";

const $ = (id) => document.getElementById(id);

function say(text) {
  $("message").textContent = text;
}

function open(gameId, seatToken) {
  location.assign(`/play/${gameId}${seatToken ? `#token=${encodeURIComponent(seatToken)}` : ""}`);
}

async function list() {
  const status = $("filter").value;
  let listing;
  try {
    listing = (await call("GET", `/games?status=${status}&limit=50`)).body;
  } catch (error) {
    say(error.message);
    return;
  }
  const items = listing.games.map((game) => {
    const seats = game.seats.map((s) => s.name || (s.bot ? `bot (${s.bot})` : "open")).join(", ");
    // The options the game lists for its lobby rows (Fallout's scenario, Zona's side and draft).
    const listed = Object.values(game.listed || {}).filter((v) => v !== null && v !== undefined).map((v) => ` · ${humanize(String(v))}`).join("");
    const buttons = [el("a", { href: `/play/${game.game_id}`, class: "button" }, game.status === "ended" ? "Replay" : "Watch")];
    if (game.open_seats > 0) {
      buttons.unshift(el("button", { type: "button", dataset: { join: game.game_id }, onclick: () => join(game.game_id) }, "Join"));
    }
    return el("li", { dataset: { gameId: game.game_id } },
      el("span", { class: "game-name" }, `${humanize(game.game)}${listed}`),
      el("span", { class: "game-seats" }, ` — ${seats}`),
      game.seed_source === "creator" ? el("span", { class: "warning" }, " (seed chosen by its creator)") : null,
      el("span", { class: "game-buttons" }, buttons),
    );
  });
  $("games").replaceChildren(...(items.length ? items : [el("li", {}, "No games here yet.")]));
}

async function join(gameId) {
  const name = $("join-name").value.trim();
  if (!name) {
    say("Type your name first, then join.");
    $("join-name").focus();
    return;
  }
  try {
    const joined = (await call("POST", `/games/${gameId}/seats`, {
      token: playerToken() || undefined,
      body: { name },
      headers: { "Idempotency-Key": idempotencyKey() },
    })).body;
    keepToken("seat", gameId, joined.token);
    open(gameId, joined.token);
  } catch (error) {
    say(`${error.message} (${error.code || error.status})`);
    list();
  }
}

async function create(event) {
  event.preventDefault();
  const game = $("create-game").value;
  const seats = Number($("create-seats").value);
  const level = $("create-bots").value;
  const body = { game, seats, players: [$("create-name").value.trim()] };
  if (level) {
    // Every other seat a bot: the game can start at once.
    body.bots = Array.from({ length: seats - 1 }, (_, i) => ({ seat: i + 1, level }));
  }
  try {
    const created = (await call("POST", "/games", { body, token: playerToken() || undefined })).body;
    keepToken("creator", created.game_id, created.creator_token);
    const mine = created.seats.find((s) => s.seat === 0);
    if (mine) keepToken("seat", created.game_id, mine.token);
    open(created.game_id, mine && mine.token);
  } catch (error) {
    say(`${error.message} (${error.code || error.status})`);
  }
}

function limitSeats() {
  const chosen = $("create-game").selectedOptions[0];
  if (!chosen) return;
  const seats = $("create-seats");
  seats.min = chosen.dataset.min;
  seats.max = chosen.dataset.max;
}

$("create").addEventListener("submit", create);
$("create-game").addEventListener("change", limitSeats);
$("filter").addEventListener("change", list);
$("refresh").addEventListener("click", list);
limitSeats();
list();
