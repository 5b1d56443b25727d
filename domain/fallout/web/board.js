// The wasteland drawn for the table (service/web/static/play.js), from a seat's view.
//
// The map is hex tiles on axial coordinates (`view.map[].q`, `.r`, pointy
// side up, so direction 0 of domain/fallout/model.py is north-east). A tile
// face down shows its back (dangerous, deadly); a double-sided tile is always
// face up. The view names spaces as
// "<tile>.<space>" but does not place them inside a tile, so each space we
// learn of (a survivor's, an enemy's, a quest marker's, a choice's) takes one
// of seven spots of its tile, picked by a hash of its name: the same space is
// in the same spot from one version to the next.
//
// Cards, survivors, tiles and named spaces are labelled by `view.names` (the
// pack's names for the ids the view shows: ids are stable, names are content
// and change), falling back to the id made readable for a server without it.
//
// The module interface is documented in service/web/static/plain-board.js.

import { describeAction as plainAction } from "/web/plain-board.js";
import { humanize } from "/web/api.js";
import { SEAT_COLOURS, hexCorners, stableHash, svg, titled } from "/web/svg.js";

const SIZE = 90; // a tile's radius, in SVG units
const BACKS = { start: "#e9dfc4", dangerous: "#d8c9a3", deadly: "#c9a890", double_sided: "#dcd2b0" };
const FACE_DOWN = { start: "#6f6a5c", dangerous: "#77705d", deadly: "#6b4f45" };

/** The pack's name for an id the view shows, else `fallback` (or the id made readable). */
function named(view, id, fallback) {
  return view?.names?.[id] ?? fallback ?? humanize(id);
}

/** A space by its name when it has one, else by its part of its tile ("Causeway, Tollbridge Camp"). */
function spaceName(view, space) {
  if (view?.names?.[space]) return view.names[space];
  const [tile, ...rest] = String(space).split(".");
  return rest.length ? `${humanize(rest.join("."))}, ${named(view, tile)}` : humanize(space);
}

/** Where a tile's centre is drawn: axial (q, r) to x, y. */
function centre(q, r) {
  return [SIZE * Math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r];
}

/** The seven spots a tile's spaces may take: its middle and a ring round it. */
function spots(x, y) {
  const ring = [[x, y]];
  for (let i = 0; i < 6; i += 1) {
    const angle = (Math.PI / 3) * i;
    ring.push([x + SIZE * 0.5 * Math.cos(angle), y + SIZE * 0.5 * Math.sin(angle)]);
  }
  return ring;
}

/** Every space the view mentions, with the things on it. */
function spacesOf(view, actions) {
  const spaces = new Map();
  const at = (space) => {
    if (!spaces.has(space)) spaces.set(space, { survivors: [], enemies: [], markers: [], choice: false });
    return spaces.get(space);
  };
  for (const s of view.survivors || []) if (s.space) at(s.space).survivors.push(s);
  for (const e of view.enemies || []) if (e.space) at(e.space).enemies.push(e);
  for (const [quest, space] of view.markers || []) if (space) at(space).markers.push(quest);
  for (const choice of [...(view.pending?.choices || []), ...(actions || [])]) {
    for (const key of ["space", "to"]) if (typeof choice[key] === "string" && choice[key].includes(".")) at(choice[key]).choice = true;
  }
  return spaces;
}

/** Each tile's spaces placed on its spots, collisions moving on to the next free spot. */
function place(tileSpaces, x, y) {
  const free = spots(x, y);
  const taken = new Map();
  const used = new Set();
  for (const space of [...tileSpaces].sort()) {
    let i = stableHash(space) % free.length;
    while (used.has(i) && used.size < free.length) i = (i + 1) % free.length;
    used.add(i);
    taken.set(space, free[i]);
  }
  return taken;
}

/** The one action that names each space as where to go (a step, a chosen space), to act by clicking it. */
function targets(actions) {
  const found = new Map();
  const many = new Set();
  for (const action of actions || []) {
    const space = action.type === "step" ? action.to : action.type === "choose_space" || action.type === "respawn" ? action.space : null;
    if (!space) continue;
    if (found.has(space)) many.add(space);
    found.set(space, action);
  }
  for (const space of many) found.delete(space); // ambiguous: the buttons say which
  return found;
}

export function draw(view, context = {}) {
  const tiles = view.map || [];
  const clickable = targets(context.actions);
  const spaces = spacesOf(view, context.actions);
  const xs = tiles.map((t) => centre(t.q, t.r)[0]);
  const ys = tiles.map((t) => centre(t.q, t.r)[1]);
  const pad = SIZE + 10;
  const minX = Math.min(0, ...xs) - pad;
  const minY = Math.min(0, ...ys) - pad;
  const width = Math.max(0, ...xs) - minX + pad;
  const height = Math.max(0, ...ys) - minY + pad;
  const root = svg("svg", {
    viewBox: `${minX.toFixed(0)} ${minY.toFixed(0)} ${width.toFixed(0)} ${height.toFixed(0)}`,
    role: "group", // not an img: the spaces one may step to are buttons inside it
    "aria-label": `The map in round ${view.round}`,
    class: "fallout-board",
  });

  const labels = svg("g", { class: "labels" });
  const pieces = svg("g", { class: "pieces" });
  for (const tile of tiles) {
    const [x, y] = centre(tile.q, tile.r);
    const fill = tile.faceup ? BACKS[tile.back] || "#ddd" : FACE_DOWN[tile.back] || "#777";
    const name = tile.faceup ? named(view, tile.tile) : `${humanize(tile.back)} tile, face down`;
    root.append(titled(svg("polygon", {
      points: hexCorners(x, y, SIZE - 2), fill, stroke: "#4a4336", "stroke-width": 2, class: "tile", "data-place": tile.place,
    }), name));
    // Labels after every tile, so no neighbouring tile covers them.
    labels.append(svg("text", {
      x, y: y - SIZE * 0.68, "text-anchor": "middle", "font-size": 12, fill: tile.faceup ? "#3b3428" : "#e9e2cf",
    }, tile.faceup ? named(view, tile.tile) : humanize(tile.back)));

    if (!tile.tile) continue;
    const mine = [...spaces.keys()].filter((space) => space.split(".")[0] === tile.tile);
    for (const [space, [sx, sy]] of place(mine, x, y)) {
      const drawn = drawSpace(view, space, spaces.get(space), sx, sy);
      const action = clickable.get(space);
      if (action && context.act) actOnClick(drawn, action, context.act, view);
      pieces.append(drawn);
    }
  }
  root.append(labels, pieces);
  return root;
}

/** A space one may move to: a button on the board too, by mouse, touch or keyboard. */
function actOnClick(group, action, act, view) {
  group.setAttribute("role", "button");
  group.setAttribute("tabindex", "0");
  group.setAttribute("class", "space target");
  group.setAttribute("aria-label", describeAction(action, view));
  group.addEventListener("click", () => act(action));
  group.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      act(action);
    }
  });
}

function drawSpace(view, space, on, x, y) {
  const group = svg("g", { class: "space", "data-space": space });
  const label = named(view, space, humanize(space.split(".").slice(1).join(".")));
  group.append(titled(svg("circle", {
    cx: x, cy: y, r: 18, fill: on.choice ? "#fff6d5" : "#f4efe2", stroke: on.choice ? "#e3a000" : "#8d846f",
    "stroke-width": on.choice ? 3 : 1, "stroke-dasharray": on.choice ? "4 3" : null,
  }), label));
  group.append(svg("text", { x, y: y + 29, "text-anchor": "middle", "font-size": 10, fill: "#3b3428" }, label));
  // Survivors as coloured discs, enemies as red squares with their level, quest markers as diamonds: each
  // token on its own spot (rows of three, 20 apart, centred on the space), so none covers another.
  const tokens = [...on.survivors.map((s) => ["survivor", s]), ...on.enemies.map((e) => ["enemy", e])];
  tokens.forEach(([kind, piece], i) => {
    const row = Math.floor(i / 3);
    const inRow = Math.min(3, tokens.length - row * 3);
    const tx = x + ((i % 3) - (inRow - 1) / 2) * 20;
    const ty = y - 4 - row * 20;
    if (kind === "survivor") {
      group.append(titled(svg("circle", { cx: tx, cy: ty, r: 9, fill: SEAT_COLOURS[piece.seat % 4], stroke: "#fff", "stroke-width": 2 }),
        `${named(view, piece.survivor)} (seat ${piece.seat})`));
      group.append(svg("text", { x: tx, y: ty + 4, "text-anchor": "middle", "font-size": 10, fill: "#fff" }, String(piece.seat)));
    } else {
      group.append(titled(svg("rect", {
        x: tx - 8, y: ty - 8, width: 16, height: 16, fill: piece.active === false ? "#999" : "#a1261f", stroke: "#fff", "stroke-width": 1.5,
      }), piece.active === false ? `${humanize(piece.type)} enemy, face down` : `${piece.name}, level ${piece.level}`));
      group.append(svg("text", { x: tx, y: ty + 4, "text-anchor": "middle", "font-size": 10, fill: "#fff" }, piece.active === false ? "?" : String(piece.level)));
    }
  });
  for (const quest of on.markers) {
    group.append(titled(svg("polygon", {
      points: `${x},${y + 4} ${x + 7},${y + 11} ${x},${y + 18} ${x - 7},${y + 11}`, fill: "#e3b341", stroke: "#5a4210",
    }), `Quest marker: ${named(view, quest, humanize(quest.replace(/^q_/, "")))}`));
  }
  return group;
}

/** Each seat's survivor: its track (HP, rads, XP, caps, influence) and the hand it shows. */
export function seats(view) {
  return (view.survivors || []).map((s) => {
    const hand = [
      ...(s.equipped || []).map((c) => `${named(view, c)} (equipped)`),
      ...(s.inventory || []).map((c) => named(view, c)),
      ...(s.perks || []).map((c) => `Perk: ${named(view, c, humanize(String(c).replace(/^perk_/, "")))}`),
      ...(s.agendas || []).map((c) => `Agenda: ${named(view, c, humanize(String(c).replace(/^agenda_/, "")))}`),
    ];
    const rows = [
      ["HP", `${s.remaining_hp ?? "?"} / ${s.hp ?? "?"}`],
      ["Rads", s.rads],
      // The XP marker stands on one of the survivor's S.P.E.C.I.A.L. letters.
      ["XP", `${s.xp_gained ?? 0}${s.xp ? ` (marker on ${s.xp})` : ""}`],
      ["S.P.E.C.I.A.L.", (s.letters || []).join(" ") || "none yet"],
      ["Caps", s.caps],
      ["Influence", `${s.influence ?? 0} of ${view.influence_needed}`],
      ["Agendas", s.agendas ? s.agendas.length : `${s.agenda_count} hidden`],
      ["Where", s.space ? spaceName(view, s.space) : "not on the map"],
    ];
    if (s.loyalty) rows.push(["Loyal to", named(view, s.loyalty)]);
    if (s.eliminated) rows.push(["Out", "eliminated"]);
    return { seat: s.seat, title: s.survivor ? named(view, s.survivor) : "no survivor yet", rows, hand };
  });
}

function enemyName(view, id) {
  const found = (view.enemies || []).find((e) => e.enemy === id);
  if (!found) return humanize(id);
  return found.active === false ? `a face-down ${humanize(found.type)} enemy` : `${found.name} (level ${found.level})`;
}

/** Any other action as the plain board words it (plain-board.js), its ids by their names. */
function plainNamed(action, view) {
  // A card or a space by the pack's name for it, never its id; a copy's owner ("…@seat") left out.
  return plainAction(action, view, (value) => {
    const id = value.split("@")[0];
    return id.includes(".") ? spaceName(view, id) : named(view, id);
  });
}

export function describeAction(action, view) {
  switch (action.type) {
    case "choose_survivor": return `Play ${named(view, action.survivor)}, starting at ${spaceName(view, action.space)}`;
    case "step": return `Step to ${spaceName(view, action.to)}`;
    case "move": return "Move";
    case "end_turn": return "End your turn";
    case "explore": return exploreWords(view, action.place);
    case "fight": return `Fight ${enemyName(view, action.enemy)}`;
    case "choose_enemy": case "order_attacks": case "activate_enemy":
      return `${humanize(action.type)}: ${enemyName(view, action.enemy)}`;
    case "encounter": return "Encounter this space";
    case "camp": return "Camp (heal)";
    default: return plainNamed(action, view);
  }
}

export function describePending(view, context) {
  const pending = view.pending;
  if (!pending) return null;
  const who = context.names[pending.seat] ?? `Seat ${pending.seat}`;
  return `${who} must decide: ${humanize(pending.kind)}.`;
}

// The engine's bookkeeping, folded away in the log (service/web/static/log.js).
const ENGINE_LINES = new Set(["ResultResolving", "ResultsQueued", "ResultsResolved"]);

/** True for the engine's own steps, which the log folds away; undefined: the table's default. */
export function engineLine(event) {
  return ENGINE_LINES.has(event.type) ? true : undefined;
}

/** The round end is a part of the round of its own in the log: the server's round_end command opens it. */
export function logMark(event) {
  if (event.type === "CommandAccepted" && event.data?.command?.type === "round_end") return { phase: "Round end" };
  return undefined;
}

/**
 * The question to ask before an action that cannot be taken back (service/web/static/confirm.js), or null:
 * ending the turn with actions left, selling or discarding a card.
 */
export function confirmAction(action, view, context) {
  const turn = view.turn;
  if (action.type === "end_turn" && turn && turn.seat === context.seat && turn.actions > 0) {
    return `End your turn with ${turn.actions} action${turn.actions > 1 ? "s" : ""} left?`;
  }
  if (action.type === "sell") return `Sell ${named(view, action.card)}? The shop keeps it.`;
  if (action.type === "discard" || action.type === "discard_agenda") {
    return `Discard ${named(view, action.card ?? action.agenda)}? It is gone for good.`;
  }
  return null;
}

/** Axial steps (domain/fallout/model.py's DIRECTIONS, pointy side up) in compass words. */
const COMPASS = { "1,-1": "north-east", "1,0": "east", "0,1": "south-east", "-1,1": "south-west", "-1,0": "west", "0,-1": "north-west" };

/** "Explore the dangerous tile to the north-east of Tollbridge Camp": the place by its back and where it lies. */
function exploreWords(view, place) {
  const tiles = view?.map || [];
  const target = tiles.find((t) => t.place === place);
  if (!target) return "Explore a tile";
  const mine = (view.survivors || []).find((s) => s.seat === view.seat);
  const from = mine?.space ? tiles.find((t) => t.tile && t.tile === mine.space.split(".")[0]) : null;
  const direction = from ? COMPASS[`${target.q - from.q},${target.r - from.r}`] : null;
  const where = direction ? ` to the ${direction} of ${named(view, from.tile)}` : "";
  return `Explore the ${humanize(target.back).toLowerCase()} tile${where}`;
}

/** What the map's colours and tokens mean (service/web/static/board-frame.js draws it under the board). */
export function legend() {
  return [
    { shape: "box", fill: BACKS.start, label: "a tile, face up" },
    { shape: "box", fill: FACE_DOWN.dangerous, label: "a dangerous tile, face down" },
    { shape: "box", fill: FACE_DOWN.deadly, label: "a deadly tile, face down" },
    { shape: "disc", fill: SEAT_COLOURS[0], label: "a survivor (its seat)" },
    { shape: "square", fill: "#a1261f", label: "an enemy (its level)" },
    { shape: "square", fill: "#999", label: "an enemy, face down" },
    { shape: "diamond", fill: "#e3b341", label: "a quest marker" },
    { shape: "ring", stroke: "#e3a000", label: "a space you may choose (tap it)" },
  ];
}
