// "Your matches" in the lobby (issue 20, item 2): the seats this browser holds
// (localStorage, api.js) and, signed in, every live and finished match of the account
// (GET /api/account/matches).  A match of the account held on another device is taken
// here by a click (POST /api/account/matches/{id}/take: its seat token goes into this
// browser's seat store, then the table opens with it; the other device's socket is
// replaced at this one's hello, as with two tabs).  A guest gets, for a live seat, a
// "continue on another device" link (elsewhere.js).  Signing out forgets the account's
// seats in this browser (forgetAccountSeats).

import { api, forgetSeat, loadSeats, saveSeat, seatFor } from "./api.js";
import { continueBox } from "./elsewhere.js";
import { lang, t } from "./i18n.js";
import { profileTitle, seatRating } from "./rating.js";
import { h, toast } from "./ui.js";
import { opponentName, stakesLine } from "./words.js";

/** A match's status in the list (page.status.<status>). */
const statusWords = (status) => t(`page.status.${status}`);

/** "1 Dec 2026, 13:05" in this browser's locale, or "" for a missing date. */
export function shortDate(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString(lang() === "es" ? "es-MX" : "en", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
}

function describeScore(m) {
  const s = m.score || {};
  const me = String(m.seat);
  const them = me === "1" ? "2" : "1";
  const score = `${s[me] ?? 0}–${s[them] ?? 0}`;
  return s.tablas ? t("page.score_with_tablas", { score, tablas: s.tablas }) : score;
}

function formatWords(m) {
  if (m.format === "first_to") return t("page.format.first_to", { n: m.target });
  if (m.format === "stakes") return t("page.format.stakes");
  return t("page.format.tally");
}

/** Take seat `seat` of `matchId` from the signed-in account into this browser's seat
 * store; resolves to the stored entry.  Throws ApiError (seat_not_held, not_signed_in …). */
export async function takeSeat(matchId, seat, opponent) {
  const res = await api("POST", `/api/account/matches/${encodeURIComponent(matchId)}/take`, { body: { seat } });
  saveSeat(res.match_id, { seat: res.seat, token: res.token, opponent, account: true });
  return res;
}

/** For a table this browser holds no seat of: if the signed-in account holds one, take
 * it here.  Resolves true when it did (the caller opens the table again). */
export async function takeHeldSeat(matchId) {
  try {
    const me = await api("GET", "/api/account");
    const held = me.signed_in ? (me.seats || []).find((s) => s.match_id === matchId) : null;
    if (!held) return false;
    await takeSeat(matchId, held.seat, null);
    return !!seatFor(matchId);  // kept (a browser that keeps nothing must not loop)
  } catch {
    return false;
  }
}

/** Forget, in this browser, the seats the signed-in account holds (before signing out:
 * a shared computer keeps none of them; signing in again brings them back). */
export async function forgetAccountSeats() {
  let me;
  try {
    me = await api("GET", "/api/account");
  } catch {
    return;
  }
  const local = loadSeats();
  for (const s of (me && me.seats) || []) {
    if (local[s.match_id] && local[s.match_id].seat === s.seat) forgetSeat(s.match_id);
  }
}

/** The account's matches ({signedIn, matches}); a guest's or a failure: no matches. */
async function accountMatches() {
  try {
    const me = await api("GET", "/api/account");
    if (!me.signed_in) return { signedIn: false, matches: [] };
    const data = await api("GET", "/api/account/matches");
    return { signedIn: true, matches: data.matches || [] };
  } catch {
    return { signedIn: false, matches: [] };
  }
}

/** One row of the list; `ctx`: {list, go, signedIn, refill}. */
function matchItem(m, ctx) {
  const won = m.status === "abandoned" ? t("page.status.abandoned")
    : m.over ? (m.winner === m.seat ? t("page.lobby.you_won") : t("page.lobby.you_lost")) : statusWords(m.status);
  const opp = opponentName(m, m.seat === 1 ? 2 : 1);
  const when = shortDate(m.created_at);
  const balance = m.stakes ? stakesLine(m.stakes, m.seat, opp) : t("page.lobby.score", { score: describeScore(m) });
  const link = h("a", { href: `/table/${m.match_id}`, "data-nav": m.elsewhere ? null : "" }, t("page.lobby.vs", { opp }));
  const tail = [];
  const box = h("div", { class: "continue-box", hidden: true });
  if (m.elsewhere) {
    // held by the account, not (yet) by this browser: a click takes the seat here
    link.addEventListener("click", async (ev) => {
      if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
      ev.preventDefault();
      try {
        await takeSeat(m.match_id, m.seat, (m.opponent || {}).kind || null);
        ctx.go(`/table/${m.match_id}`);
      } catch (err) {
        toast(t("page.mine.take_failed", { why: err.message }), "error");
      }
    });
  } else {
    if (!ctx.signedIn && !m.over) {
      tail.push(h("button", {
        type: "button", class: "btn small", "data-testid": "continue-elsewhere", "aria-expanded": "false",
        onclick: (ev) => continueBox(box, ev.currentTarget, m),
      }, t("page.elsewhere.button")));
    }
    tail.push(h("button", {
      type: "button", class: "btn small remove", "data-testid": "remove-match", "aria-label": when ? t("page.lobby.remove_label_when", { opp, when }) : t("page.lobby.remove_label", { opp }),
      onclick: () => {
        forgetSeat(m.match_id);
        toast(t("page.lobby.removed", { opp }));
        ctx.refill();
      },
    }, t("page.lobby.remove")));
  }
  return h(
    "li", { class: `match-item ${m.status}${m.over ? " over" : ""}`, "data-match": m.match_id, "data-seat": m.seat, "data-elsewhere": m.elsewhere ? "true" : null },
    h("div", { class: "match-main" },
      link, " ", seatRating(m, m.seat === 1 ? 2 : 1) || "", " ", h("strong", { class: "match-state" }, won),
      m.elsewhere ? h("span", { class: "chip elsewhere" }, t("page.mine.elsewhere")) : "",
      h("div", { class: "muted small" },
        when ? h("time", { datetime: m.created_at }, when) : "", when ? " · " : "",
        t("page.lobby.match_line", { rules: profileTitle(m.rules || "gameweave"), format: formatWords(m), n: m.deal_number, balance }))),
    h("div", { class: "match-tools" }, ...tail),
    box,
  );
}

/** This browser's summaries (POST /api/my-matches); throws ApiError. */
async function localMatches(seats) {
  const entries = Object.entries(seats).map(([match_id, v]) => ({ match_id, token: v.token }));
  if (!entries.length) return [];
  const data = await api("POST", "/api/my-matches", { body: { seats: entries.slice(-200) } });
  return data.matches || [];
}

/** Fill the "Your matches" list; a later call wins over an earlier one still loading.
 * `go(path)` opens a page inside the app. */
export async function fillMatches(list, go) {
  const gen = (list.gen = (list.gen || 0) + 1);
  const seats = loadSeats();
  let local;
  let account;
  try {
    [local, account] = await Promise.all([localMatches(seats), accountMatches()]);
  } catch (err) {
    if (gen === list.gen) list.replaceChildren(h("p", { class: "error" }, t("page.lobby.matches_failed", { why: err.message })));
    return;
  }
  if (gen !== list.gen) return;
  const here = new Set(local.map((m) => `${m.match_id}:${m.seat}`));
  const all = [...local, ...account.matches.filter((m) => !here.has(`${m.match_id}:${m.seat}`)).map((m) => ({ ...m, elsewhere: true }))];
  if (!all.length) {
    list.replaceChildren(h("p", { class: "muted" }, t(Object.keys(seats).length || account.signedIn ? "page.lobby.no_matches" : "page.lobby.no_matches_hint")));
    return;
  }
  const matches = all.sort((a, b) => String(b.created_at || "").localeCompare(String(a.created_at || "")));
  const ctx = { go, signedIn: account.signedIn, refill: () => fillMatches(list, go) };
  const ongoing = matches.filter((m) => !m.over);
  const finished = matches.filter((m) => m.over);
  list.replaceChildren(
    account.signedIn ? h("p", { class: "muted small", "data-testid": "my-matches-account" }, t("page.mine.all_devices")) : "",
    h("h3", {}, t("page.lobby.ongoing", { n: ongoing.length })),
    ongoing.length ? h("ul", { class: "matches" }, ongoing.map((m) => matchItem(m, ctx))) : h("p", { class: "muted" }, t("page.lobby.none")),
    h("h3", {}, t("page.lobby.finished", { n: finished.length })),
    finished.length ? h("ul", { class: "matches" }, finished.map((m) => matchItem(m, ctx))) : h("p", { class: "muted" }, t("page.lobby.none")),
  );
}
