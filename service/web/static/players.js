// The lobby's "My games": sign in with a player token, see whose turn it is in each of your games.
//
// Through the REST API (docs/players.md):
//   POST /players                 a new player: its token, shown once
//   GET  /players/me              who the token is
//   GET  /players/me/games        the inbox: your games, those waiting for you first (a long poll
//                                 with If-None-Match keeps the list live)
//   POST /games/{id}/invitations  an invitation link for an open seat (you created the game)
//   POST /invitations/{code}      take the seat an invitation link offers
//   POST /players/confirm         confirm your address with the code a mail carried
// The player token is kept in this browser's localStorage (it is the key to all your games, across
// tabs and visits) until "Sign out". A game opens at /play/<id>#token=<player token>&seat=<n>: the
// table acts as that seat (api.js sends Holotape-Seat with a player token).

import { call, el, humanize } from "/web/api.js";

const KEY = "holotape.player";
const $ = (id) => document.getElementById(id);
let etag = null;
let polling = null;

export function playerToken() {
  return localStorage.getItem(KEY);
}

function say(text) {
  $("player-message").textContent = text;
}

function openGame(gameId, seat) {
  const token = playerToken();
  location.assign(`/play/${gameId}#token=${encodeURIComponent(token)}&seat=${seat}`);
}

function when(iso) {
  if (!iso) return "";
  const at = new Date(iso);
  return at.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function whoseTurn(entry) {
  if (entry.status === "ended") return "finished";
  if (entry.status === "lobby") return "waiting for players";
  if (entry.waiting) return "your turn";
  const names = entry.waiting_for.map((s) => entry.seats[s].name || (entry.seats[s].bot ? `the ${entry.seats[s].bot} bot` : `seat ${s}`));
  return names.length ? `${names.join(", ")}'s turn` : "the game plays on";
}

async function invite(entry, item) {
  try {
    const made = (await call("POST", `/games/${entry.game_id}/invitations`, { token: playerToken(), body: {} })).body;
    const link = new URL(made.url, location.origin).href;
    const copy = el("button", { type: "button", class: "copy-link", onclick: () => navigator.clipboard.writeText(link).then(() => say("Link copied.")) }, "Copy link");
    item.append(el("p", { class: "invite" }, el("input", { readonly: true, value: link, size: 40, class: "invite-link" }), " ", copy));
  } catch (error) {
    say(`${error.message} (${error.code || error.status})`);
  }
}

function render(inbox) {
  const items = inbox.games.map((entry) => {
    const item = el("li", { dataset: { gameId: entry.game_id, seat: entry.seat, waiting: entry.waiting ? "yes" : "no" }, class: entry.waiting ? "mine waiting" : "mine" },
      el("span", { class: "game-name" }, `${humanize(entry.game)} · seat ${entry.seat}`),
      el("span", { class: "whose-turn" }, ` — ${whoseTurn(entry)}`),
      entry.deadline ? el("span", { class: "deadline" }, ` · until ${when(entry.deadline)}`) : null,
      entry.waiting && entry.prompt ? el("p", { class: "prompt" }, entry.prompt) : null,
      el("span", { class: "game-buttons" },
        el("button", { type: "button", class: "open-game", onclick: () => openGame(entry.game_id, entry.seat) }, entry.waiting ? "Play" : "Open"),
        entry.status === "lobby" && entry.seats.some((s) => s.kind === "open")
          ? el("button", { type: "button", class: "invite-button", onclick: (e) => invite(entry, e.target.closest("li")) }, "Invite")
          : null,
      ),
    );
    return item;
  });
  $("my-games").replaceChildren(...(items.length ? items : [el("li", {}, "No games yet: create or join one.")]));
}

async function refresh(wait = 0) {
  const token = playerToken();
  if (!token) return;
  const headers = etag ? { "If-None-Match": etag } : {};
  const response = await fetch(`/players/me/games?limit=100${wait ? `&wait=${wait}` : ""}`, {
    headers: { Accept: "application/json", Authorization: `Bearer ${token}`, ...headers },
  });
  if (response.status === 304) return;
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  etag = response.headers.get("ETag");
  render(await response.json());
}

async function keepFresh() {
  // A long poll: the server answers as soon as one of the games moves (or after 25 s, 304).
  const mine = Symbol("poll");
  polling = mine;
  while (polling === mine && playerToken()) {
    try {
      await refresh(25);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  }
}

async function showSignedIn() {
  const me = (await call("GET", "/players/me", { token: playerToken() })).body;
  $("player-name").textContent = me.name;
  $("signed-out").hidden = true;
  $("signed-in").hidden = false;
  etag = null;
  await refresh();
  keepFresh();
}

function showSignedOut() {
  polling = null;
  $("signed-in").hidden = true;
  $("signed-out").hidden = false;
  $("my-games").replaceChildren();
}

async function signIn(event) {
  event.preventDefault();
  const token = $("player-token").value.trim();
  if (!token) return;
  localStorage.setItem(KEY, token);
  try {
    await showSignedIn();
    say("");
  } catch (error) {
    localStorage.removeItem(KEY);
    showSignedOut();
    say(`That token is no player's (${error.code || error.status}).`);
  }
}

async function newPlayer(event) {
  event.preventDefault();
  const name = $("player-new-name").value.trim();
  if (!name) return;
  try {
    const created = (await call("POST", "/players", { body: { name } })).body;
    localStorage.setItem(KEY, created.token);
    await showSignedIn();
    say(`Your player token (keep it: it is the key to all your games): ${created.token}`);
  } catch (error) {
    say(`${error.message} (${error.code || error.status})`);
  }
}

function signOut() {
  localStorage.removeItem(KEY);
  showSignedOut();
  say("Signed out: this browser forgot your player token.");
}

/** What a link brought in the address: an invitation, a confirmation code, or a game to open. */
async function followLink() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (![...fragment.keys()].length) return;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    if (fragment.get("confirm")) {
      await call("POST", "/players/confirm", { body: { code: fragment.get("confirm") } });
      say("Your address is confirmed.");
    }
    if (fragment.get("invite") && playerToken()) {
      const taken = (await call("POST", `/invitations/${fragment.get("invite")}`, { token: playerToken(), body: {} })).body;
      openGame(taken.game_id, taken.seat);
    } else if (fragment.get("invite")) {
      say("Sign in, or create a player, then follow the invitation link again.");
    }
    if (fragment.get("unsubscribe")) {
      // From a mail's link: ask first (a link followed is not a wish; mail scanners follow them all).
      const token = fragment.get("unsubscribe");
      const stop = el("button", { type: "button", id: "unsubscribe", onclick: async () => {
        await call("POST", `/players/unsubscribe/${encodeURIComponent(token)}`);
        say("Done: no more mail from this server.");
      } }, "Stop all mail");
      $("player-message").replaceChildren("Stop every mail this server sends you? ", stop);
    }
    if (fragment.get("open") && playerToken()) {
      const [gameId, seat] = fragment.get("open").split(":");
      openGame(gameId, Number(seat));
    }
  } catch (error) {
    say(`${error.message} (${error.code || error.status})`);
  }
}

$("sign-in").addEventListener("submit", signIn);
$("new-player").addEventListener("submit", newPlayer);
$("sign-out").addEventListener("click", signOut);
// A link followed while the lobby is open changes only the fragment: no new page load.
window.addEventListener("hashchange", followLink);
if (playerToken()) {
  showSignedIn().catch(() => showSignedOut()).then(followLink);
} else {
  showSignedOut();
  followLink();
}
