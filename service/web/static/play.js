// The table: one game, as one seat (or a spectator) sees it.
//
// Built only on the public REST API (docs/api.md), in the order a client
// needs it:
//   GET  /games/{id}                 who sits where, which game (→ its board module)
//   GET  /games/{id}/events          the log so far, page by page
//   GET  /games/{id}/state[?at=N]    the caller's view, now or at version N
//   GET  /games/{id}/actions         what the caller's seat may post now
//   POST /games/{id}/actions         one of them, with If-Match and Idempotency-Key
//   GET  /games/{id}/stream          everything after, live (Server-Sent Events)
//   GET  /games/{id}/audit           once it is over: is the log fair?
//   POST /games/{id}/proposals       rewind to, or fork at, the version the timeline holds
//   POST /games/{id}/proposals/{p}/accept|decline   another seat's proposal
// and, before the start, the lobby's own: join, start, hand a seat to a bot.
//
// Words: an event may carry `text` and a state or an actions answer a
// `prompt` (the pending decision in words). Servers that do not send them
// yet get the event's type and the board's own description instead.

import { ApiError, call, el, follow, humanize, idempotencyKey, seatTokenFromAddress, tokenFor } from "/web/api.js";
import { groupedLog, sinceLastMove, sincePanel } from "/web/log.js";
import { auditPanel } from "/web/audit-panel.js";
import { BoardFrame } from "/web/board-frame.js";
import { askFirst } from "/web/confirm.js";
import { lobbyControls } from "/web/lobby-controls.js";
import { facesPanel, handItem } from "/web/faces.js";
import { LogPages } from "/web/log-pages.js";
import { proposalPanel } from "/web/proposal-panel.js";
import { TurnAlert } from "/web/turn-alert.js";

const gameId = document.body.dataset.gameId;
const token = seatTokenFromAddress(gameId);
const creatorToken = tokenFor("creator", gameId);
const $ = (id) => document.getElementById(id);

const table = {
  summary: null, // GET /games/{id}
  board: null, // the game's board module (/web/boards/<game>.js)
  live: null, // the latest GET /state answer
  shown: null, // the state on the board: `live`, or one at an earlier version
  at: null, // the version the timeline holds; null follows the game live
  previousAt: null, // where the timeline was before, for "the events between"
  actions: [], // GET /actions: what this seat may post now
  actionsVersion: null, // the version those actions were listed at (If-Match)
  undo: null, // {to_version, text} when this seat may take back its last move (POST /undo)
  prompt: null, // the pending decision in words, when the API gives it
  streamStatus: "connecting",
  unfollow: null, // stops following the stream
  sliding: null, // the version the slider was moved to, until it is shown
  audit: null, // GET /audit, once the game is over
  posting: false,
  keepFocus: false, // the player acts from the keyboard: after a redraw, focus goes back to the decision
};

const log = new LogPages(gameId, token);
const frame = new BoardFrame($("board"), $("zoom"), $("legend"));
const alert = new TurnAlert();

// -- loading -----------------------------------------------------------------

async function start() {
  try {
    table.summary = (await call("GET", `/games/${gameId}`, { token })).body;
  } catch (error) {
    $("headline").textContent = error instanceof ApiError ? error.message : "The server does not answer.";
    return;
  }
  table.board = await loadBoard(table.summary.game);
  // Wired before anything is drawn: a reader may reach for the timeline as soon as it shows.
  wireTimeline();
  wireLog();
  await refresh();
  if (log.oldest === null) await log.loadLatest(table.live.version);
  // "Since your last move" reaches back to this seat's last move: a few pages at most.
  for (let more = 0; more < 3 && table.live.seat !== null && !log.complete && !sinceLastMove(log.logged(), table.live.seat).found; more += 1) {
    await log.earlier();
  }
  renderLog();
  renderSince();
  $("turn-alert").replaceChildren(...alert.controls());
  if (table.live.over) return; // nothing more will happen: no stream to hold open
  const after = table.live.version;
  table.unfollow = follow(gameId, {
    token,
    after,
    onMessage: received,
    onStatus: (status) => {
      table.streamStatus = status;
      renderHeadline();
    },
  });
}

async function loadBoard(game) {
  try {
    return await import(`/web/boards/${encodeURIComponent(game)}.js`);
  } catch (error) {
    console.warn("no board for this game; showing the plain one", error);
    return import("/web/plain-board.js");
  }
}

/** The log loads older pages when its end scrolls into view, or on its button. */
function wireLog() {
  const more = $("log-earlier");
  const earlier = async () => {
    await log.earlier();
    renderLog();
  };
  more.addEventListener("click", () => earlier().catch(showError));
  if ("IntersectionObserver" in window) {
    new IntersectionObserver((seen) => {
      if (seen.some((s) => s.isIntersecting)) earlier().catch(showError);
    }, { root: $("log-scroll") }).observe(more);
  }
  $("show-engine").addEventListener("change", (e) => $("log").classList.toggle("engine-shown", e.target.checked));
}

// One refresh at a time: the stream, a click and the lobby may each ask for
// one; those asked for meanwhile are folded into one more after it.
let refreshing = null;
let refreshAgain = false;
function refresh() {
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  refreshing = (async () => {
    try {
      do {
        refreshAgain = false;
        await fetchState();
      } while (refreshAgain);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** The state now, and what this seat may do now (only a seat the game waits on may act). */
async function fetchState() {
  const state = await call("GET", `/games/${gameId}/state`, { token });
  let actions = [];
  let undo = null;
  let prompt = state.body.prompt ?? null;
  const mine = state.body.seat;
  // Asked even when the game waits on another seat: some commands may be sent out of turn.
  if (mine !== null && mine !== undefined && state.body.status === "running") {
    const listed = (await call("GET", `/games/${gameId}/actions`, { token })).body;
    actions = listed.actions;
    table.actionsVersion = listed.version;
    prompt = listed.prompt ?? prompt;
    undo = listed.undo ?? null;
  }
  table.live = state.body;
  table.summary.status = state.body.status;
  table.actions = actions;
  table.undo = undo;
  table.prompt = prompt;
  if (state.body.over && !table.audit) {
    table.audit = (await call("GET", `/games/${gameId}/audit`, { token })).body;
    // Once it is over everything may be shown: read the log again, unredacted.
    if (log.oldest !== null) await log.loadLatest(state.body.version);
  }
  if (state.body.over && table.unfollow) {
    table.unfollow(); // the game has ended: its last events are in, the stream may close
    table.unfollow = null;
  }
  if (table.at === null) table.shown = table.live;
  log.newest = Math.max(log.newest, state.body.version);
  render();
  alert.update(state.body.seat !== null && !state.body.over && state.body.waiting_for.includes(state.body.seat));
}

// The log is drawn once per frame however many events a frame brings, and with it the panels that read it
// (what happened since this seat's move; the proposal's, which links a fork): an event that the page's own
// answer already counted brings no refresh (refreshSoon), so they must not wait for one.
let logFrame = null;
function logSoon() {
  if (logFrame === null) {
    logFrame = requestAnimationFrame(() => {
      logFrame = null;
      renderLog();
      if (table.live) {
        renderSince();
        renderProposal();
      }
    });
  }
}

// Many events arrive at once (a round end is dozens): refresh once after them,
// and not at all when the page has fetched the state since (a move of its own
// brings its events back twice: in the answer, then over the stream).
let refreshTimer = null;
function refreshSoon(force = false) {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(async () => {
    if (refreshing) await refreshing.catch(() => {});
    if (!force && table.live && log.newest <= table.live.version) return;
    refresh().catch(showError);
  }, 80);
}

/** A message from the stream: the state when it (re)connects, then each event. */
function received(kind, data) {
  if (kind === "state") {
    // A (re)connection: anything may have happened while the stream was away.
    if (!table.live || data.version !== table.live.version) refreshSoon(true);
  } else if (kind === "event") {
    log.keep(data);
    // Play goes on from the version the game went back to: whoever looked at the past follows it live.
    if (data.type === "GameRewound") table.at = null;
    $("announce").textContent = eventWords(data);
    logSoon();
    refreshSoon();
  }
}

// -- acting ------------------------------------------------------------------

/** An action chosen: asked about first when it cannot be taken back (the board says which), then posted. */
async function decide(action) {
  const question = table.board.confirmAction ? table.board.confirmAction(action, table.live.view, context()) : null;
  if (question && !(await askFirst($("confirm"), question, describe(action)))) {
    focusFirstAction();
    return;
  }
  await post(action);
}

/** Take back this seat's last move (docs/api.md, "Undo"), decided on the version the offer was listed at. */
function undo() {
  return posting("the undo", async () => {
    await call("POST", `/games/${gameId}/undo`, { token, headers: { "If-Match": `"${table.actionsVersion}"` } });
    say("Your last move is taken back.");
  });
}

/** Post one listed action, decided on the version it was listed at. */
function post(action) {
  return posting("your move", async () => {
    const answer = await call("POST", `/games/${gameId}/actions`, {
      token,
      body: action,
      headers: { "If-Match": `"${table.actionsVersion}"`, "Idempotency-Key": idempotencyKey() },
    });
    for (const event of answer.body.events) log.keep(event);
    say("");
    return answer.body.version;
  });
}

/** One write of this seat at a time, then the game as it is now, and focus on its next decision.
 * ``write`` answers the version it brought the game to, when its answer says. */
async function posting(what, write) {
  if (table.posting) return;
  table.posting = true;
  table.keepFocus = true;
  renderActions();
  let reached = null;
  try {
    reached = (await write()) ?? null;
  } catch (error) {
    // 412: someone (a bot, the round end) moved the game on since the
    // actions were listed. Nothing was done: show the new state, decide again.
    if (error instanceof ApiError && error.status === 412) say(`The game moved on before ${what}; here it is now.`);
    else showError(error);
  } finally {
    table.posting = false;
  }
  // The stream may bring the write's events before its answer, and the page then fetches the state they
  // left while the post is still out: fetching that version again would cost a second refresh for one move.
  if (refreshing) await refreshing.catch(() => {});
  if (reached === null || !table.live || table.live.version < reached) await refresh();
  else render();
  focusFirstAction();
}

async function lobbyCall(method, path, body, key) {
  try {
    const answer = await call(method, path, {
      token: key,
      body,
      headers: method === "POST" && body ? { "Idempotency-Key": idempotencyKey() } : {},
    });
    return answer.body;
  } catch (error) {
    showError(error);
    return null;
  } finally {
    table.summary = (await call("GET", `/games/${gameId}`, { token })).body;
    await refresh();
  }
}

// -- the timeline --------------------------------------------------------------

function wireTimeline() {
  const slider = $("timeline");
  let timer = null;
  slider.addEventListener("input", () => {
    // Held until shown, so a refresh meanwhile (the stream, an earlier version's answer) does not move the
    // slider back; and the version asked for is this input's own, whatever the table holds when it fires.
    const wanted = Number(slider.value);
    table.sliding = wanted;
    $("timeline-value").textContent = slider.value;
    clearTimeout(timer);
    timer = setTimeout(() => showVersion(wanted).catch(showError), 120);
  });
  $("live").addEventListener("click", () => showVersion(null).catch(showError));
}

/** The latest call of showVersion: an earlier one whose answer comes later is dropped. */
let showing = 0;

/** Show the game right after version `version` (null: follow it live again). */
async function showVersion(version) {
  if (!table.live) return; // not loaded yet: the slider shows nothing to go back to
  const ticket = ++showing;
  const from = table.at ?? table.live.version;
  if (version === null || version >= table.live.version) {
    table.at = null;
    table.shown = table.live;
  } else {
    const past = (await call("GET", `/games/${gameId}/state?at=${version}`, { token })).body;
    // On a slow line the reader may have moved the slider on meanwhile, and answers can cross.
    if (ticket !== showing) return;
    table.shown = past;
    table.at = version;
  }
  table.previousAt = from;
  // The slider is let go only if it still rests here: the reader may have moved it on while this was asked.
  if (version === null || table.sliding === version) table.sliding = null;
  render();
}

// -- rewinding and forking (docs/api.md, "Rewind and fork") ---------------------

/** Propose to go back to `version`, or to start a new game from it; every other player must agree. */
async function propose(kind, version) {
  await proposalCall(`/games/${gameId}/proposals`, { kind, to_version: version }, version);
}

async function answerProposal(proposal, answer) {
  await proposalCall(`/games/${gameId}/proposals/${proposal.id}/${answer}`, undefined, proposal.to_version);
}

async function proposalCall(path, body, version) {
  try {
    const outcome = (await call("POST", path, { token, body })).body;
    if (outcome.outcome === "rewound") {
      say(`The game went back to version ${version}.`);
      table.at = null; // play goes on from there: follow it live
    } else if (outcome.outcome === "declined") {
      say("The proposal was dropped.");
    }
  } catch (error) {
    showError(error);
  }
  await refresh();
}

function renderProposal() {
  const ctx = context();
  $("proposal").replaceChildren(...proposalPanel({
    live: table.live, at: table.at, seat: ctx.seat, names: ctx.names, events: log.logged(), board: table.board,
    seatName: (seat) => ctx.names[seat], token,
    propose: async (kind, version, question) => {
      if (await askFirst($("confirm"), question, kind === "rewind" ? "propose going back" : "propose a new game")) {
        await propose(kind, version);
      }
    },
    answer: answerProposal,
  }));
}

// -- drawing -------------------------------------------------------------------

function context() {
  const names = (table.live?.seats || table.summary.seats).map((s) => s.name || (s.bot ? `bot (${s.bot})` : `seat ${s.seat}`));
  // A board may let the player act on it (click a space to step there): the
  // same actions as the buttons, and the same way of posting them.
  const live = table.at === null && !table.posting;
  return { seat: table.live?.seat ?? null, names, version: table.shown?.version, actions: live ? table.actions : [], act: decide };
}

function render() {
  renderHeadline();
  renderBoard();
  renderSeats();
  renderDecision();
  renderLog();
  renderSince();
  renderTimeline();
  renderProposal();
  renderVerdict();
}

function renderHeadline() {
  const live = table.live;
  if (!live) return;
  const ctx = context();
  const who = ctx.seat === null ? "watching" : `you are seat ${ctx.seat} (${ctx.names[ctx.seat]})`;
  const stream = live.over ? "" : ` · ${table.streamStatus}`;
  $("headline").textContent = `${humanize(live.game)} · ${live.status} · version ${live.version} · ${who}${stream}`;
  // A tab in the background tells a play-by-post player it is their turn.
  const asked = ctx.seat !== null && !live.over && live.waiting_for.includes(ctx.seat);
  document.title = `${asked ? "(your turn) " : ""}Holotape — ${humanize(live.game)}, version ${live.version}`;
  $("decision-title").textContent = ctx.seat === null ? "The game" : "Your decision";
  const banner = $("turn-banner");
  banner.textContent = turnWords(live, ctx, asked);
  banner.className = `turn-banner${asked ? " yours" : ""}`;
  document.body.dataset.version = live.version;
  document.body.dataset.status = live.status;
  document.body.dataset.seat = ctx.seat ?? "";
  document.body.dataset.waiting = live.waiting_for.join(",");
}

/** Whose turn it is, in words: "Your turn", "Waiting for seat 1 (Obadiah)". */
function turnWords(live, ctx, asked) {
  if (live.status === "lobby") return "The game has not started yet.";
  if (live.over) return "The game is over.";
  if (asked) return "Your turn";
  const others = live.waiting_for.filter((s) => s !== ctx.seat);
  if (!others.length) return "The table is moving on (a round end)…";
  return `Waiting for ${others.map((s) => seatLabel(s)).join(", ")}`;
}

/** "seat 1 (Obadiah, greedy bot)": the seat's number, and what its player and character are called. */
function seatLabel(seat) {
  const described = table.board.seats ? table.board.seats(table.live.view || {}, context()) : [];
  const title = described.find((d) => d.seat === seat)?.title;
  const entry = (table.live.seats || [])[seat] || {};
  const player = entry.name || (entry.bot ? `${entry.bot} bot` : null);
  const words = [title && !/^no /.test(title) ? title : null, player].filter(Boolean);
  return `seat ${seat}${words.length ? ` (${words.join(", ")})` : ""}`;
}

function renderBoard() {
  const view = table.shown.view;
  const drawn = table.board.draw(view, context());
  frame.show(drawn, table.board, view);
  $("board").dataset.version = table.shown.version;
  // How long a page takes to show its board (the browser tests hold it under a second, whatever the log's length).
  if (!performance.getEntriesByName("board-drawn").length) performance.mark("board-drawn");
}

function renderSeats() {
  const ctx = context();
  const described = table.board.seats ? table.board.seats(table.shown.view, ctx) : [];
  const bySeat = new Map(described.map((d) => [d.seat, d]));
  const waiting = new Set(table.shown.waiting_for || []);
  const cards = (table.shown.seats || []).map((seat) => {
    const d = bySeat.get(seat.seat) || { rows: [], hand: [] };
    const name = ctx.names[seat.seat];
    return el(
      "article",
      { class: `seat seat-${seat.seat}${waiting.has(seat.seat) ? " waiting" : ""}`, dataset: { seat: seat.seat } },
      el("h3", {}, `${name}${d.title ? ` — ${d.title}` : ""}`, seat.seat === ctx.seat ? " (you)" : "",
        waiting.has(seat.seat) ? el("span", { class: "badge" }, "to play") : null),
      d.rows.length ? el("dl", {}, d.rows.flatMap(([label, value]) => [el("dt", {}, label), el("dd", {}, value)])) : null,
      d.hand && d.hand.length ? el("ul", { class: "hand" }, d.hand.map((card) => el("li", {}, handItem(card, table.shown.view?.faces)))) : null,
    );
  });
  $("seats").replaceChildren(...cards);
  const faces = facesPanel(table.shown.view?.faces);
  $("faces").replaceChildren(...faces);
  $("faces-area").hidden = !faces.length;
}

function renderDecision() {
  const live = table.live;
  const ctx = context();
  const lobby = { seats: live.seats || [], gameId, token, creatorToken, lobbyCall };
  $("lobby-controls").replaceChildren(...(live.status === "lobby" ? lobbyControls(lobby) : []));
  if (table.at !== null) {
    $("prompt").textContent = `You are looking at version ${table.at}. Go back to live to play.`;
    $("actions").replaceChildren();
    return;
  }
  let prompt = live.status === "lobby" ? "The game has not started yet." : table.prompt;
  if (!prompt && table.board.describePending) prompt = table.board.describePending(live.view, ctx);
  if (!prompt) {
    if (live.over) prompt = "The game is over.";
    else if (live.waiting_for.includes(ctx.seat)) prompt = "Your turn: choose below.";
    else if (live.waiting_for.length) prompt = `Waiting for ${live.waiting_for.map((s) => ctx.names[s]).join(", ")}.`;
    else prompt = "The table is moving on (a round end)…";
  }
  $("prompt").textContent = prompt;
  renderActions();
}

function renderActions() {
  const view = table.live.view;
  const hadFocus = $("actions").contains(document.activeElement);
  // The same button keeps the focus across a redraw (the stream redraws often), else the first.
  const focused = hadFocus ? document.activeElement.id || document.activeElement.dataset.index : null;
  const buttons = table.actions.map((action, i) =>
    el("button", {
      type: "button",
      class: "action",
      dataset: { type: action.type, index: i },
      disabled: table.posting,
      onclick: () => decide(action),
    }, describe(action, view)),
  );
  if (table.undo && table.at === null) {
    buttons.push(el("button", { type: "button", id: "undo", class: "undo", disabled: table.posting, onclick: undo }, table.undo.text));
  }
  $("actions").replaceChildren(...buttons);
  const same = focused === null ? null : buttons.find((b) => (b.id || b.dataset.index) === focused);
  if (same && !same.disabled) same.focus();
  else if (hadFocus || table.keepFocus) focusFirstAction();
}

/** An action's words: the server's `text`, else the board's, else its type. */
function describe(action, view = table.live.view) {
  return action.text || (table.board.describeAction ? table.board.describeAction(action, view) : humanize(action.type));
}

function focusFirstAction() {
  // A keyboard player keeps their place: after a move (and every redraw the
  // stream brings after it), the next choice has focus.
  const active = document.activeElement;
  if (active === document.body || !active?.isConnected || $("actions").contains(active)) {
    const first = $("actions").querySelector("button:not([disabled])");
    if (first) first.focus();
  }
}


/** The text of an event as this seat may read it: the server's words, else its type. */
function eventWords(event) {
  if (event.text) return event.text;
  const actor = event.actor && event.actor.startsWith("seat:") ? `${context().names[Number(event.actor.slice(5))]}: ` : "";
  return `${actor}${humanize(event.type)}`;
}

function renderLog() {
  if (!table.live) return;
  const limit = table.at ?? Infinity;
  const names = context().names;
  const seatName = (seat) => {
    const described = table.board.seats ? table.board.seats(table.shown.view || {}, context()) : [];
    const title = described.find((d) => d.seat === seat)?.title;
    return title && !/^no /.test(title) ? title : names[seat] ?? `Seat ${seat}`;
  };
  $("log").replaceChildren(...groupedLog(log.logged(), { board: table.board, words: eventWords, seatName, limit }));
  const more = $("log-earlier");
  more.hidden = log.oldest === null || log.complete;
  more.textContent = `Earlier events (before version ${log.oldest})`;
}

/** What the others, the bots and the round end did since this seat last moved. */
function renderSince() {
  const seat = table.live?.seat;
  if (seat === null || seat === undefined || table.at !== null) {
    $("since").replaceChildren();
    return;
  }
  const { events } = sinceLastMove(log.logged(), seat);
  const others = events.filter((e) => e.actor !== `seat:${seat}`);
  $("since").replaceChildren(...sincePanel(others, { board: table.board, words: eventWords }));
}

function renderTimeline() {
  const slider = $("timeline");
  slider.max = table.live.version;
  slider.value = table.sliding ?? table.at ?? table.live.version;
  $("timeline-value").textContent = `${slider.value} of ${table.live.version}`;
  $("live").disabled = table.at === null;
  document.body.dataset.shown = table.shown.version;
  // The events between the version shown before and the one shown now.
  const between = $("between");
  if (table.previousAt === null || table.previousAt === table.shown.version) {
    between.replaceChildren();
    return;
  }
  const low = Math.min(table.previousAt, table.shown.version);
  const high = Math.max(table.previousAt, table.shown.version);
  const shown = [];
  for (let v = low + 1; v <= high; v += 1) {
    const event = log.events.get(v);
    if (event) shown.push(el("li", { dataset: { version: v } }, el("span", { class: "version" }, v), " ", eventWords(event)));
  }
  between.replaceChildren(
    el("p", {}, `Between versions ${low} and ${high}:`),
    el("ol", { tabindex: 0, "aria-label": `Events between versions ${low} and ${high}` }, shown.slice(0, 200)),
  );
}

function renderVerdict() {
  const live = table.live;
  $("verdict").replaceChildren(...(live.over && table.audit ? auditPanel(live, table.audit) : []));
}

// -- messages ------------------------------------------------------------------

function say(text) {
  $("message").textContent = text;
}

function showError(error) {
  console.error(error);
  say(error instanceof ApiError ? `${error.message} (${error.code || error.status})` : String(error.message || error));
}

// Focus the player moves elsewhere (the log, the timeline) stays there.
document.addEventListener("focusin", (event) => {
  if (!$("actions").contains(event.target)) table.keepFocus = false;
});

start().catch(showError);
