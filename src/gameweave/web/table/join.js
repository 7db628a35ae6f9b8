// The pages before a table: the invite page, where a friend gives a name and takes seat
// 2, and the page of a table this browser holds no seat of (or that does not exist).

import { api, ApiError, saveSeat, seatFor } from "../api.js";
import { t } from "../i18n.js";
import { takeHeldSeat } from "../mine.js";
import { notice, unlessNoMatch } from "../notfound.js";
import { h } from "../ui.js";
import { nameProblem } from "../words.js";

/** /table/{id} in a browser that holds no seat of the match: "no such match" if the
 * server knows none (`unlessNoMatch`); else a seat the signed-in account holds is taken
 * here, or the page says "this browser holds no seat". */
export function noSeatPage(main, matchId) {
  return unlessNoMatch(main, matchId, (closed) => {
    // signed in, the account may hold a seat of it (taken on another device): take it here
    takeHeldSeat(matchId).then((took) => {
      if (closed()) return;
      if (took) window.dispatchEvent(new PopStateEvent("popstate"));  // open the table again, now with the seat
      else notice(main, "no-seat", t("page.no_seat.title"), t("page.no_seat.text", { id: matchId }));
    });
  });
}

/** /join/{id}/{invite}: ask the friend's name, take seat 2 (once), remember it, then open
 * the table with `open(main, matchId, ctx)`. */
export function joinAndOpen(main, matchId, invite, ctx, open) {
  let inner = null;
  let closed = false;
  const mine = seatFor(matchId);
  if (mine) {
    history.replaceState({}, "", `/table/${matchId}`);
    return open(main, matchId, ctx);
  }
  document.title = t("page.title.join");
  main.replaceChildren(h("section", { class: "panel" }, h("p", {}, t("page.join.checking"))));
  const path = `/api/matches/${encodeURIComponent(matchId)}`;
  const fail = (err) => {
    if (closed) return;
    main.replaceChildren(
      h("section", { class: "panel" },
        h("h1", {}, t("page.join.failed")),
        h("p", { class: "error", "data-testid": "join-error" }, err.message),
        h("p", {}, h("a", { href: "/", "data-nav": "", class: "btn primary" }, t("page.go_to_lobby")))),
    );
  };
  // Ask first (always 200) so that a used or wrong invite is explained without a refused
  // request, which the browser would log as an error in its console.
  api("POST", `${path}/invite-status`, { body: { invite } })
    .then((st) => {
      if (!st.open) throw new ApiError(200, st.code, st.code, st.params || {});
      if (closed) return;
      let saved = "";
      try { saved = (JSON.parse(localStorage.getItem("gameweave.lobby") || "{}") || {}).name || ""; } catch { saved = ""; }
      const input = h("input", { type: "text", id: "join-name", "data-testid": "name-input", maxlength: 96, autocomplete: "nickname",
        value: saved, placeholder: t("page.name_placeholder"), "aria-describedby": "join-problem" });
      const problem = h("p", { class: "error small", id: "join-problem", role: "alert", hidden: true });
      const btn = h("button", { type: "submit", class: "btn primary", "data-testid": "join-seat" }, t("page.join.take_seat"));
      const form = h("form", { class: "panel join-form" },
        h("h1", {}, t("page.join.title")),
        h("p", {}, t("page.join.text")),
        st.hints ? h("p", { class: "notice join-hints", "data-testid": "join-hints" }, t("page.join.hints")) : "",
        h("div", { class: "name-row" }, h("label", { for: "join-name" }, t("page.your_name")), input),
        problem, h("p", {}, btn));
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const why = nameProblem(input.value);
        if (why) {
          problem.textContent = why;
          problem.hidden = false;
          input.focus();
          return;
        }
        btn.disabled = true;
        const name = input.value.trim();
        api("POST", `${path}/join`, { body: { invite, name: name || null } })
          .then((res) => {
            saveSeat(res.match_id, { seat: res.seat, token: res.token, opponent: "friend" });
            if (closed) return;
            history.replaceState({}, "", res.table_url || `/table/${res.match_id}`);
            inner = open(main, res.match_id, ctx);
          })
          .catch((err) => {
            if (err.code === "bad_name") {
              btn.disabled = false;
              problem.textContent = err.message;
              problem.hidden = false;
              return;
            }
            fail(err);
          });
      });
      main.replaceChildren(form);
      input.focus();
    })
    .catch(fail);
  return { close() { closed = true; if (inner) inner.close(); } };
}
