// The Zone drawn for the table (service/web/static/play.js), from a seat's view.
//
// The view describes the board itself (`view.board.areas`: each area's name
// and sector; `view.board.borders`: which areas touch, and how), so the
// drawing lays the sectors out as columns, from the edge of the Zone to the
// sarcophagus, with each sector's areas stacked in it, and draws the borders
// between them: a plain line, a dashed one for a shortcut (and what it
// costs), a thick red one for a blockade. Stalkers stand in their area;
// threat tokens are counted on it.
//
// The module interface is documented in service/web/static/plain-board.js.

import { describeAction as plainAction } from "/web/plain-board.js";
import { humanize } from "/web/api.js";
import { SEAT_COLOURS, svg, titled } from "/web/svg.js";

// From the edge of the Zone inwards; a sector not listed here goes at the end.
const SECTORS = ["green", "bunker", "yellow", "red", "facility", "sarcophagus"];
const FILLS = {
  green: "#cfe6c4", bunker: "#d9d4c7", yellow: "#f2e3a6", red: "#efb8a8", facility: "#c9d3e6", sarcophagus: "#b9a9c9",
};
const BOX = { width: 150, height: 56, gapX: 50, gapY: 22 };

function layout(areas) {
  const columns = new Map();
  for (const [id, area] of Object.entries(areas)) {
    if (!columns.has(area.sector)) columns.set(area.sector, []);
    columns.get(area.sector).push(id);
  }
  const order = [...columns.keys()].sort((a, b) => rank(a) - rank(b));
  const where = new Map();
  order.forEach((sector, column) => {
    columns.get(sector).sort().forEach((id, row) => {
      where.set(id, { x: column * (BOX.width + BOX.gapX), y: row * (BOX.height + BOX.gapY) + 24 });
    });
  });
  return { where, order, tallest: Math.max(1, ...[...columns.values()].map((c) => c.length)) };
}

function rank(sector) {
  const i = SECTORS.indexOf(sector);
  return i < 0 ? SECTORS.length : i;
}

export function draw(view) {
  const areas = view.board?.areas || {};
  const { where, order, tallest } = layout(areas);
  const width = order.length * (BOX.width + BOX.gapX);
  const height = tallest * (BOX.height + BOX.gapY) + 30;
  const root = svg("svg", { viewBox: `-10 0 ${width} ${height}`, role: "img", "aria-label": `The Zone in round ${view.round}` });

  order.forEach((sector, column) => {
    root.append(svg("text", { x: column * (BOX.width + BOX.gapX) + BOX.width / 2, y: 14, "text-anchor": "middle", "font-size": 13 },
      humanize(sector)));
  });
  const middle = (id) => {
    const p = where.get(id);
    return [p.x + BOX.width / 2, p.y + BOX.height / 2];
  };
  for (const border of view.board?.borders || []) {
    const [a, b] = border.between;
    if (!where.has(a) || !where.has(b)) continue;
    const [x1, y1] = middle(a);
    const [x2, y2] = middle(b);
    const blockade = border.kind === "blockade";
    const line = svg("line", {
      x1, y1, x2, y2, stroke: blockade ? "#b3261e" : "#6b6453", "stroke-width": blockade ? 4 : 1.5,
      "stroke-dasharray": border.kind === "shortcut" ? "6 4" : null, opacity: 0.7,
    });
    root.append(titled(line, `${humanize(a)} – ${humanize(b)}: ${border.kind}${border.shortcut ? ` (costs ${border.shortcut})` : ""}`));
  }

  for (const [id, area] of Object.entries(areas)) {
    const { x, y } = where.get(id);
    const group = svg("g", { class: "area", "data-area": id });
    group.append(titled(svg("rect", {
      x, y, width: BOX.width, height: BOX.height, rx: 8, fill: FILLS[area.sector] || "#eee", stroke: "#4a4336",
    }), `${area.name}${area.action ? `: ${area.action}` : ""}`));
    group.append(svg("text", { x: x + 8, y: y + 17, "font-size": 13 }, area.name));
    const threats = (view.threats || {})[id] || [];
    if (threats.length) {
      group.append(svg("text", { x: x + BOX.width - 8, y: y + 17, "font-size": 11, "text-anchor": "end", fill: "#8a1c12" },
        `${threats.length} threat${threats.length > 1 ? "s" : ""}`));
    }
    const here = (view.stalkers || []).filter((s) => s.area === id);
    here.forEach((s, i) => {
      const cx = x + 16 + i * 22;
      group.append(titled(svg("circle", { cx, cy: y + 38, r: 9, fill: SEAT_COLOURS[s.seat % 4], stroke: "#fff", "stroke-width": 2 }),
        `${s.name || "a stalker"} (seat ${s.seat})`));
      group.append(svg("text", { x: cx, y: y + 42, "font-size": 10, "text-anchor": "middle", fill: "#fff" }, String(s.seat)));
    });
    root.append(group);
  }
  return root;
}

/** A card's name from the view's catalog: a copy is "<card>#<n>" and an owned one "<card>@<owner>". */
function cardName(view, id) {
  const card = String(id).split(/[@#]/)[0];
  return view.cards?.[card]?.name || humanize(card);
}

/** Each seat's stalker: its track and what it carries (finds it may not see are shown as "find"). */
export function seats(view) {
  return (view.stalkers || []).map((s) => {
    const hand = [...(s.worn || []), ...(s.backpack || []), ...(s.small || []), ...(s.sixth || [])].map((c) => cardName(view, c));
    const rows = [
      ["Where", s.area ? humanize(view.board?.areas?.[s.area]?.name || s.area) : "not in the Zone yet"],
      ["Damage", `${s.damage}${s.stamina ? ` of ${s.stamina}` : ""}`],
      ["Fatigue", s.fatigue],
      ["Roubles", s.roubles],
      ["Reputation", humanize(s.reputation)],
      ["Secrets", (s.secrets || []).length],
      ["Trophies", (s.trophies || []).length],
    ];
    if ((s.injuries || []).length) rows.push(["Injuries", s.injuries.map(humanize).join(", ")]);
    if (s.dead) rows.push(["Out", "dead"]);
    return { seat: s.seat, title: s.name || "no stalker yet", rows, hand };
  });
}

export function describeAction(action, view) {
  if (action.type === "move" && action.to) return `Move to ${view.board?.areas?.[action.to]?.name || humanize(action.to)}`;
  if (action.type === "choose_stalker") return `Play ${humanize(action.character)}`;
  return plainAction(action);
}

export function describePending(view, context) {
  const pending = view.pending;
  if (!pending) return null;
  return `${context.names[pending.seat] ?? `Seat ${pending.seat}`} must decide: ${humanize(pending.kind)}.`;
}

// The engine's bookkeeping, folded away in the log (service/web/static/log.js).
const ENGINE_LINES = new Set(["FramePushed", "FrameUpdated", "FramePopped"]);

/** True for the engine's own steps, which the log folds away; undefined: the table's default. */
export function engineLine(event) {
  return ENGINE_LINES.has(event.type) ? true : undefined;
}

/** Zona's rounds are its phases: action (turns), event and news (service/web/static/log.js groups by them). */
export function logMark(event, round) {
  if (event.type !== "PhaseStarted") return undefined;
  const { phase, round: number } = event.data || {};
  if (phase === "action" && number !== round) return { round: number };
  return { phase: `${humanize(phase)} phase` };
}

/** Zona's dice faces in glyphs: plus, minus, blank and triangle. */
const FACES = { plus: "+", minus: "−", blank: "·", triangle: "▲" };
export function dieFace(face) {
  return FACES[face] || humanize(face);
}

/** Zona's stalker has two actions a turn: the table asks before ending it early, dropping or selling a card. */
const ZONA_TURN_ACTIONS = 2;
export function confirmAction(action, view, context) {
  const turn = view.turn;
  if (action.type === "pass" && turn && !turn.done && turn.seat === context.seat && turn.actions < ZONA_TURN_ACTIONS) {
    const left = ZONA_TURN_ACTIONS - turn.actions;
    return `End your turn with ${left} action${left > 1 ? "s" : ""} left?`;
  }
  if (action.type === "drop") return `Drop ${cardName(view, action.card)}? It stays behind for good.`;
  if (action.type === "sell_artifact") return `Sell ${cardName(view, action.card)}?`;
  return null;
}
