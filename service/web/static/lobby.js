// The lobby: list games, create one (with bots if you like), join one by name.
//
// All through the REST API (docs/api.md, "Lobby"):
//   GET  /games?status=…         the listing, newest first (next_cursor pages on)
//   POST /games                  create: the creator token and the tokens of the seats taken
//   POST /games/{id}/seats       join the first open seat by name: that seat's token
// Tokens are shown once; the lobby keeps them in this browser's localStorage
// ("My seats", my-seats.js) and opens the table at /play/<id>#token=<seat token>.
// The create form's options are drawn from each game's options schema (the
// same JSON Schema as its `…Options` in the API document), which the page
// carries on each game's <option>.

import { call, el, forgetGame, humanize, idempotencyKey, keepToken, keptGames } from "/web/api.js";
import { heldSeats, showMySeats } from "/web/my-seats.js";
// Signed in as a player (players.js): the seats created or joined here are bound to the player.
import { playerToken } from "/web/players.js";

const $ = (id) => document.getElementById(id);

function say(text) {
  $("message").textContent = text;
}

function open(gameId, seatToken) {
  location.assign(`/play/${gameId}${seatToken ? `#token=${encodeURIComponent(seatToken)}` : ""}`);
}

/** A listed option's value in words: its name among the schema's choices, else the value made readable. */
function optionWords(game, name, value) {
  const option = [...$("create-game").options].find((o) => o.value === game);
  const schema = option ? JSON.parse(option.dataset.options || "{}") : {};
  const choices = schema.properties?.[name]?.["x-choices"] || {};
  return choices[value] || humanize(String(value));
}

function seatWords(s) {
  if (s.kind === "open") return "open";
  if (s.kind === "bot") return s.bot ? `${s.bot} bot` : "bot";
  return s.name || "a player";
}

let listed = 0; // the newest listing asked for: an older answer arriving after it is dropped
async function list() {
  const status = $("filter").value;
  const asked = (listed += 1);
  let listing;
  try {
    listing = (await call("GET", `/games?status=${status}&limit=50`)).body;
  } catch (error) {
    say(error.message);
    return;
  }
  if (asked !== listed) return;
  const held = heldSeats();
  const items = listing.games.map((game) => {
    const seats = game.seats.map(seatWords).join(", ");
    // The options the game lists for its lobby rows (Fallout's scenario, Zona's side and draft).
    const listed = Object.entries(game.listed || {}).filter(([, v]) => v !== null && v !== undefined)
      .map(([name, v]) => ` · ${optionWords(game.game, name, v)}`).join("");
    const buttons = [];
    if (held.has(game.game_id)) {
      buttons.push(el("a", { href: `/play/${game.game_id}`, class: "button", dataset: { mine: game.game_id } }, "Open my seat"));
    } else {
      if (game.open_seats > 0) {
        buttons.push(el("button", { type: "button", dataset: { join: game.game_id }, onclick: () => join(game.game_id) }, "Join"));
      }
      buttons.push(el("a", { href: `/play/${game.game_id}`, class: "button" }, game.status === "ended" ? "Replay" : "Watch"));
    }
    // Whose turn (the listing's waiting_for): a seat's player by name, else "seat N".
    const turn = (game.waiting_for || []).map((n) => {
      const s = game.seats[n];
      return s && s.kind === "human" && s.name ? s.name : s && s.kind === "bot" ? `seat ${n} (bot)` : `seat ${n}`;
    });
    const progress = game.status === "lobby" ? `${game.open_seats} open seat${game.open_seats === 1 ? "" : "s"}`
      : game.status === "ended" ? "finished"
      : `being played, move ${game.version}${turn.length ? `, waiting for ${turn.join(" and ")}` : ""}`;
    return el("li", { dataset: { gameId: game.game_id } },
      el("span", { class: "game-name" }, `${humanize(game.game)}${listed}`),
      el("span", { class: "game-seats" }, ` — ${seats}`),
      el("span", { class: "game-progress" }, ` — ${progress}`),
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
  const options = chosenOptions();
  if (Object.keys(options).length) body.options = options;
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
  drawOptions(JSON.parse(chosen.dataset.options || "{}"));
}

// -- the chosen game's options ---------------------------------------------------
//
// One field per option its schema describes: a choice (`enum`, or the
// `x-choices` a game names for its ids) as a select, a yes/no as a checkbox,
// a number or a string as an input. Each starts at "the game's default" and
// only what the creator changes is sent. Lists (Fallout's survivors by seat)
// are left to clients that build them.

function drawOptions(schema) {
  const main = [];
  const more = [];
  for (const [name, prop] of Object.entries(schema.properties || {})) {
    const id = `option-${name}`;
    const label = humanize(name);
    const hint = prop.description || "";
    const choices = prop["x-choices"] || (prop.enum ? Object.fromEntries(prop.enum.map((v) => [v, humanize(v)])) : null);
    let field = null;
    if (choices) {
      const fallback = prop.default === null || prop.default === undefined ? "the game's default" : `default: ${choices[prop.default] || humanize(String(prop.default))}`;
      field = el("select", { id, name, dataset: { option: name, kind: "choice" } },
        el("option", { value: "" }, fallback),
        Object.entries(choices).map(([value, words]) => el("option", { value }, words)));
    } else if (prop.type === "boolean") {
      field = el("input", { id, name, type: "checkbox", dataset: { option: name, kind: "boolean" }, checked: prop.default === true });
    } else if (prop.type === "integer" || prop.type === "number") {
      field = el("input", { id, name, type: "number", min: prop.minimum, max: prop.maximum, placeholder: prop.default ?? "default",
        dataset: { option: name, kind: "number" } });
    } else if (prop.type === "string") {
      field = el("input", { id, name, placeholder: prop.default ?? "default", dataset: { option: name, kind: "text" } });
    }
    if (!field) continue;
    const row = el("label", { for: id, title: hint }, label, field);
    (choices ? main : more).push(row);
  }
  $("create-options").replaceChildren(
    el("legend", {}, "Options"),
    ...main,
    more.length ? el("details", {}, el("summary", {}, "More options"), ...more) : null,
  );
  $("create-options").hidden = !main.length && !more.length;
}

/** The options the creator changed from the game's defaults. */
function chosenOptions() {
  const chosen = {};
  for (const field of $("create-options").querySelectorAll("[data-option]")) {
    const name = field.dataset.option;
    const schema = JSON.parse($("create-game").selectedOptions[0].dataset.options || "{}").properties?.[name] || {};
    if (field.dataset.kind === "boolean") {
      if (field.checked !== (schema.default === true)) chosen[name] = field.checked;
    } else if (field.value !== "") {
      chosen[name] = field.dataset.kind === "number" ? Number(field.value) : field.value;
    }
  }
  return chosen;
}

function mySeats() {
  const forgot = () => {
    mySeats();
    list();
  };
  showMySeats($("my-seats-section"), $("my-seats-list"), forgot).catch((error) => say(error.message));
}

$("create").addEventListener("submit", create);
$("create-game").addEventListener("change", limitSeats);
$("filter").addEventListener("change", list);
$("refresh").addEventListener("click", () => {
  list();
  mySeats();
});
$("forget-all").addEventListener("click", () => {
  for (const kept of keptGames()) forgetGame(kept.gameId);
  mySeats();
  list();
});
// Another tab took or forgot a seat: this one follows.
window.addEventListener("storage", (event) => {
  if (event.key === null || event.key.startsWith("holotape.")) {
    mySeats();
    list();
  }
});
limitSeats();
list();
mySeats();
