// The clocks of a match played on a clock (issue 10): one chip per seat, counting down
// locally from the frame's `deadline_in_ms` (the server's clock; what is shown is only a
// display of it).  The deadline counts the decision's seconds first, then the bank.  The
// chips sit beside the status line (issue 19), so the clock of the seat to act is seen
// where its decision is said, on a phone too.

import { t } from "../i18n.js";
import { h } from "../ui.js";

/** The clock chips' region.  `name(seat)`: how a chip names its seat ("You" | "Ana"). */
export function createClock(name) {
  let base = null; // {at: performance.now() when the frame came, ms: deadline_in_ms, seat, bank, per}
  let timer = null;
  let box = null;

  function tick() {
    if (!base) return;
    for (const s of [1, 2]) {
      const c = box.querySelector(`[data-testid=clock-${s}]`);
      if (!c) continue;
      let secs;
      const running = base.seat === s && base.ms != null;
      if (running) secs = Math.max(0, Math.ceil((base.ms - (performance.now() - base.at)) / 1000));
      else secs = base.per;
      const bank = Math.round(base.bank[String(s)] ?? 0);
      // shown apart, so "4 s (bank 15 s)" is never read as 19 s when only 4 are left
      const inBank = running ? Math.min(bank, secs) : bank;
      const decision = running ? secs - inBank : secs;
      c.dataset.seconds = String(secs);
      c.dataset.running = String(running);
      c.classList.toggle("running", running);
      c.classList.toggle("low", running && secs <= 10);
      c.textContent = running && decision === 0
        ? t("page.clock.in_bank", { who: name(s), s: inBank })
        : t(running ? "page.clock.running" : "page.clock.idle", { who: name(s), s: decision, bank: inBank });
    }
  }

  /** The chips for `m.clock` (none without a clock, nor while the friend has not
   * joined: nothing is timed then), to be placed in `el`; the ticking starts once they
   * are in it (`start`).  `me`: the seat of this page (null for a spectator): its chip is
   * wrapped as `clock-self` (first), the other's as `clock-other`. */
  function chips(el, m, me) {
    const waiting = m.opponent && m.opponent.joined === false;
    const clock = waiting ? null : m.clock || null;
    box = el;
    base = clock ? { at: performance.now(), ms: clock.deadline_in_ms, seat: clock.to_act, bank: clock.bank || {}, per: clock.per_decision } : null;
    if (!clock) return [];
    const seats = me ? [me, me === 1 ? 2 : 1] : [1, 2];
    return seats.map((s) => h("span", { class: "clock-slot", "data-testid": me ? (s === me ? "clock-self" : "clock-other") : null, "data-seat": String(s) },
      h("span", { class: "chip clock", "data-testid": `clock-${s}`, "data-seat": String(s), "data-seconds": "" })));
  }

  function start() {
    tick();
    clearInterval(timer);
    timer = base ? setInterval(tick, 250) : null;
  }

  function close() {
    clearInterval(timer);
  }
  return { chips, start, close };
}
