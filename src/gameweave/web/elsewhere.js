// "Continue on another device" (issue 20, item 2): a guest's seat travels as a link,
// /continue/{match_id}#seat=N&token=T (PROTOCOL §3.14).  The secret rides in the
// fragment, which a browser never sends to a server (not in the request, not in a
// Referer), so it cannot land in a server's or a proxy's log.  The link is shown only
// when asked for, says that it carries the seat's secret, and opening it in another
// browser puts the seat there (its socket then replaces this one, as two tabs do).

import { api, saveSeat, seatFor } from "./api.js";
import { t } from "./i18n.js";
import { h, toast } from "./ui.js";

const TOKEN = /^[0-9a-f]{64}$/;
const MATCH = /^[0-9a-f]{16}$/;

/** The link that carries seat `seat` of `matchId` with its `token`. */
export function continueUrl(matchId, seat, token) {
  return `${location.origin}/continue/${matchId}#seat=${seat}&token=${token}`;
}

/** Show (or hide again) the link for lobby summary `m` in `box`; `button` toggles it. */
export function continueBox(box, button, m) {
  if (!box.hidden) {
    box.hidden = true;
    box.replaceChildren();
    button.setAttribute("aria-expanded", "false");
    return;
  }
  const mine = seatFor(m.match_id);
  if (!mine || typeof mine.token !== "string") return;
  const url = continueUrl(m.match_id, mine.seat, mine.token);
  const input = h("input", { type: "text", readonly: true, value: url, class: "invite-input", "data-testid": "continue-link", "aria-label": t("page.elsewhere.link_label") });
  input.addEventListener("focus", () => input.select());
  const copy = () => Promise.resolve().then(() => navigator.clipboard.writeText(url))
    .then(() => toast(t("page.copied")), () => toast(t("page.copy_by_hand")));
  box.replaceChildren(
    h("p", { class: "warning small", "data-testid": "continue-secret" }, t("page.elsewhere.secret")),
    h("div", { class: "invite-row" }, input, h("button", { type: "button", class: "btn small", onclick: copy }, t("page.copy_link"))),
  );
  box.hidden = false;
  button.setAttribute("aria-expanded", "true");
  input.focus();
}

/** The seat a /continue link's fragment names, or null for a mangled one. */
export function parseFragment(hash) {
  const p = new URLSearchParams(String(hash || "").replace(/^#/, ""));
  const seat = Number(p.get("seat"));
  const token = p.get("token") || "";
  return (seat === 1 || seat === 2) && TOKEN.test(token) ? { seat, token } : null;
}

/** Open the table at `path` in place of this page (Back does not return to the link). */
function replaceWith(path) {
  history.replaceState({}, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

/** /continue/{id}#seat=N&token=T: check the seat with the server (the token goes in the
 * Authorization header, never in an address), keep it in this browser, open the table.
 * Returns {close}. */
export function openContinue(main, matchId) {
  const claim = parseFragment(location.hash);
  // the secret leaves the address bar (and this history entry) at once
  history.replaceState({}, "", `/continue/${encodeURIComponent(matchId)}`);
  let closed = false;
  const panel = (testid, title, text) => main.replaceChildren(h("section", { class: "panel", "data-testid": testid },
    h("h1", {}, title), h("p", {}, text),
    h("p", {}, h("a", { href: "/", "data-nav": "", class: "btn primary" }, t("page.back_to_lobby")))));
  const held = seatFor(matchId);
  if (held && claim && held.token === claim.token) {
    replaceWith(`/table/${matchId}`);
    return { close() {} };
  }
  if (!claim || !MATCH.test(matchId)) {
    panel("continue-bad", t("page.elsewhere.bad_title"), t("page.elsewhere.bad_text"));
    return { close() {} };
  }
  if (held) {
    // this browser holds the other seat of the match: keep it (a link does not overwrite it)
    panel("continue-bad", t("page.elsewhere.other_title"), t("page.elsewhere.other_text", { seat: held.seat }));
    return { close() {} };
  }
  main.replaceChildren(h("section", { class: "panel" }, h("p", {}, t("page.loading"))));
  api("GET", `/api/matches/${encodeURIComponent(matchId)}`, { token: claim.token }).then((s) => {
    if (closed) return;
    if (s.seat !== claim.seat) throw new Error("seat");
    saveSeat(matchId, { seat: s.seat, token: claim.token, opponent: (s.opponent || {}).kind || null });
    toast(t("page.elsewhere.taken"));
    replaceWith(`/table/${matchId}`);
  }).catch(() => {
    if (!closed) panel("continue-bad", t("page.elsewhere.bad_title"), t("page.elsewhere.bad_text"));
  });
  return { close() { closed = true; } };
}
