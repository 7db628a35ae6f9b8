// "Play someone new" in the lobby (issue 20): the live list of open tables (the lobby
// feed, /ws/lobby, PROTOCOL §3.17), opening one, sitting at one, and the quick-match
// queue (queue.js).  The settings (rules, format, clock, name) are the lobby's.

import { api, loadSeats, saveSeat, seatFor } from "./api.js";
import { t } from "./i18n.js";
import { queueBox } from "./queue.js";
import { profileTitle } from "./rating.js";
import { h, toast } from "./ui.js";

const RATED_KEY = "gameweave.rated";

/** The lobby feed: one socket, opened again after a drop; `on(frame)` gets every frame.
 * `.send(obj)` while open; `.close()`. */
export function lobbySocket(on) {
  let ws = null;
  let closed = false;
  let wait = 500;
  let opened = () => {};
  function open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/lobby`);
    ws.onopen = () => { wait = 500; opened(); };
    ws.onmessage = (ev) => {
      try { on(JSON.parse(ev.data)); } catch { /* a frame we cannot read: ignored */ }
    };
    ws.onclose = () => {
      if (closed) return;
      setTimeout(open, wait);
      wait = Math.min(wait * 2, 5000);
    };
  }
  open();
  return {
    send(obj) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj)); },
    onOpen(fn) { opened = fn; },
    close() { closed = true; if (ws) ws.close(); },
  };
}


function formatText(row) {
  if (row.format === "first_to") return t("page.format.first_to", { n: row.target });
  return row.format === "stakes" ? t("page.format.stakes") : t("page.format.tally");
}

function clockText(clock) {
  return clock ? t("page.clock.per_decision", { s: clock }) : t("page.clock.none");
}

/** The line under a table's name: rules · format · clock · rated or casual. */
export function settingsLine(row) {
  return [profileTitle(row.rules), formatText(row), clockText(row.clock), row.rated ? t("page.open.rated") : t("page.open.casual")].join(" · ");
}

/**
 * The "Play someone new" panel.  `choices()` -> the lobby's settings ({rules, format,
 * target, stake, tablas_stake, clock, name}) or null (a problem is shown there);
 * `go(path)` navigates.  Returns {el, close}.
 */
export function meetPanel({ choices, go }) {
  const tables = new Map();
  let signedIn = false;
  const list = h("ul", { class: "open-list", "data-testid": "open-tables", "aria-live": "polite" });
  const notice = h("p", { class: "open-notice small", role: "status", "data-testid": "open-notice", hidden: true });
  const rated = h("input", { type: "checkbox", id: "rated-toggle", "data-testid": "rated-toggle" });
  rated.checked = false;  // a guest plays casual; signed in, the last choice (default on)
  rated.addEventListener("change", () => localStorage.setItem(RATED_KEY, rated.checked ? "1" : "0"));
  const ratedNote = h("span", { class: "muted small" });
  const isRated = () => signedIn && rated.checked;

  function say(key, params) {
    notice.textContent = t(key, params);
    notice.hidden = false;
  }

  function render() {
    const mine = loadSeats();
    const rows = [...tables.values()].sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
    if (!rows.length) {
      list.replaceChildren(h("li", { class: "muted open-empty" }, t("page.open.none")));
      return;
    }
    list.replaceChildren(...rows.map((row) => {
      const own = mine[row.match_id] && mine[row.match_id].seat === 1;
      const who = row.name || t("page.open.someone");
      const action = own
        ? h("a", { class: "btn small", href: `/table/${row.match_id}`, "data-nav": "", "data-testid": "open-mine" }, t("page.open.yours"))
        : h("button", { type: "button", class: "btn small primary", "data-testid": "sit", onclick: () => sit(row) }, t("page.open.sit"));
      return h("li", { class: "open-table", "data-testid": "open-table", "data-match": row.match_id },
        h("div", { class: "open-main" },
          h("strong", {}, who), row.rating != null ? h("span", { class: "muted" }, ` (${row.rating})`) : "",
          h("div", { class: "muted small" }, settingsLine(row))),
        action);
    }));
  }

  async function sit(row) {
    await account;  // a click before /api/account answered must not read "not signed in"
    if (row.rated && !signedIn) {
      say("page.open.rated_needs_account");
      return;
    }
    const c = choices({ quiet: true }) || {};
    try {
      const res = await api("POST", `/api/open-tables/${encodeURIComponent(row.match_id)}/sit`, { body: { name: c.name || null } });
      if (res.seated) {
        saveSeat(res.match_id, { seat: 2, token: res.token, opponent: "friend" });
        go(res.table_url);
        return;
      }
      // someone sat first (or it was withdrawn): an answer, worded here
      tables.delete(row.match_id);
      render();
      say(res.code === "table_gone" ? "page.open.gone" : "page.open.taken");
    } catch (err) {
      say("page.open.failed", { why: err.message });
    }
  }

  let creating = false;  // a double click opens one table, not two
  async function create() {
    const c = choices();
    if (!c || creating) return;
    creating = true;
    try {
      await account;  // rated or not is known only once the account answered
      const res = await api("POST", "/api/open-tables", { body: { ...c, rated: isRated() } });
      saveSeat(res.match_id, { seat: 1, token: res.token, opponent: "friend" });
      go(res.table_url);
    } catch (err) {
      toast(t("page.lobby.start_failed", { why: err.message }), "error");
    } finally {
      creating = false;
    }
  }

  const queue = queueBox({ choices, go, rated: isRated, send: (obj) => feed.send(obj) });
  const feed = lobbySocket((f) => {
    if (f.type === "open_tables") {
      tables.clear();
      for (const row of f.tables || []) tables.set(row.match_id, row);
      render();
    } else if (f.type === "open_table" && f.table) {
      tables.set(f.table.match_id, f.table);
      render();
    } else if (f.type === "open_table_gone") {
      tables.delete(f.match_id);
      render();
    } else if (f.type === "queue" || f.type === "error") {
      queue.frame(f);
    }
  });
  feed.onOpen(() => queue.resume());

  const account = api("GET", "/api/account").then((a) => {
    signedIn = !!a.signed_in;
    rated.disabled = !signedIn;
    rated.checked = signedIn && localStorage.getItem(RATED_KEY) !== "0";
    ratedNote.replaceChildren(signedIn ? "" : h("a", { href: "/account", "data-nav": "" }, t("page.open.sign_in_for_rated")));
  }).catch(() => {});
  rated.disabled = true;
  render();

  const el = h("section", { class: "panel meet", "data-testid": "meet" },
    h("h2", {}, t("page.open.title")),
    h("p", { class: "muted small" }, t("page.open.intro")),
    h("div", { class: "rated-row" }, h("label", { for: "rated-toggle" }, rated, " ", t("page.open.rated_toggle")), " ", ratedNote),
    h("div", { class: "meet-buttons" },
      h("button", { type: "button", class: "btn primary", "data-testid": "quick-match", onclick: () => account.then(() => queue.start()) }, t("page.queue.start")),
      h("button", { type: "button", class: "btn", "data-testid": "create-open", onclick: create }, t("page.open.create"))),
    queue.el,
    h("h3", {}, t("page.open.list")),
    notice,
    list);
  return { el, close() { feed.close(); queue.close(); } };
}

/** The creator's table while its open table waits (match.open_table): what it waits
 * for, and a button that withdraws it (POST /api/open-tables/{id}/cancel). */
export function openWaiting(m) {
  const seat = seatFor(m.id);
  const withdraw = h("button", {
    type: "button", class: "btn small", "data-testid": "cancel-open",
    onclick: async () => {
      try {
        await api("POST", `/api/open-tables/${encodeURIComponent(m.id)}/cancel`, { token: seat && seat.token });
        toast(t("page.open.withdrawn"));
      } catch (err) {
        toast(t("page.open.failed", { why: err.message }), "error");
      }
    },
  }, t("page.open.withdraw"));
  return [h("p", { "data-testid": "open-waiting" }, t("page.open.waiting_sit")), h("p", { class: "muted small" }, t("page.open.waiting_note")), withdraw];
}
