// The leaderboard page (/leaderboard, issue 20): a tab per rule profile (GET
// /api/profiles), each listing the players rated in it (GET /api/leaderboard?rules=…):
// established players by rating, then provisional ones, marked; and the computer levels'
// measured ladder ratings to compare.  `?rules=` picks the tab.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { profileTitle, ratingBadge } from "./rating.js";
import { h } from "./ui.js";

/** The players of one leaderboard as a table (data-testid leaderboard, rows leaderboard-row). */
function boardTable(d) {
  if (!d.players.length) {
    return h("p", { class: "muted", "data-testid": "leaderboard", "data-rules": d.rules }, t("page.leaderboard.empty"));
  }
  const rows = d.players.map((p) => h("tr", { "data-testid": "leaderboard-row", "data-provisional": p.provisional ? "true" : null },
    h("td", { class: "rank" }, String(p.rank)),
    h("td", { class: "who" }, h("a", { href: `/player/${encodeURIComponent(p.username)}`, "data-nav": "" }, p.username)),
    h("td", { class: "num" }, ratingBadge({ ...p, rules: d.rules })),
    h("td", { class: "num wtl" }, t("page.leaderboard.wtl", { w: p.won, t: p.tablas, l: p.lost }))));
  return h("table", { class: "board", "data-testid": "leaderboard", "data-rules": d.rules },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("page.leaderboard.player")),
      h("th", { scope: "col", class: "num" }, t("page.leaderboard.rating")), h("th", { scope: "col", class: "num" }, h("abbr", { title: t("page.leaderboard.record_title") }, t("page.leaderboard.record"))))),
    h("tbody", {}, rows));
}

/** The computer levels' ladder ratings (`bots` of GET /api/leaderboard). */
function botsList(bots) {
  if (!bots.length) return null;
  return h("section", { class: "bots-ladder" },
    h("h2", {}, t("page.leaderboard.bots")),
    h("ul", { class: "plain" }, bots.map((b) => h("li", { "data-bot": b.bot },
      t(`page.bot_option.${b.bot}`), " ", ratingBadge({ ...b, provisional: false, ladder: true })))),
    h("p", { class: "muted small" }, t("page.leaderboard.bots_note")));
}

/** Render the leaderboard into `main`; returns {close}. */
export function renderLeaderboard(main) {
  document.title = t("page.title.leaderboard");
  const asked = new URLSearchParams(location.search).get("rules") || "gameweave";
  const tabs = h("div", { class: "tabs", role: "tablist", "aria-label": t("page.leaderboard.profiles") });
  const body = h("div", { class: "board-body", role: "tabpanel", "aria-live": "polite" }, h("p", { class: "muted" }, t("page.leaderboard.loading")));
  let closed = false;
  let current = asked;

  function tab(name) {
    return h("button", { type: "button", role: "tab", class: "tab", "data-rules": name, "aria-selected": String(name === current),
      onclick: () => show(name) }, profileTitle(name));
  }

  function show(name) {
    current = name;
    for (const b of tabs.children) b.setAttribute("aria-selected", String(b.dataset.rules === name));
    history.replaceState({}, "", `/leaderboard?rules=${encodeURIComponent(name)}`);
    api("GET", `/api/leaderboard?rules=${encodeURIComponent(name)}`)
      .then((d) => { if (!closed && current === name) body.replaceChildren(boardTable(d), botsList(d.bots || []) || ""); })
      .catch((err) => { if (!closed) body.replaceChildren(h("p", { class: "error" }, err.message)); });
  }

  main.replaceChildren(h("div", { class: "leaderboard-page" },
    h("section", { class: "panel" },
      h("div", { class: "hero-row" }, h("h1", {}, t("page.leaderboard.title")),
        h("a", { class: "btn", href: "/", "data-nav": "" }, t("page.back_to_lobby"))),
      h("p", { class: "muted small" }, t("page.leaderboard.intro")),
      tabs, body)));
  tabs.replaceChildren(tab(current));
  api("GET", "/api/profiles").then((d) => {
    const names = (d.profiles || []).map((p) => p.name);
    if (!closed && names.length) tabs.replaceChildren(...names.map(tab));
    if (!names.includes(current) && names.length) current = names[0];
    show(current);
  }).catch(() => show(current));
  return { close() { closed = true; } };
}
