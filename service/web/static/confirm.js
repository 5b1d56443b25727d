// Asking before a move that cannot be taken back (ending a turn with actions
// left, selling or dropping a card, a rewind): in the page, not a browser
// dialog, so it reads like the rest of the table, works by keyboard and can
// be checked by the tests. `question` in words; the answer's buttons say
// what they do.

import { el } from "/web/api.js";

/** Show `question` in `where` with "Yes: <yes>" and "No, go back"; resolves true or false. */
export function askFirst(where, question, yes) {
  return new Promise((resolve) => {
    const answer = (value) => {
      where.replaceChildren();
      where.hidden = true;
      resolve(value);
    };
    const confirm = el("button", { type: "button", id: "confirm-yes", onclick: () => answer(true) }, `Yes: ${yes}`);
    where.hidden = false;
    where.replaceChildren(
      el("p", { id: "confirm-question" }, question),
      confirm,
      el("button", { type: "button", id: "confirm-no", onclick: () => answer(false) }, "No, go back"),
    );
    confirm.focus();
  });
}
