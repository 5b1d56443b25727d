// Before the start, on the table: join by name (without a token), and for the
// creator (its token kept by the lobby in this browser) hand an open seat to
// a bot, or start. `lobbyCall(method, path, body, token)` posts through the
// table, which refreshes after it.

import { el, keepToken } from "/web/api.js";

export function lobbyControls({ seats, gameId, token, creatorToken, lobbyCall }) {
  const controls = [];
  const open = seats.filter((s) => s.kind === "open");
  if (!token && open.length) {
    const name = el("input", { id: "join-as", maxlength: 40, required: true, placeholder: "your name", autocomplete: "nickname" });
    controls.push(el("form", {
      class: "join",
      onsubmit: async (e) => {
        e.preventDefault();
        const joined = await lobbyCall("POST", `/games/${gameId}/seats`, { name: name.value });
        if (joined) {
          keepToken("seat", gameId, joined.token);
          location.reload();
        }
      },
    }, el("label", { for: "join-as" }, "Join as "), name, el("button", { type: "submit" }, "Join")));
  }
  if (creatorToken) {
    for (const seat of open) {
      controls.push(el("button", {
        type: "button",
        dataset: { lobby: "bot" },
        onclick: () => lobbyCall("PUT", `/games/${gameId}/seats/${seat.seat}/bot`, { level: "greedy" }, creatorToken),
      }, `Give seat ${seat.seat} to a bot`));
    }
    controls.push(el("button", {
      type: "button",
      id: "start",
      disabled: open.length > 0,
      onclick: () => lobbyCall("POST", `/games/${gameId}/start`, undefined, creatorToken),
    }, open.length ? `Start (waiting for ${open.length} more)` : "Start the game"));
  }
  return controls;
}
