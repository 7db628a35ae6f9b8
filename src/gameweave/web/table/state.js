// The table's state and transport, apart from what it draws (boardgame.io's client.ts
// beside its board is the model): the frame shown now, the frames still to show, whether
// a move is on its way, the socket; and what every region reads of one frame.

import { TableSocket } from "../api.js";
import { t } from "../i18n.js";
import { botPace } from "../ui.js";
import { describeChoice, forcedOnMe, namer, seatName } from "../words.js";

/** Cards a seat needs on its table to win the deal (R16). */
export const ELEVEN = 11;

/**
 * One seat's (or a spectator's) live connection to a match and the frames it brought.
 *
 * `show(frame)` draws a state frame (PROTOCOL §4.3); the others are the socket's
 * callbacks: `error(frame)`, `status(s)` ("connecting" | "open" | "lost" | "replaced" |
 * "closed"), `phrase(frame)`.  Frames that only record the opponent's step are shown at
 * least `botPace()` ms apart, so bot (and friend) moves appear one at a time.
 */
export class TableClient {
  constructor(matchId, seatInfo, { watch = null } = {}, { show, error, status, phrase }) {
    this.spectator = !!watch;
    this.frame = null; // the frame shown now
    this.sending = false; // a move went and its answer has not come back
    this.closed = false;
    this.replaced = false; // another tab holds the seat: nothing may be sent
    this.pending = [];
    this.pumpTimer = null;
    this.show = show;
    this.sock = new TableSocket(matchId, seatInfo.seat, seatInfo.token, {
      onPhrase: phrase,
      onState: (f) => this.queue(f),
      onError: (f) => {
        this.sending = false;
        error(f);
      },
      onStatus: (s) => {
        if (this.closed) return;
        if (s === "open") this.replaced = false;
        else if (s === "replaced") this.replaced = true;
        status(s);
      },
    }, { watch });
  }

  connect() {
    this.sock.connect();
  }

  /** A presence update re-sends the same version: it replaces a queued frame of it. */
  queue(f) {
    const last = this.pending[this.pending.length - 1];
    if (last && last.version === f.version) this.pending[this.pending.length - 1] = f;
    else this.pending.push(f);
    this.pump();
  }

  pump() {
    if (this.pumpTimer || this.closed || !this.pending.length) return;
    const f = this.pending.shift();
    const prevVersion = this.frame ? this.frame.version : null;
    this.show(f);
    const hist = f.view.history || [];
    const lastEv = hist[hist.length - 1];
    const byOpp = lastEv && lastEv.seat !== f.seat && f.version !== prevVersion;
    const pace = byOpp && this.pending.length ? botPace() : 0;
    if (this.pending.length) {
      this.pumpTimer = setTimeout(() => {
        this.pumpTimer = null;
        this.pump();
      }, pace);
    }
  }

  /** The frame now drawn is `f`; whatever was on its way has been answered. */
  accept(f) {
    this.frame = f;
    this.sending = false;
  }

  /** Send a frame of the seat (`{type, ...}`) for the version shown: true when sent,
   * false when the connection is down, null when nothing may be sent now (a move on its
   * way, no table yet, another tab holds the seat, a spectator). */
  send(msg) {
    if (this.sending || !this.frame || this.replaced || this.spectator) return null;
    if (!this.sock.send({ ...msg, version: this.frame.version })) return false;
    this.sending = true;
    return true;
  }

  /** Send a frame that belongs to no version (a quick phrase); false when down. */
  say(msg) {
    return this.sock.send(msg);
  }

  reclaim() {
    this.sock.reclaim();
  }

  close() {
    this.closed = true;
    clearTimeout(this.pumpTimer);
    this.sock.close();
  }
}

/** Names for a spectator: every seat by its name, every sentence in the third person. */
function spectatorNamer(m) {
  const who = (s) => seatName(m, s);
  return {
    me: null,
    oppName: who(2),
    who,
    whom: who,
    mine: () => false,
    x: (key, s, params = {}) => t(`${key}.opp`, { who: who(s), ...params }),
  };
}

/** The frame's progress (PROTOCOL §4.3): cards melded per seat and the seats one from eleven. */
export function frameProgress(f) {
  if (f.progress && f.progress.melded) return f.progress;
  const tc = f.view.table_counts || {};
  const melded = { 1: tc["1"] ?? 0, 2: tc["2"] ?? 0 };
  return { melded, one_from_eleven: [1, 2].filter((s) => melded[s] === ELEVEN - 1) };
}

/**
 * What every region reads of frame `f`: {v, m, me, opp, oppName, names, prog, items, deal,
 * testDeal, forced}.  A spectator sees seat 1 at the bottom and seat 2 at the top, both by
 * name.  `forced`: the card just forced on this seat (words.forcedOnMe), never for a
 * spectator.
 * `items` are the frame's `choices` (one per legal action, in the order of view.legal)
 * described for their controls: [{a: §VII text, id: action id, d: describeChoice(...)}];
 * the page sends `id` back and never reads the text.
 */
export function frameContext(f, spectator) {
  const v = f.view;
  const m = f.match || {};
  const me = spectator ? 1 : v.seat;
  const opp = me === 1 ? 2 : 1;
  const oppName = seatName(m, opp);
  const names = spectator ? spectatorNamer(m) : namer(me, oppName);
  const items = (f.choices || []).map((c) => ({ a: c.action, id: c.id, d: describeChoice(c, v, names) }));
  const deal = (f.deal && f.deal.number) || m.deal_number;
  // this deal was dealt from `serve --test-decks` (chosen, not shuffled)
  const testDeal = f.deal && "test" in f.deal ? !!f.deal.test : !!m.test;
  const forced = spectator ? null : forcedOnMe(v);
  return { v, m, me, opp, oppName, names, prog: frameProgress(f), items, deal, testDeal, forced };
}
