// Once a game is over: the verdict of GET /games/{id}/audit, whether the hash
// chain holds, whether the revealed seed matches its commitment, and the seed.

import { el } from "/web/api.js";

/** The audit panel's nodes for the ended game `live` (its state) and its `audit`. */
export function auditPanel(live, audit) {
  const a = audit;
  return [
    el("h3", {}, "Audit"),
    el("p", { class: `verdict verdict-${a.verdict}`, id: "audit-verdict" }, `Verdict: ${a.verdict}`),
    el("dl", {},
      el("dt", {}, "Hash chain"), el("dd", {}, a.chain_ok ? "intact" : `broken at version ${a.chain_broken_at}`),
      el("dt", {}, "Seed matches its commitment"), el("dd", {}, String(a.seed_matches_commitment)),
      el("dt", {}, "Decisions re-derived"), el("dd", {}, String(a.decisions_checked)),
      el("dt", {}, "Seed (revealed)"), el("dd", { class: "seed" }, live.seed ?? "not revealed"),
      el("dt", {}, "Seed commitment"), el("dd", { class: "seed" }, live.seed_commitment),
    ),
    a.reason ? el("p", {}, a.reason) : null,
  ].filter(Boolean);
}
