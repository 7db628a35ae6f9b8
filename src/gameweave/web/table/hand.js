// The seat's own hand at the bottom (seat 1 for a spectator): its name line with the
// count and a hint of what to do, and the cards in hand order (R4).  A card is a button
// where it can be thrown, or a pick in the R18 chooser (the choices region's plan says
// which); a spectator sees backs until the deal is over (R21).

import { backEl, cardEl, spoken } from "../cards.js";
import { t, tn } from "../i18n.js";
import { confirmThrows, h, touchScreen } from "../ui.js";
import { seatBadges } from "./badges.js";

/** Seat 1 seen from outside: its name, the backs of its cards, face up once it is over. */
function spectatorHand(el, v, names, prog) {
  const n = (v.hand_counts || {})["1"] ?? 0;
  const shown = v.hands ? v.hands["1"] || [] : null;
  el.myName.replaceChildren(names.who(1), h("span", { class: "muted small" }, tn("page.table.cards_in_hand", n)), ...seatBadges(1, prog));
  if (shown) el.hand.replaceChildren(...(shown.length ? shown.map((c) => cardEl(c, { size: "lg" })) : [h("p", { class: "muted" }, t("page.table.no_cards_left"))]));
  else {
    const backs = [];
    for (let i = 0; i < n; i++) backs.push(backEl("sm", ""));
    for (const b of backs) b.setAttribute("aria-hidden", "true");
    el.hand.replaceChildren(...backs);
  }
  el.hand.setAttribute("aria-label", tn("page.table.holds", n, { who: names.who(1) }));
}

/** One card of the hand: a throw button, a pick, or just the card. */
function handCard(c, plan, dangerTag) {
  const x = plan.throws.get(c);
  if (x) {
    const b = cardEl(c, { tag: "button", size: "lg", label: `${t("page.choice.throw", { card: spoken(c) })}${x.d.danger ? `; ${dangerTag}` : ""}` });
    b.dataset.action = x.a;
    if (x.d.danger) b.classList.add("danger");
    if (plan.selected === c) b.classList.add("selected");
    return b;
  }
  if (plan.chooser && plan.pickable.has(c)) {
    const on = plan.picked.has(c);
    const b = cardEl(c, { tag: "button", size: "lg", label: t(on ? "page.table.picked_label" : "page.table.pick_label", { card: spoken(c) }) });
    b.dataset.pick = c;
    b.setAttribute("aria-pressed", String(on));
    if (on) b.classList.add("picked");
    return b;
  }
  return cardEl(c, { size: "lg" });
}

/** el: {myName, hand}; `plan` from the choices region. */
export function render(el, f, { v, names, opp, prog, spectator, client }, plan) {
  if (spectator) {
    spectatorHand(el, v, names, prog);
    return;
  }
  const hand = v.hand || [];
  const throwing = plan.throws.size > 0;
  const throwHint = touchScreen() ? t("page.table.tap_to_throw") : confirmThrows() ? t("page.table.click_then_confirm") : t("page.table.click_to_throw");
  // a tab whose seat another tab took offers nothing to click
  const hint = client?.replaced ? "" : throwing ? throwHint : plan.chooser ? t("page.table.pick_to_add") : "";
  el.myName.replaceChildren(t("page.table.your_hand"),
    h("span", { class: "muted small" }, tn("page.table.cards", hand.length) + (hint ? ` · ${hint}` : "")),
    ...seatBadges(v.seat, prog));
  el.hand.classList.toggle("throwing", throwing);
  el.hand.classList.toggle("picking", plan.chooser);
  const dangerTag = t("page.danger.tag", { opp: names.who(opp) });
  el.hand.replaceChildren(...hand.map((c) => handCard(c, plan, dangerTag)));
  if (!hand.length) el.hand.append(h("p", { class: "muted" }, t("page.table.no_cards")));
}
