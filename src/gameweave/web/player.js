// A player's public profile (/player/NAME, issue 20; GET /api/players/{name}): per rule
// profile the rating, a rating-history graph (drawn by chart.js from the server's
// geometry, tables/chart.py rating_geometry: one [data-point] per rated deal), the deals
// won, tablas and lost, the current streak; and the recent matches with a replay link per
// finished deal.  Nothing private is on it (the server gives no token, no live hand).

import { api } from "./api.js";
import { drawChart } from "./chart.js";
import { t, tn } from "./i18n.js";
import { shortDate } from "./mine.js";
import { profileTitle, ratingBadge } from "./rating.js";
import { h } from "./ui.js";

function streakText(n) {
  if (n > 0) return tn("page.player.streak_won", n);
  if (n < 0) return tn("page.player.streak_lost", -n);
  return t("page.player.streak_none");
}

/** One profile's block: rating, counts, streak and the graph. */
function profileBlock(r, name) {
  const { el } = drawChart(r.chart, {
    title: t("page.player.chart_title", { name, profile: profileTitle(r.rules) }), names: () => name,
    stepWord: t("page.player.chart_axis"), testid: "profile-chart", yText: (v) => String(Math.round(v)),
    pointTitle: (p) => t("page.player.point", { n: p.step, rating: p.rating }),
    pointAttrs: (p) => ({ "data-point": String(p.step), "data-rating": String(p.rating) }),
  });
  el.dataset.rules = r.rules;
  return h("section", { class: "panel profile-block", "data-rules": r.rules },
    h("div", { class: "hero-row" }, h("h2", {}, profileTitle(r.rules)), ratingBadge(r)),
    r.provisional ? h("p", { class: "muted small" }, t("page.player.provisional")) : "",
    h("p", { class: "player-counts", "data-testid": "player-counts" },
      tn("page.player.counts", r.deals, { w: r.won, t: r.tablas, l: r.lost }), " · ", streakText(r.streak)),
    h("div", { class: "chart-box" }, el));
}

function resultWords(m, d) {
  if (d.status === "playing") return t("page.player.deal_playing");
  if (d.status === "abandoned") return t("page.status.abandoned");
  if (d.status === "tablas") return t("page.player.deal_tablas");
  return d.winner === m.seat ? t("page.player.deal_won") : t("page.player.deal_lost");
}

/** The recent matches, each deal with its replay link once finished. */
function matchesBlock(matches) {
  if (!matches.length) return h("p", { class: "muted" }, t("page.player.no_matches"));
  return h("ul", { class: "matches player-matches" }, matches.map((m) => h("li", { class: "match-item", "data-match": m.match_id },
    h("div", { class: "match-main" },
      h("strong", {}, t("page.lobby.vs", { opp: m.opponent ? (m.bot ? t(`page.bot_option.${m.opponent}`) : m.opponent) : t("page.player.anonymous") })),
      " ", h("span", { class: "chip small" }, m.rated ? t("page.player.rated") : t("page.player.casual")),
      h("div", { class: "muted small" }, shortDate(m.created_at), " · ", profileTitle(m.rules))),
    h("ul", { class: "deal-links plain" }, m.deals.map((d) => h("li", {},
      d.replay ? h("a", { href: d.replay, "data-nav": "", "data-testid": "profile-replay" }, t("page.player.deal", { n: d.number }), " — ", resultWords(m, d))
        : h("span", {}, t("page.player.deal", { n: d.number }), " — ", resultWords(m, d))))))));
}

/** Render the profile of `name` into `main`; returns {close}. */
export function renderPlayer(main, name) {
  document.title = t("page.title.player", { name });
  let closed = false;
  main.replaceChildren(h("section", { class: "panel" }, h("p", { class: "muted" }, t("page.leaderboard.loading"))));
  api("GET", `/api/players/${encodeURIComponent(name)}`).then((p) => {
    if (closed) return;
    document.title = t("page.title.player", { name: p.username });
    main.replaceChildren(h("div", { class: "player-page", "data-player": p.username },
      h("section", { class: "panel" },
        h("div", { class: "hero-row" }, h("h1", { "data-testid": "player-name" }, p.username),
          h("span", { class: "hero-links" }, h("a", { class: "btn", href: "/leaderboard", "data-nav": "" }, t("page.leaderboard.link")),
            h("a", { class: "btn", href: "/", "data-nav": "" }, t("page.back_to_lobby")))),
        p.ratings.length ? "" : h("p", { class: "muted" }, t("page.player.unrated"))),
      ...p.ratings.map((r) => profileBlock(r, p.username)),
      h("section", { class: "panel" }, h("h2", {}, t("page.player.recent")), matchesBlock(p.matches))));
  }).catch((err) => {
    if (closed) return;
    main.replaceChildren(h("section", { class: "panel" }, h("h1", {}, t("page.player.none")),
      h("p", { class: "error" }, err.message), h("p", {}, h("a", { class: "btn", href: "/leaderboard", "data-nav": "" }, t("page.leaderboard.link")))));
  });
  return { close() { closed = true; } };
}
