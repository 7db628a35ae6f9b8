// A rating beside a name (issue 20): the player's Glicko-2 rating in the match's profile
// (from the frames' `players[n].rating`, GET /api/players, GET /api/leaderboard) or a bot
// level's measured ladder rating.  One look everywhere: `<span data-testid="rating"
// data-rules data-rating>`; a provisional rating (deviation above 110) has a "?" mark.

import { has, t } from "./i18n.js";
import { h } from "./ui.js";

/** The badge of rating `r` ({rules, rating, rd, provisional, ladder}), or null. */
export function ratingBadge(r) {
  if (!r || typeof r.rating !== "number") return null;
  const title = r.ladder ? t("page.rating.ladder_title", { rating: r.rating })
    : r.provisional ? t("page.rating.provisional_title", { rating: r.rating, rd: r.rd }) : t("page.rating.title", { rating: r.rating, rd: r.rd });
  return h("span", {
    class: `rating-badge${r.provisional ? " provisional" : ""}${r.ladder ? " ladder" : ""}`, "data-testid": "rating",
    "data-rules": r.rules || "gameweave", "data-rating": String(r.rating), "data-provisional": r.provisional ? "true" : null,
    title, "aria-label": title,
  }, `${r.rating}${r.provisional ? "?" : ""}`);
}

/** The badge of seat `seat` (1/2) of match object `m` (a frame's `match` or a summary), or null. */
export function seatRating(m, seat) {
  const p = m && m.players && m.players[String(seat)];
  return p ? ratingBadge(p.rating) : null;
}

/** A profile's title in the page's language (profile.<name>.title), else its name. */
export function profileTitle(name) {
  return has(`profile.${name}.title`) ? t(`profile.${name}.title`) : name;
}

/** A bot choice's `<option>` for bot `b` labelled `label`, with the level's ladder rating
 * `rating` beside the name when it was measured (data-testid rating, data-rating). */
export function botOption(b, label, rating) {
  const attrs = rating ? { "data-testid": "rating", "data-rules": "gameweave", "data-rating": String(rating) } : {};
  return h("option", { value: b, ...attrs }, rating ? `${label} · ${rating}` : label);
}
