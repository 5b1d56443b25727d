// Telling a player it has become their turn: a short sound and a browser
// notification, both optional and asked for by a button (never on load: a
// page that asks for permission unprompted is one players learn to refuse).
//
// The choice is kept in localStorage, so it holds across this browser's tabs.

import { el } from "/web/api.js";

const KEY = "holotape.turn-alert";

export class TurnAlert {
  constructor() {
    this.wanted = localStorage.getItem(KEY) === "on";
    this.asked = null; // was it this seat's turn at the last update?
    this.button = null;
  }

  controls() {
    this.button = el("button", { type: "button", id: "turn-alert-toggle", "aria-pressed": String(this.wanted), onclick: () => this.toggle() });
    this.label();
    return [this.button];
  }

  label() {
    if (this.button) {
      this.button.textContent = this.wanted ? "Turn alerts: on" : "Alert me when it is my turn";
      this.button.setAttribute("aria-pressed", String(this.wanted));
    }
  }

  async toggle() {
    this.wanted = !this.wanted;
    localStorage.setItem(KEY, this.wanted ? "on" : "off");
    if (this.wanted && "Notification" in window && Notification.permission === "default") {
      // Asked here, in answer to the click, as browsers require.
      await Notification.requestPermission();
    }
    this.label();
  }

  /** The state was refreshed: `yours` says whether the game now waits on this seat. */
  update(yours) {
    const became = yours && this.asked === false;
    this.asked = yours;
    if (!became || !this.wanted) return;
    this.beep();
    if ("Notification" in window && Notification.permission === "granted" && document.hidden) {
      new Notification("Holotape: your turn", { body: document.title, tag: "holotape-turn" });
    }
  }

  beep() {
    const Audio = window.AudioContext || window.webkitAudioContext;
    if (!Audio) return;
    try {
      const audio = new Audio();
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = 660;
      volume.gain.setValueAtTime(0.08, audio.currentTime);
      volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
      tone.connect(volume).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.35);
      tone.onended = () => audio.close();
    } catch (error) {
      console.warn("no sound", error);
    }
  }
}
