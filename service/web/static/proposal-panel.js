// Rewind and fork on the table (docs/api.md, "Rewind and fork"): the open
// proposal with who agreed, "Agree", "Decline" or "Withdraw"; and, for a seat
// looking at the past on the timeline, proposing to go back there or to fork
// there. Only resting points (the end of a move) are offered, named by round
// and turn, each saying what it takes back; the nearest one at or before the
// version the timeline holds when it holds one in the middle of a move.

import { el, keepToken } from "/web/api.js";
import { movesAfter, placeOf, restingPoint } from "/web/log.js";

/**
 * The panel's nodes. `t`: {live, at, seat, names, events (ascending), board, seatName, token,
 * propose(kind, version, question), answer(proposal, "accept"|"decline")}.
 */
export function proposalPanel(t) {
  const { live, names, seat } = t;
  const parts = [];
  const open = live.proposal;
  const where = (version) => {
    const place = placeOf(t.events, version, t);
    return `version ${version}${place ? ` (${place})` : ""}`;
  };
  if (open) {
    const what = open.kind === "rewind" ? `go back to ${where(open.to_version)}` : `start a new game from ${where(open.to_version)}`;
    const agreed = open.accepted.map((s) => names[s]).join(", ");
    parts.push(el("p", { id: "proposal-text" }, `${names[open.by]} proposes to ${what} (agreed: ${agreed}).`));
    if (seat !== null && !open.accepted.includes(seat)) {
      parts.push(el("button", { type: "button", id: "accept-proposal", onclick: () => t.answer(open, "accept") }, "Agree"));
    }
    if (seat !== null) {
      const label = open.by === seat ? "Withdraw" : "Decline";
      parts.push(el("button", { type: "button", id: "decline-proposal", onclick: () => t.answer(open, "decline") }, label));
    }
  } else if (seat !== null && t.at !== null && live.status !== "lobby") {
    const rest = restingPoint(t.events, t.at);
    if (rest === null) {
      parts.push(el("p", { class: "hint" }, `Version ${t.at} is not where a move ends; move the timeline to one that is.`));
    } else {
      if (rest !== t.at) parts.push(el("p", { class: "hint" }, `Version ${t.at} is in the middle of a move; the move before ends at version ${rest}.`));
      const { count, who } = movesAfter(t.events, rest, names);
      const undoes = count ? `It takes back ${count} move${count > 1 ? "s" : ""} (by ${who.join(", ")}).` : "";
      const others = (live.seats || []).filter((s) => s.kind === "human" && s.seat !== seat).length;
      const agreement = others ? "Every other player must agree." : "Nobody else is asked: it happens at once.";
      if (!live.over) {
        parts.push(el("button", {
          type: "button", id: "propose-rewind",
          onclick: () => t.propose("rewind", rest, `Go back to ${where(rest)}? ${undoes} ${agreement}`),
        }, `Propose going back to ${where(rest)}`));
      }
      parts.push(el("button", {
        type: "button", id: "propose-fork",
        onclick: () => t.propose("fork", rest, `Start a new game from ${where(rest)}? ${live.over ? "" : agreement}`),
      }, `Propose a new game from ${where(rest)}`));
      if (undoes && !live.over) parts.push(el("p", { class: "hint" }, undoes));
    }
  }
  const fork = newestFork(t.events);
  if (fork) {
    // A fork keeps the seats and their tokens: this seat's goes with it to the new game's page.
    const keep = () => t.token && keepToken("seat", fork.fork_game_id, t.token);
    parts.push(el("p", {}, `A new game from version ${fork.at_version}: `,
      el("a", { href: `/play/${fork.fork_game_id}`, id: "fork-link", onclick: keep }, fork.fork_game_id)));
  }
  return parts;
}

/** The newest fork of this game in the loaded log, if any (GameForked's data). */
function newestFork(events) {
  for (let i = events.length - 1; i >= 0; i -= 1) if (events[i].type === "GameForked") return events[i].data;
  return null;
}
