// The log as a player reads it: grouped by round and turn, coloured by seat,
// the engine's own steps folded away; and "since your last move", what the
// others, the bots and the round end did while this seat waited.
//
// What marks a round, a turn or an engine step is the game's business: a
// board module may export `logMark(event, round)` ({round}, {turn: seat},
// {phase: words} or null; undefined leaves it to the guesses below),
// `engineLine(event)` (true for the engine's bookkeeping) and `dieFace(face)`
// (a die's face in words or a glyph). Without them the generic guesses below
// hold for any game whose events carry `round` and a `…TurnStarted` with its
// `seat`, which is how this server's games write them.

import { el, humanize } from "/web/api.js";

/** The service's own events no player needs to read line by line. */
const SERVICE_ENGINE = new Set(["CommandAccepted", "DecisionRequested", "DecisionMade"]);

/** Words for a die face shown as a number 0–5: the die's own glyph. */
const PIPS = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

/** Events whose words are bad news for someone: shown in red in "since your last move". */
const GRAVE = /(Killed|Died|Dies|Dead|Damage|Wound|Injur|Lost|Defeat)/;

export function seatOf(event) {
  if (event.actor && event.actor.startsWith("seat:")) return Number(event.actor.slice(5));
  const seat = event.data && event.data.seat;
  return typeof seat === "number" ? seat : null;
}

function mark(board, event, round) {
  if (board.logMark) {
    const said = board.logMark(event, round);
    if (said !== undefined) return said;
  }
  const data = event.data || {};
  if (/TurnStarted$/.test(event.type) && typeof data.seat === "number") return { turn: data.seat, round: data.round };
  if (typeof data.round === "number" && data.round !== round && /(Round|Phase)/.test(event.type)) return { round: data.round };
  return null;
}

export function isEngineLine(board, event) {
  if (board.engineLine) {
    const said = board.engineLine(event);
    if (said !== undefined && said !== null) return said;
  }
  return SERVICE_ENGINE.has(event.type) || !event.text;
}

function faces(board, event) {
  const data = event.data || {};
  const shown = Array.isArray(data.faces) ? data.faces : Array.isArray(data.dice) ? data.dice : null;
  if (!shown || !shown.length || shown.some((f) => f === null || typeof f === "object")) return null;
  const word = (face) => {
    if (board.dieFace) return board.dieFace(face);
    if (Number.isInteger(face) && face >= 0 && face < PIPS.length) return PIPS[face];
    return humanize(face);
  };
  // role=img: a span may not carry a label, a picture may; its words are the faces as the data names them.
  return el("span", { class: "dice", role: "img", "aria-label": `dice: ${shown.map((f) => (Number.isInteger(f) ? `face ${f}` : humanize(f))).join(", ")}` },
    shown.map((face) => el("span", { class: "die", "aria-hidden": "true" }, word(face))));
}

/** One event as a line of the log. */
export function line(event, words, board, extra = {}) {
  const seat = seatOf(event);
  const classes = ["entry"];
  if (seat !== null) classes.push(`by-seat-${seat % 4}`);
  if (isEngineLine(board, event)) classes.push("engine");
  if (GRAVE.test(event.type)) classes.push("grave");
  return el("li", { class: classes.join(" "), dataset: { version: event.version, type: event.type }, ...extra },
    el("span", { class: "version" }, event.version), " ", words(event), " ", faces(board, event));
}

/**
 * The log newest first, as nested lists: rounds, then turns, then events.
 * `events` ascending by version; events after `limit` are kept but hidden
 * (the timeline looks at the past). `seatName(seat)` names a seat.
 */
export function groupedLog(events, { board, words, seatName, limit }) {
  const rounds = [];
  let round = { round: null, turns: [] };
  let turn = { seat: null, entries: [] };
  round.turns.push(turn);
  rounds.push(round);
  for (const event of events) {
    const marked = mark(board, event, round.round);
    if (marked && marked.round !== undefined && marked.round !== null && marked.round !== round.round) {
      round = { round: marked.round, turns: [] };
      turn = { seat: null, entries: [] };
      round.turns.push(turn);
      rounds.push(round);
    }
    if (marked && marked.turn !== undefined && marked.turn !== null) {
      turn = { seat: marked.turn, entries: [] };
      round.turns.push(turn);
    } else if (marked && marked.phase) {
      turn = { seat: null, phase: marked.phase, entries: [] };
      round.turns.push(turn);
    }
    turn.entries.push(event);
  }
  const drawn = [];
  for (const r of rounds.reverse()) {
    const turns = r.turns.filter((t) => t.entries.length).reverse();
    if (!turns.length) continue;
    const heading = r.round === null ? "Before the first round" : `Round ${r.round}`;
    const allHidden = turns.every((t) => t.entries.every((e) => e.version > limit));
    drawn.push(el("li", { class: "round", hidden: allHidden },
      el("h3", { class: "round-title" }, heading),
      el("ol", {}, turns.map((t) => {
        const title = t.phase || (t.seat === null ? (r.round === null ? "Setting up" : "The table") : `Turn: ${seatName(t.seat)}`);
        const entries = [...t.entries].reverse();
        return el("li", { class: `turn${t.seat === null ? "" : ` by-seat-${t.seat % 4}`}`, hidden: entries.every((e) => e.version > limit) },
          el("h4", { class: "turn-title" }, title),
          el("ol", {}, entries.map((e) => line(e, words, board, { hidden: e.version > limit }))));
      })),
    ));
  }
  return drawn;
}

/**
 * What happened since `seat` last acted: every event after its last one
 * that the others, the bots or the table did, less the engine's steps.
 * Empty when the seat's own move is the newest thing in the log.
 */
export function sinceLastMove(events, seat) {
  let last = -1;
  for (let i = events.length - 1; i >= 0; i -= 1) {
    if (events[i].actor === `seat:${seat}`) {
      last = i;
      break;
    }
  }
  return { found: last >= 0, events: events.slice(last + 1) };
}

export function sincePanel(events, { board, words }) {
  const shown = events.filter((e) => !isEngineLine(board, e));
  if (!shown.length) return [];
  const grave = shown.filter((e) => GRAVE.test(e.type)).length;
  return [
    el("h3", {}, `Since your last move (${shown.length} thing${shown.length > 1 ? "s" : ""} happened${grave ? `, ${grave} that hurt` : ""})`),
    el("ol", { class: "since-list", tabindex: 0, "aria-label": "Since your last move" }, shown.slice(-60).reverse().map((e) => line(e, words, board))),
  ];
}

/**
 * The service's events that open a batch (a move, a seat's change, a
 * proposal…): a version just before one is a resting point, where a rewind
 * may go (docs/api.md, "Rewind and fork"). The service's own list
 * (service/usecases/record.py, BATCH_OPENERS); a game's events never open one.
 */
const OPENERS = new Set([
  "GameCreated", "SeatJoined", "ContributionGiven", "SeatLeft", "SeatHandedToBot", "GameStarted",
  "CommandAccepted", "ProposalMade", "ProposalAccepted", "ProposalDeclined", "TurnTimedOut", "VacationTaken",
  "RulesUpgraded", "MoveUndone",
]);

/** The newest resting point at or before `version` that the loaded `events` (ascending) show, else null. */
export function restingPoint(events, version, startedAt = 1) {
  const byVersion = new Map(events.map((e) => [e.version, e]));
  for (let v = version; v >= startedAt; v -= 1) {
    const next = byVersion.get(v + 1);
    if (!next) return null; // older than the log loaded: not known here
    if (OPENERS.has(next.type) && byVersion.get(v)?.type !== "SeedRevealed") return v;
  }
  return null;
}

/** Where `version` stands, in words: "round 2, Obadiah Lowe's turn"; null for a game without rounds. */
export function placeOf(events, version, { board, seatName }) {
  let round = null;
  let turn = null;
  for (const event of events) {
    if (event.version > version) break;
    const marked = mark(board, event, round);
    if (marked && marked.round !== undefined && marked.round !== null && marked.round !== round) {
      round = marked.round;
      turn = null;
    }
    if (marked && marked.turn !== undefined && marked.turn !== null) turn = `${seatName(marked.turn)}'s turn`;
    else if (marked && marked.phase) turn = marked.phase.toLowerCase();
  }
  if (round === null && turn === null) return null; // a game without rounds or turns in its log
  return [round === null ? "before the first round" : `round ${round}`, turn].filter(Boolean).join(", ");
}

/** What going back to `version` takes back: the moves after it, by whom. */
export function movesAfter(events, version, names) {
  const moves = events.filter((e) => e.version > version && e.type === "CommandAccepted");
  const who = [...new Set(moves.map((e) => {
    const seat = e.data?.seat;
    return typeof seat === "number" ? names[seat] ?? `seat ${seat}` : "the table";
  }))];
  return { count: moves.length, who };
}
