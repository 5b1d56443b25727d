// Building SVG for the boards: one helper, so board modules read as drawings.
//
// A board module imports it as `import { svg, hexCorners } from "/web/svg.js"`.
// Text goes in as text nodes (never as markup), so a name from the game can
// never inject anything into the page.

const NS = "http://www.w3.org/2000/svg";

/** svg("circle", {cx: 1, cy: 2, r: 3}, child…): an SVG element; a string child becomes text. */
export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A tooltip and an accessible name for a shape: <title> is what screen readers read. */
export function titled(node, text) {
  node.prepend(svg("title", {}, text));
  return node;
}

/** The six corners of a pointy-top hexagon of radius `size` round (x, y), as a points list. */
export function hexCorners(x, y, size) {
  const points = [];
  for (let i = 0; i < 6; i += 1) {
    const angle = (Math.PI / 180) * (60 * i - 30);
    points.push(`${(x + size * Math.cos(angle)).toFixed(1)},${(y + size * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

/** A small, stable number for a string: the same space lands in the same place every time. */
export function stableHash(text) {
  let hash = 0;
  for (const char of String(text)) hash = (hash * 31 + char.codePointAt(0)) >>> 0;
  return hash;
}

/** The colour of each seat, the same on every board and panel. */
export const SEAT_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];
