// The melds on each seat's table, numbered as the choices and the log name them, with a
// cue on the melds that are new or changed since the frame before (in profiles that
// rearrange, R18, melds are renumbered as the table changes).

import { cardRow, meldKey, spokenList } from "../cards.js";
import { t } from "../i18n.js";
import { h } from "../ui.js";

function meldsEl(list, owner, names, highlightCard, changed) {
  const wrap = h("div", { class: "melds-inner", "data-testid": `table-${owner}`, "aria-label": names.x("page.table.melds_of", owner) });
  if (!list.length) {
    wrap.append(h("p", { class: "muted empty" }, t("page.table.no_melds")));
    return wrap;
  }
  const ol = h("ol", { class: "meld-list" });
  list.forEach((m, i) => {
    const row = cardRow(m, { size: "sm", highlight: highlightCard });
    const isNew = changed.has(meldKey(m));
    ol.append(h("li", { class: `meld${isNew ? " changed" : ""}`, "data-meld": i + 1, "aria-label": t(isNew ? "page.table.meld_label_new" : "page.table.meld_label", { n: i + 1, cards: spokenList(m) }) },
      h("span", { class: "meld-no", "aria-hidden": "true" }, String(i + 1)), row));
  });
  wrap.append(ol);
  return wrap;
}

/** The tables region; it remembers the melds of the frame before (for the cue). */
export function createMelds() {
  let cue = { version: null, deal: null, before: null, changed: { 1: new Set(), 2: new Set() } };

  /** Which melds are new or changed since the frame before (of the same deal). */
  function updateCue(f, deal) {
    if (cue.version === f.version) return;
    const melds = f.view.melds || {};
    const now = { 1: new Set((melds["1"] || []).map(meldKey)), 2: new Set((melds["2"] || []).map(meldKey)) };
    const changed = { 1: new Set(), 2: new Set() };
    if (cue.before && cue.deal === deal) {
      for (const s of [1, 2]) for (const k of now[s]) if (!cue.before[s].has(k)) changed[s].add(k);
    }
    cue = { version: f.version, deal, before: now, changed };
  }

  /** el: {oppTable, myTable}.  The card just melded, or just forced, is marked. */
  function render(el, f, { v, me, opp, names, forced, deal }) {
    updateCue(f, deal);
    const melds = v.melds || {};
    const lastEv = (v.history || [])[(v.history || []).length - 1];
    const hl = lastEv && lastEv.kind === "meld" ? lastEv.card : forced ? forced.card : null;
    el.oppTable.replaceChildren(meldsEl(melds[String(opp)] || [], opp, names, hl, cue.changed[opp] || new Set()));
    el.myTable.replaceChildren(meldsEl(melds[String(me)] || [], me, names, hl, cue.changed[me] || new Set()));
  }
  return { render };
}
