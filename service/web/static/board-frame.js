// Around a board: zoom (−, fit, +; the board scrolls inside its frame when
// larger) and the legend the board module gives (`legend(view)`: what its
// colours, lines and tokens mean). The zoom holds across redraws; a phone
// starts at twice the fit, so a map's names are legible at 390 px wide.

import { el } from "/web/api.js";
import { svg } from "/web/svg.js";

const STEPS = [1, 1.5, 2, 3, 4];

export class BoardFrame {
  constructor(frame, controls, legend) {
    this.frame = frame;
    this.legend = legend;
    this.step = window.matchMedia("(max-width: 600px)").matches ? 2 : 0;
    const button = (id, label, words, change) => el("button", { type: "button", id, "aria-label": words, onclick: () => this.zoom(change) }, label);
    controls.replaceChildren(
      button("zoom-out", "−", "Zoom out", -1),
      button("zoom-fit", "Fit", "Fit the board to the page", null),
      button("zoom-in", "+", "Zoom in", 1),
    );
  }

  get scale() {
    return STEPS[this.step];
  }

  zoom(change) {
    this.step = change === null ? 0 : Math.min(STEPS.length - 1, Math.max(0, this.step + change));
    this.apply();
  }

  apply() {
    const drawn = this.frame.querySelector("svg");
    if (!drawn) return;
    drawn.style.width = `${this.scale * 100}%`;
    drawn.style.maxHeight = this.scale === 1 ? "" : "none";
    this.frame.dataset.zoom = String(this.scale);
  }

  /** Put `drawn` in the frame at the zoom chosen, and the board's legend for `view` beside it. */
  show(drawn, board, view) {
    this.frame.replaceChildren(drawn);
    this.apply();
    const items = board.legend ? board.legend(view) : [];
    this.legend.hidden = !items.length;
    this.legend.querySelector("ul").replaceChildren(...items.map((item) => el("li", {}, swatch(item), " ", item.label)));
  }
}

/** A small picture of a legend item: a box, a line, a disc, a ring, a square or a triangle. */
function swatch(item) {
  const picture = svg("svg", { viewBox: "0 0 28 18", width: 28, height: 18, "aria-hidden": "true", class: "swatch" });
  const stroke = item.stroke || "#231f18";
  const shapes = {
    box: () => svg("rect", { x: 2, y: 2, width: 24, height: 14, rx: 3, fill: item.fill, stroke: "#4a4336" }),
    line: () => svg("line", { x1: 1, y1: 9, x2: 27, y2: 9, stroke, "stroke-width": item.width || 3, "stroke-dasharray": item.dash || null }),
    disc: () => svg("circle", { cx: 14, cy: 9, r: 7, fill: item.fill, stroke: "#fff" }),
    ring: () => svg("circle", { cx: 14, cy: 9, r: 6, fill: "none", stroke, "stroke-width": 3 }),
    square: () => svg("rect", { x: 8, y: 3, width: 12, height: 12, fill: item.fill, stroke: "#231f18" }),
    triangle: () => svg("polygon", { points: "14,2 22,16 6,16", fill: item.fill, stroke: "#231f18" }),
    diamond: () => svg("polygon", { points: "14,2 21,9 14,16 7,9", fill: item.fill, stroke: "#5a4210" }),
  };
  picture.append((shapes[item.shape] || shapes.box)());
  return picture;
}
