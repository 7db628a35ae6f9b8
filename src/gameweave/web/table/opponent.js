// The opponent's seat (seat 2 for a spectator): its name, how many cards it holds, its
// progress, and its hand as backs, or face up once the deal is over (R21).

import { backEl, cardRow, spokenList } from "../cards.js";
import { t, tn } from "../i18n.js";
import { h } from "../ui.js";
import { seatBadges } from "./badges.js";

/** el: {oppName, oppHand}. */
export function render(el, f, { v, opp, oppName, prog, spectator }) {
  const oppCount = (v.hand_counts || {})[String(opp)] ?? 0;
  el.oppName.replaceChildren(oppName, h("span", { class: "muted small" }, tn("page.table.cards_in_hand", oppCount)), ...seatBadges(opp, prog));
  const oppHand = spectator ? (v.hands ? v.hands[String(opp)] : null) : v.opponent_hand;
  if (oppHand) {
    // The deal is over: their hand face up, here only (the result box points to it).
    el.oppHand.classList.add("revealed");
    el.oppHand.replaceChildren(
      h("span", { class: "hand-label", "aria-hidden": "true" }, t("page.table.face_up", { who: oppName })),
      oppHand.length ? cardRow(oppHand, { size: "sm" }) : h("p", { class: "muted empty" }, t("page.table.no_cards_left")),
    );
    el.oppHand.setAttribute("aria-label", oppHand.length ? t("page.table.hand_label", { who: oppName, cards: spokenList(oppHand) }) : t("page.table.no_cards_label", { who: oppName }));
    return;
  }
  el.oppHand.classList.remove("revealed");
  const backs = h("span", { class: "backs" });
  for (let i = 0; i < oppCount; i++) backs.append(backEl("xs", ""));
  for (const b of backs.children) b.setAttribute("aria-hidden", "true");
  el.oppHand.replaceChildren(backs);
  el.oppHand.setAttribute("aria-label", tn("page.table.holds", oppCount, { who: oppName }));
}
