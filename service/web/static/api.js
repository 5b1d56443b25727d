// A small client of Holotape's REST API, used by the lobby and the table.
//
// Everything a page does goes through here: fetch() with the caller's token
// as "Authorization: Bearer …", answers parsed as JSON, errors turned into
// ApiError carrying the problem+json body (its `code` is stable: switch on
// it, never on the text). docs/api.md tells the whole story.

/** An answer outside 2xx: `status`, and `problem` (RFC 9457) with its `code`. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem && problem.detail ? problem.detail : `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
    this.code = this.problem.code;
  }
}

/**
 * Call the API. `token` (optional) is sent as a bearer token; `body` as JSON;
 * `headers` are added (If-Match, Idempotency-Key). Answers `{body, etag}`.
 */
export async function call(method, path, { token, body, headers } = {}) {
  const sent = { Accept: "application/json", ...(headers || {}), ...actingSeat(token) };
  if (token) sent.Authorization = `Bearer ${token}`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers: sent,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, parsed);
  return { body: parsed, etag: response.headers.get("ETag") };
}

/** A fresh Idempotency-Key, so a retried POST acts once (docs/api.md, "Playing"). */
export function idempotencyKey() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  // Pages served over plain HTTP from another host have no randomUUID.
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// -- tokens ----------------------------------------------------------------

// A player token (it holds a dot) acts for the seat the address names, /play/<id>#seat=<n>
// (docs/players.md): kept for this page, so a reload still acts as that seat.
const ACTING_SEAT = (() => {
  const key = `holotape.acting-seat.${location.pathname}`;
  const given = new URLSearchParams(location.hash.slice(1)).get("seat");
  if (given !== null) sessionStorage.setItem(key, given);
  return sessionStorage.getItem(key);
})();

function actingSeat(token) {
  return token && token.includes(".") && ACTING_SEAT !== null ? { "Holotape-Seat": ACTING_SEAT } : {};
}
//
// A token is shown once, by the API, to whoever created or joined. The pages
// keep it in this browser's localStorage, so every tab (and the lobby's "My
// seats") finds the player's games again, until the player forgets them
// there; it is never sent anywhere but the API's Authorization header. The
// table takes it from the address the lobby opens: /play/<id>#token=… (a
// fragment never reaches the server's logs) or ?token=…, which is then
// removed from the address bar.

const PREFIX = "holotape.";
const KEY = (kind, gameId) => `${PREFIX}${kind}.${gameId}`;

export function keepToken(kind, gameId, token) {
  localStorage.setItem(KEY(kind, gameId), token);
}

export function tokenFor(kind, gameId) {
  // sessionStorage: where pages before this one kept them, for a tab still open across the upgrade.
  return localStorage.getItem(KEY(kind, gameId)) ?? sessionStorage.getItem(KEY(kind, gameId));
}

/** The games this browser holds a token for: [{gameId, seat: token|null, creator: token|null}]. */
export function keptGames() {
  const found = new Map();
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    const match = /^holotape\.(seat|creator)\.([0-9a-f]+)$/.exec(key || "");
    if (!match) continue;
    const [, kind, gameId] = match;
    if (!found.has(gameId)) found.set(gameId, { gameId, seat: null, creator: null });
    found.get(gameId)[kind] = localStorage.getItem(key);
  }
  return [...found.values()];
}

/** Forget this browser's tokens for a game: its seat is no longer found from here (the seat itself stays). */
export function forgetGame(gameId) {
  for (const kind of ["seat", "creator"]) {
    localStorage.removeItem(KEY(kind, gameId));
    sessionStorage.removeItem(KEY(kind, gameId));
  }
}

/** The seat token given in the address (kept, then removed from it), else the one kept. */
export function seatTokenFromAddress(gameId) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const given = fragment.get("token") || query.get("token");
  if (given) {
    keepToken("seat", gameId, given);
    query.delete("token");
    const rest = query.toString();
    history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : ""));
  }
  return tokenFor("seat", gameId);
}

// -- following a game live ---------------------------------------------------

/**
 * Follow GET /games/{id}/stream (Server-Sent Events) and call
 * `onMessage(kind, data)` for each message: kind "state" (the caller's view
 * now) or "event" (one event, `data.version` its id).
 *
 * EventSource cannot send an Authorization header, so this reads the stream
 * with fetch() and parses it by hand (it is a few lines: messages end with a
 * blank line, fields are "name: value"). The server ends a stream now and
 * then; we reconnect with Last-Event-ID set to the last event we got, and the
 * server goes on from there without a gap. Call the returned function to stop.
 */
export function follow(gameId, { token, after, onMessage, onStatus }) {
  let lastId = after;
  let stopped = false;
  let controller = null;
  let retryMs = 1000;

  async function once() {
    controller = new AbortController();
    const headers = { Accept: "text/event-stream", ...actingSeat(token) };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (lastId !== undefined && lastId !== null) headers["Last-Event-ID"] = String(lastId);
    const response = await fetch(`/games/${gameId}/stream`, { headers, signal: controller.signal });
    if (!response.ok) {
      // 429/503 say when to come back; any other refusal is not worth retrying soon.
      const wait = Number(response.headers.get("Retry-After") || 5);
      throw Object.assign(new Error(`stream: HTTP ${response.status}`), { waitMs: wait * 1000 });
    }
    if (onStatus) onStatus("live");
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        dispatch(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
  }

  function dispatch(block) {
    let kind = "message";
    let id = null;
    const data = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue; // a comment: keep-alive or closing
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") kind = value;
      else if (field === "data") data.push(value);
      else if (field === "id") id = value;
      else if (field === "retry") retryMs = Number(value) || retryMs;
    }
    if (!data.length) return;
    if (id !== null) lastId = Number(id);
    onMessage(kind, JSON.parse(data.join("\n")));
  }

  (async () => {
    while (!stopped) {
      let wait = retryMs;
      try {
        await once();
      } catch (error) {
        if (stopped) return;
        wait = error.waitMs || retryMs;
      }
      if (onStatus && !stopped) onStatus("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();

  return () => {
    stopped = true;
    if (controller) controller.abort();
  };
}

// -- words -------------------------------------------------------------------

/** "tollbridge.toll_gate" → "Tollbridge · Toll Gate": an id as a reader may say it. */
export function humanize(id) {
  if (id === null || id === undefined) return "";
  return String(id)
    .replace(/#\d+$/, "") // a copy's number: "lucky_bolt#2" is a Lucky Bolt
    .split(".")
    .map((part) => part.replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase()))
    .join(" · ");
}

/** Create an element: el("li", {class: "x", dataset: {v: 1}}, "text", child…). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "dataset") Object.assign(node.dataset, value);
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}
