// The "nothing here" view: no page at this address, no such deal, or a watch or seat link
// that the server refused; with the way back to the lobby.

import { matchUnknown } from "./api.js";
import { t } from "./i18n.js";
import { h } from "./ui.js";

/** Replace `main` with a panel of `title` and `text` (already in the reader's language)
 * and the way back to the lobby; `testid` names the panel for tests, `cls` adds classes. */
export function notice(main, testid, title, text, cls = "") {
  main.replaceChildren(
    h("section", { class: `panel ${cls}`.trim(), "data-testid": testid },
      h("h1", {}, title),
      h("p", {}, text),
      h("p", {}, h("a", { href: "/", "data-nav": "", class: "btn primary", "data-testid": "back-to-lobby" }, t("page.back_to_lobby")))),
  );
}

/** Replace `main` with the "nothing here" panel saying `text` (already in the reader's
 * language). */
export function nothingHere(main, text) {
  document.title = t("page.title.not_found");
  notice(main, "not-found", t("page.no_such_page"), text, "not-found");
}

/** A page of match `matchId` that this browser holds no seat of: "loading", then, once
 * the server has said whether the match exists (`matchUnknown`), "no such match" or
 * `known(closed)` (`closed()` true once the page was left).  Returns the page's
 * `{close()}`. */
export function unlessNoMatch(main, matchId, known) {
  let closed = false;
  main.replaceChildren(h("section", { class: "panel" }, h("p", {}, t("page.loading"))));
  matchUnknown(matchId).then((unknown) => {
    if (closed) return;
    if (!unknown) return known(() => closed);
    document.title = t("page.title.not_found");
    notice(main, "no-match", t("page.no_match.title"), t("page.no_match.text", { id: matchId }));
  });
  return { close() { closed = true; } };
}
