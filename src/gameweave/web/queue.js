// Quick match (issue 20; PROTOCOL §3.16): join the queue for the lobby's rules and
// clock, follow the ticket on the lobby feed (told at once when paired, on any node),
// cancel, and after a minute alone an offer to play the computer.  The ticket lives in
// sessionStorage ("gameweave.queue"), so a reload or a dropped socket keeps the place.
// Every entry carries this browser's key ("gameweave.browser"): its tabs never meet.

import { api, saveSeat } from "./api.js";
import { t } from "./i18n.js";
import { h, toast } from "./ui.js";

const TICKET_KEY = "gameweave.queue";
const PING_MS = 5000;
/** Seconds alone before the computer is offered (localStorage gameweave.queue_offer_s
 * may shorten it, for the tests). */
function offerAfter() {
  const v = Number(localStorage.getItem("gameweave.queue_offer_s"));
  return Number.isFinite(v) && v > 0 ? v : 60;
}

/** 16 random bytes as hex. */
function randomHex() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** This browser's queue key (PROTOCOL §3.16 `browser`): a random id made once and kept in
 * localStorage ("gameweave.browser"); it is nothing but that (no seat's or account's
 * secret).  The server never pairs two entries with one key, so two tabs of this
 * browser that queue at the same moment are not paired with each other even when
 * neither has seen the other's mark yet (tabs see each other's localStorage writes late).
 * Read again at every use: two tabs that each made one at once agree on the one kept. */
const BROWSER_KEY = "gameweave.browser";
const pageKey = randomHex();  // where localStorage is refused (private mode): this page's own
function browserKey() {
  try {
    const kept = localStorage.getItem(BROWSER_KEY);
    if (/^[0-9a-f]{32}$/.test(kept || "")) return kept;
    localStorage.setItem(BROWSER_KEY, pageKey);
  } catch { /* private mode */ }
  return pageKey;
}

/** Another tab of this browser waiting in the queue (its mark in localStorage, set before
 * its POST and renewed at every ping): a second tab does not queue too.  The server's
 * browser key is the guard; this mark spares the second tab an entry it cannot use. */
const HERE_KEY = "gameweave.queue_here";
const TAB = randomHex();  // this page's own id in the mark
function markHere(on) {
  try {
    if (on) localStorage.setItem(HERE_KEY, JSON.stringify({ tab: TAB, at: Date.now() }));
    else if ((JSON.parse(localStorage.getItem(HERE_KEY) || "null") || {}).tab === TAB) localStorage.removeItem(HERE_KEY);
  } catch { /* private mode */ }
}
function waitingElsewhere() {
  try {
    const mark = JSON.parse(localStorage.getItem(HERE_KEY) || "null");
    return !!(mark && mark.tab !== TAB && Date.now() - mark.at < 3 * PING_MS);
  } catch { return false; }
}

function stored() {
  try { return JSON.parse(sessionStorage.getItem(TICKET_KEY) || "null"); } catch { return null; }
}
function store(v) {
  try {
    if (v) sessionStorage.setItem(TICKET_KEY, JSON.stringify(v));
    else sessionStorage.removeItem(TICKET_KEY);
  } catch { /* private mode */ }
}

/**
 * The queue's box.  `choices()` -> the lobby's settings or null; `rated()` -> whether
 * to queue rated; `send(obj)` sends on the lobby feed; `go(path)` navigates.  Returns
 * {el, start, resume, frame(f), close}.
 */
export function queueBox({ choices, go, rated, send }) {
  let entry = stored();
  let ping = null;
  const line = h("p", { class: "queue-line", "data-testid": "queue-status", role: "status" });
  const cancelBtn = h("button", { type: "button", class: "btn small", "data-testid": "cancel-queue", onclick: () => cancel() }, t("page.queue.cancel"));
  const botBtn = h("button", { type: "button", class: "btn small primary", "data-testid": "queue-bot", hidden: true, onclick: () => playBot() }, t("page.queue.play_bot"));
  const lonelyLine = h("p", { class: "muted small queue-lonely", hidden: true }, t("page.queue.lonely"));
  const el = h("div", { class: "queue-box", hidden: true }, line, lonelyLine, h("div", { class: "queue-buttons" }, cancelBtn, botBtn));

  let last = null;  // the last waiting frame and when it came: the seconds run on between frames
  let tick = null;

  function draw() {
    if (!last) return;
    const waited = Math.round((last.f.waited_s || 0) + (Date.now() - last.at) / 1000);
    // the window as the server widens it: ±100, +10 a second, up to ±400
    const win = Math.min(400, Math.max(last.f.window || 100, 100 + 10 * waited));
    const lonely = waited >= offerAfter();
    line.textContent = last.f.rated ? t("page.queue.waiting_rated", { s: waited, window: win }) : t("page.queue.waiting", { s: waited });
    botBtn.hidden = lonelyLine.hidden = !lonely;
  }

  function show(f) {
    el.hidden = false;
    cancelBtn.hidden = false;
    last = { f, at: Date.now() };
    draw();
    if (!tick) tick = setInterval(draw, 1000);
  }

  function stop() {
    markHere(false);
    entry = null;
    last = null;
    store(null);
    clearInterval(ping);
    clearInterval(tick);
    ping = tick = null;
    el.hidden = true;
  }

  function follow() {
    if (!entry) return;
    send({ type: "follow", ticket: entry.ticket });
    markHere(true);
    clearInterval(ping);
    ping = setInterval(() => { send({ type: "ping" }); if (entry) markHere(true); }, PING_MS);
  }

  window.addEventListener("pagehide", () => markHere(false));  // a closed tab waits nowhere (a reload marks again)
  window.addEventListener("storage", (ev) => {
    // the other tab waiting stopped (paired, cancelled, closed): its "other tab" notice here goes
    if (ev.key === HERE_KEY && !entry && !starting && !waitingElsewhere()) el.hidden = true;
  });
  browserKey();  // made now, long before a click: two tabs opened later read the same one

  let starting = false;  // a second click (or a double click) while the first is on its way joins nothing
  async function start() {
    if (entry || starting) return;
    const c = choices();
    if (!c) return;
    if (waitingElsewhere()) {
      line.textContent = t("page.queue.other_tab");
      cancelBtn.hidden = botBtn.hidden = lonelyLine.hidden = true;  // nothing of this tab's to cancel
      el.hidden = false;
      return;
    }
    starting = true;
    markHere(true);  // before the POST: a second tab clicking meanwhile sees this one
    try {
      const body = { rules: c.rules, clock: c.clock, rated: rated(), name: c.name || null, browser: browserKey() };
      const res = await api("POST", "/api/queue", { body });
      entry = { ticket: res.ticket, rules: c.rules, clock: c.clock };
      store(entry);
      show(res);
      follow();
    } catch (err) {
      markHere(false);
      if (err.code === "already_queued") line.textContent = t("error.already_queued");
      else toast(t("page.queue.failed", { why: err.message }), "error");
      el.hidden = false;
    } finally {
      starting = false;
    }
  }

  async function cancel() {
    if (!entry) return;
    const { ticket } = entry;
    try {
      const res = await api("POST", "/api/queue/cancel", { body: { ticket } });
      if (res.status === "paired") { frame({ type: "queue", ...res }); return; }
    } catch { /* unknown now: it is gone either way */ }
    stop();
    toast(t("page.queue.cancelled"));
  }

  async function playBot() {
    const c = (entry && { rules: entry.rules, clock: entry.clock }) || choices() || {};
    await cancel();
    try {
      const res = await api("POST", "/api/matches", { body: { opponent: "bot", rules: c.rules || "gameweave", clock: c.clock ?? null } });
      saveSeat(res.match_id, { seat: res.seat, token: res.token, opponent: "bot" });
      go(res.table_url);
    } catch (err) {
      toast(t("page.lobby.start_failed", { why: err.message }), "error");
    }
  }

  /** A `queue` (or `error`) frame from the lobby feed. */
  function frame(f) {
    if (!entry) return;
    if (f.type === "error") {
      if (f.code === "unknown_ticket") stop();
      return;
    }
    if (f.status === "paired" && f.match_id && !f.token) {  // paired long ago: its token is no longer kept
      stop();
      toast(t("page.queue.expired"));
    } else if (f.status === "paired" && f.match_id) {
      saveSeat(f.match_id, { seat: f.seat, token: f.token, opponent: "friend" });
      stop();
      go(f.table_url || `/table/${f.match_id}`);
    } else if (f.status === "waiting") {
      show(f);
    } else {
      stop();
      if (f.status === "gone") toast(t("page.queue.gone"));
    }
  }

  return { el, start, resume: follow, frame, close() { clearInterval(ping); clearInterval(tick); } };
}
