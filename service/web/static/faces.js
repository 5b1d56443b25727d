// Cards you can read: the faces of the cards this seat may see (the view's
// `faces`: {id: {name, kind, cost, text}}), each a button that shows its
// text on hover, on keyboard focus, or on a tap (which keeps it open).

import { el, humanize } from "/web/api.js";

// The cards a tap opened, by id: every update of the table draws its faces again, and a card the reader
// opened stays open through the other seats' moves until it is tapped again.
const opened = new Set();

/** One card: its name as a button, its kind, cost and rules text beside it. */
export function faceButton(id, face) {
  const detail = `face-${String(id).replace(/[^A-Za-z0-9_-]/g, "-")}`;
  const about = [humanize(face.kind), face.cost === null || face.cost === undefined ? null : `cost ${face.cost}`].filter(Boolean).join(" · ");
  const text = el("span", { class: "face-text", id: detail, role: "note" },
    el("strong", {}, face.name), about ? el("em", {}, ` ${about}`) : null, el("span", { class: "face-rules" }, face.text || ""));
  const button = el("button", {
    type: "button", class: "face", "aria-expanded": opened.has(id) ? "true" : "false", "aria-describedby": detail,
    dataset: { card: id }, onclick: () => toggle(id),
  }, face.name);
  return el("span", { class: "face-card" }, button, text);
}

/** A tap on a card's name: open or close it, wherever its name is a button (the faces and a hand). */
function toggle(id) {
  if (opened.has(id)) opened.delete(id);
  else opened.add(id);
  for (const button of document.querySelectorAll("button.face")) {
    if (button.dataset.card === id) button.setAttribute("aria-expanded", opened.has(id) ? "true" : "false");
  }
}

/** Every face the view holds, grouped by kind; none when the server sends no faces. */
export function facesPanel(faces) {
  const entries = Object.entries(faces || {});
  if (!entries.length) return [];
  const kinds = new Map();
  for (const [id, face] of entries) {
    if (!kinds.has(face.kind)) kinds.set(face.kind, []);
    kinds.get(face.kind).push([id, face]);
  }
  return [...kinds].map(([kind, cards]) => el("div", { class: "face-kind" },
    el("h3", {}, humanize(kind || "cards")),
    el("ul", { class: "faces" }, cards.sort((a, b) => a[1].name.localeCompare(b[1].name)).map(([id, face]) => el("li", {}, faceButton(id, face))))));
}

/** A hand's card by its words, made a face button when a face of that name is in view. */
export function handItem(words, faces) {
  const found = Object.entries(faces || {}).find(([, face]) => face.name && String(words).startsWith(face.name));
  return found ? faceButton(found[0], found[1]) : words;
}
