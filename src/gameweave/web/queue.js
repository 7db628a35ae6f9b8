// Quick match (issue 20; PROTOCOL §3.16): join the queue for the lobby's rules and
// clock, follow the ticket on the lobby feed (told at once when paired, on any node),
// cancel, and after a minute alone an offer to play the computer.  The ticket lives in
// sessionStorage ("gameweave.queue"), so a reload or a dropped socket keeps the place.

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

/** Another tab of this browser waiting in the queue (its mark in localStorage, renewed at
 * every ping): a second tab does not queue too, or the two tabs would be paired with each
 * other (a guest has no account to tell them apart). */
const HERE_KEY = "gameweave.queue_here";
function markHere(ticket) {
  try {
    if (ticket) localStorage.setItem(HERE_KEY, JSON.stringify({ ticket, at: Date.now() }));
    else if ((JSON.parse(localStorage.getItem(HERE_KEY) || "null") || {}).ticket === (stored() || {}).ticket) {
      localStorage.removeItem(HERE_KEY);
    }
  } catch { /* private mode */ }
}
function waitingElsewhere() {
  try {
    const mark = JSON.parse(localStorage.getItem(HERE_KEY) || "null");
    return !!(mark && mark.ticket !== (stored() || {}).ticket && Date.now() - mark.at < 3 * PING_MS);
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
    markHere(null);
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
    markHere(entry.ticket);
    clearInterval(ping);
    ping = setInterval(() => { send({ type: "ping" }); if (entry) markHere(entry.ticket); }, PING_MS);
  }

  window.addEventListener("pagehide", () => markHere(null));  // a closed tab waits nowhere (a reload marks again)

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
    try {
      const res = await api("POST", "/api/queue", { body: { rules: c.rules, clock: c.clock, rated: rated(), name: c.name || null } });
      entry = { ticket: res.ticket, rules: c.rules, clock: c.clock };
      store(entry);
      show(res);
      follow();
    } catch (err) {
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
