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

export function draw(view, context = {}) {
  const board = view.board || {};
  const areas = board.areas || {};
  const placed = board.map && Object.keys(areas).length && Object.values(areas).every((a) => Array.isArray(a.at));
  return placed ? drawMap(view, context) : drawColumns(view);
}

// -- the map: areas where the pack's layout puts them ------------------------------

const LINES = {
  border: { stroke: "#6b6453", width: 3, dash: null },
  shortcut: { stroke: "#6b6453", width: 3, dash: "10 7" },
  blockade: { stroke: "#b3261e", width: 7, dash: null },
  entrance: { stroke: "#3d5a8a", width: 3, dash: "3 5" },
  power_plant: { stroke: "#7a5c99", width: 3, dash: "14 5 3 5" },
};
const SHORTCUT_MARKS = { radiation: "☢", wound: "✚", disturbance: "≋" };

/** The one move to each area, when exactly one action leads there: the area is a button on the map. */
function moves(actions) {
  const found = new Map();
  const many = new Set();
  for (const action of actions || []) {
    if (action.type !== "move" || !action.to) continue;
    if (found.has(action.to)) many.add(action.to);
    found.set(action.to, action);
  }
  for (const area of many) found.delete(area);
  return found;
}

/** A name on at most two lines, split at the space nearest its middle. */
function lines(name) {
  if (name.length <= 16 || !name.includes(" ")) return [name];
  const middle = name.length / 2;
  let best = -1;
  for (let i = 0; i < name.length; i += 1) if (name[i] === " " && (best < 0 || Math.abs(i - middle) < Math.abs(best - middle))) best = i;
  return [name.slice(0, best), name.slice(best + 1)];
}

function drawMap(view, context) {
  const board = view.board;
  const areas = board.areas;
  const [width, height] = board.map.size;
  const [boxW, boxH] = board.map.box;
  const root = svg("svg", {
    // A group, not an img: the areas one may move to are buttons inside it.
    viewBox: `0 0 ${width} ${height}`, role: "group", class: "zona-map",
    "aria-label": `The Zone, the ${view.side || ""} side, in round ${view.round}`,
  });
  const at = (id) => areas[id].at;
  for (const border of board.borders || []) {
    const [a, b] = border.between;
    if (!areas[a] || !areas[b]) continue;
    const style = LINES[border.kind] || LINES.border;
    const [x1, y1] = at(a);
    const [x2, y2] = at(b);
    const line = svg("line", { x1, y1, x2, y2, stroke: style.stroke, "stroke-width": style.width, "stroke-dasharray": style.dash,
      "stroke-linecap": "round", class: `border border-${border.kind}` });
    root.append(titled(line, `${areas[a].name} – ${areas[b].name}: ${humanize(border.kind)}${border.shortcut ? ` (costs 1 ${border.shortcut})` : ""}`));
    if (border.kind === "shortcut" && border.shortcut) {
      const mx = (x1 + x2) / 2;
      const my = (y1 + y2) / 2;
      root.append(svg("circle", { cx: mx, cy: my, r: 13, fill: "#fffdf7", stroke: "#6b6453", "stroke-width": 1.5 }));
      root.append(svg("text", { x: mx, y: my + 6, "text-anchor": "middle", "font-size": 17, fill: "#8a1c12" },
        SHORTCUT_MARKS[border.shortcut] || "!"));
    }
  }
  const targets = moves(context.actions);
  const voice = view.voice;
  for (const [id, area] of Object.entries(areas)) {
    const [cx, cy] = area.at;
    const x = cx - boxW / 2;
    const y = cy - boxH / 2;
    const facility = area.sector === "facility";
    const group = svg("g", { class: `area sector-${area.sector}`, "data-area": id });
    group.append(titled(svg("rect", {
      x, y, width: boxW, height: boxH, rx: facility ? 2 : 12, fill: FILLS[area.sector] || "#eee",
      stroke: facility ? "#3d5a8a" : "#4a4336", "stroke-width": facility ? 3 : 1.5, "stroke-dasharray": facility ? "6 3" : null,
    }), `${area.name}${area.action ? `: ${area.action}` : ""}`));
    const named = lines(area.name);
    named.forEach((part, i) => group.append(svg("text", {
      x: cx, y: y + 22 + i * 20, "text-anchor": "middle", "font-size": 19, "font-weight": 600, fill: "#231f18",
    }, part)));
    if (area.sector === "bunker") {
      group.append(svg("text", { x: x + boxW - 8, y: y + boxH - 8, "text-anchor": "end", "font-size": 16, "font-weight": 700, fill: "#4a4336", "aria-hidden": "true" }, "B"));
    }
    const shut = facility ? (view.facilities || {})[id] : null;
    if (shut) {
      group.append(svg("text", { x: x + boxW - 6, y: y + 17, "text-anchor": "end", "font-size": 13, fill: "#3d5a8a", "aria-hidden": "true" },
        shut.looted ? "looted" : shut.open ? "open" : "locked"));
    }
    const threats = (view.threats || {})[id] || [];
    threats.forEach((threat, i) => {
      const tx = x + boxW - 14 - i * 24;
      const ty = y + boxH - 14;
      const mutant = threat.kind === "mutant";
      group.append(titled(svg(mutant ? "rect" : "polygon", mutant
        ? { x: tx - 10, y: ty - 10, width: 20, height: 20, fill: threat.colour === "yellow" ? "#d9a400" : "#3f8a3f", stroke: "#231f18" }
        : { points: `${tx},${ty - 11} ${tx + 11},${ty + 9} ${tx - 11},${ty + 9}`, fill: threat.colour === "yellow" ? "#d9a400" : "#3f8a3f", stroke: "#231f18" }),
        `Threat: ${threat.name || humanize(threat.kind)} (${threat.colour} ${threat.kind})`));
    });
    const here = (view.stalkers || []).filter((s) => s.area === id);
    here.forEach((s, i) => {
      const sx = x + 18 + i * 26;
      const sy = y + boxH - 14;
      if (s.seat === voice) {
        group.append(titled(svg("circle", { cx: sx, cy: sy, r: 14, fill: "none", stroke: "#e3b341", "stroke-width": 4, class: "voice" }),
          "The Voice of the Zone"));
      }
      group.append(titled(svg("circle", { cx: sx, cy: sy, r: 10, fill: SEAT_COLOURS[s.seat % 4], stroke: "#fff", "stroke-width": 2, class: "stalker" }),
        `${s.name || "a stalker"} (seat ${s.seat})${s.seat === voice ? ", holding the Voice of the Zone" : ""}`));
      group.append(svg("text", { x: sx, y: sy + 4, "font-size": 12, "text-anchor": "middle", fill: "#fff", "aria-hidden": "true" }, String(s.seat)));
    });
    const move = targets.get(id);
    if (move && context.act) {
      // The button is a clear box over the area, named "<area>: move here": apart from the area's texts, so
      // what a screen reader hears is what the box means, whatever the area shows.
      group.setAttribute("class", `area sector-${area.sector} target`);
      const button = svg("rect", {
        x, y, width: boxW, height: boxH, rx: 12, fill: "transparent", role: "button", tabindex: "0",
        "aria-label": `${area.name}: move here`, class: "move-here",
      });
      group.addEventListener("click", () => context.act(move));
      button.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          context.act(move);
        }
      });
      group.append(button);
    }
    root.append(group);
  }
  return root;
}

/** What the map's marks mean (service/web/static/play.js draws it beside the board). */
export function legend(view) {
  const sectors = Object.entries(FILLS).map(([sector, fill]) => ({ shape: "box", fill, label: sector === "facility" ? "secret facility" : `${humanize(sector)}${sector === "bunker" ? " (B)" : " sector"}` }));
  return [
    ...sectors,
    { shape: "line", stroke: LINES.border.stroke, label: "border" },
    { shape: "line", stroke: LINES.shortcut.stroke, dash: LINES.shortcut.dash, label: "shortcut (☢ ✚ ≋: the damage it deals)" },
    { shape: "line", stroke: LINES.blockade.stroke, width: 5, label: "blockade" },
    { shape: "line", stroke: LINES.entrance.stroke, dash: LINES.entrance.dash, label: "facility entrance" },
    { shape: "line", stroke: LINES.power_plant.stroke, dash: LINES.power_plant.dash, label: "power plant (reached by the red gates' actions)" },
    { shape: "triangle", fill: "#3f8a3f", label: "anomaly (green; yellow in yellow)" },
    { shape: "square", fill: "#3f8a3f", label: "mutant" },
    { shape: "disc", fill: SEAT_COLOURS[0], label: "a stalker (its seat)" },
    { shape: "ring", stroke: "#e3b341", label: `the Voice of the Zone${view.voice !== undefined && view.voice !== null ? ` (seat ${view.voice})` : ""}` },
  ];
}

// -- the schematic, for a pack that does not say where its areas lie ----------------

function drawColumns(view) {
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
      group.append(titled(svg("circle", { cx, cy: y + 38, r: 9, fill: SEAT_COLOURS[s.seat % 4], stroke: "#fff", "stroke-width": 2, class: "stalker" }),
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
  // A card, a token or an area by the name the view gives it, never its id ("Felt Mask@Docent" is the docent's mask).
  return plainAction(action, view, (value) => view.board?.areas?.[value]?.name || cardName(view, value));
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
