// The status region: whose turn it is and what they decide, in words (the tab's title
// and icon say when it is this seat's turn), and the notice of a card just forced on this
// seat (R15, R18e, R19).

import { clearTurn, markTurn } from "../attention.js";
import { cardRow, short } from "../cards.js";
import { t } from "../i18n.js";
import { h } from "../ui.js";
import { statusText } from "../words.js";

/** The friend has not taken seat 2 yet (nothing of theirs is decided or timed meanwhile). */
const notJoined = (m) => !!(m.opponent && m.opponent.kind === "person" && m.opponent.joined === false);

/** el: {status, notice}. */
export function render(el, f, { v, m, me, names, oppName, forced, spectator, baseTitle }) {
  const waitJoin = notJoined(m) && v.status === "playing" && (spectator || v.to_act !== me);
  el.status.textContent = waitJoin ? t("page.table.waiting_join", { who: spectator ? names.who(2) : oppName })
    : statusText(v, names, { choices: f.choices || [] });
  el.status.classList.toggle("mine", !spectator && v.to_act === me);
  markTurn(!spectator && v.status === "playing" && v.to_act === me, baseTitle);
  if (!forced) {
    el.notice.hidden = true;
    el.notice.replaceChildren();
    return;
  }
  el.notice.hidden = false;
  el.notice.replaceChildren(...(forced.pending
    ? [
      h("strong", {}, t("page.forced.title")), " ",
      t(`page.forced.pending.${forced.how}`, { opp: oppName, card: short(forced.card) }), " ",
      t("page.forced.meld_it"),
    ]
    : [
      h("strong", {}, t("page.forced.title")), " ",
      t(`page.forced.onto.${forced.how}`, { opp: oppName, card: short(forced.card) }), " ",
      cardRow(forced.meld, { size: "xs", highlight: forced.card }),
      " ", t("page.forced.now_throw"),
    ]));
}

/** Another tab or window holds the seat: the status line says so, and the tab's title
 * and icon no longer say it is this seat's turn (`title`: the table's plain title). */
export function replaced(el, title) {
  el.status.textContent = t("page.table.replaced");
  el.status.classList.remove("mine");
  markTurn(false, title);
}

/** The table is closed: the tab's title and icon no longer say whose turn it is. */
export function close() {
  clearTurn(t("page.title.lobby"));
}
