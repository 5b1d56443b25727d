// The log as this page holds it: the newest page first, older pages as the
// reader scrolls back, and every event the stream or an answer brings.
// A 5,000-event game opens with its last LOG_PAGE events, not its history.

import { call } from "/web/api.js";

/** Events a page of the log brings: enough for a few turns. */
export const LOG_PAGE = 200;

export class LogPages {
  constructor(gameId, token) {
    this.gameId = gameId;
    this.token = token;
    this.events = new Map(); // version → event, as this seat may read it
    this.oldest = null; // the oldest version loaded; 1: the whole log is here
    this.newest = 0; // the newest version any answer or the stream has brought
    this.loading = null;
  }

  keep(event) {
    this.events.set(event.version, event);
    this.newest = Math.max(this.newest, event.version);
  }

  /** The events loaded, oldest first. */
  logged() {
    return [...this.events.keys()].sort((a, b) => a - b).map((v) => this.events.get(v));
  }

  get complete() {
    return this.oldest !== null && this.oldest <= 1;
  }

  /** The newest page up to `upto` (or, read again, everything loaded so far: once a game is over it may all be shown). */
  async loadLatest(upto) {
    const after = this.oldest === null ? Math.max(0, upto - LOG_PAGE) : this.oldest - 1;
    await this.range(after, upto);
    this.oldest = after + 1;
  }

  /** One more page of older events; a second call while one loads waits for it. */
  earlier() {
    if (this.loading || this.oldest === null || this.oldest <= 1) return this.loading || Promise.resolve();
    const upto = this.oldest - 1;
    const after = Math.max(0, upto - LOG_PAGE);
    this.loading = this.range(after, upto)
      .then(() => {
        this.oldest = after + 1;
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  /** Events `after` < version <= `upto`, as this seat may read them. */
  async range(after, upto) {
    while (after !== null && after < upto) {
      const limit = Math.min(1000, upto - after);
      const page = (await call("GET", `/games/${this.gameId}/events?after=${after}&limit=${limit}`, { token: this.token })).body;
      for (const event of page.events) this.keep(event);
      if (!page.events.length) return;
      after = page.next_after;
    }
  }
}
