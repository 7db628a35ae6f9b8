// The choices region: one control per legal action of the seat (the frame's `choices`,
// PROTOCOL §4.3).  Meld choices are the primary action (R12/R18); nine or more open the
// R18 chooser, where the seat picks the hand cards to add.  Throws are the hand's cards
// (with the confirm-throws setting, on for touch screens, a card is selected first, then thrown); a move that publicly gives the
// opponent eleven asks first (R16).  Each control carries its action's §VII text in
// `data-action` (what tests and hints find it by); what is sent is the choice's `id`.

import { hintControl } from "../advice.js";
import { cardRow, handOrder, short, shortList, spokenList, TABLE_SEPARATOR } from "../cards.js";
import { t, tn } from "../i18n.js";
import { confirmThrows, h } from "../ui.js";
import { dangerText } from "../words.js";
import { chooserTables, pickKeys } from "./reach.js";

/** Meld choices up to this many are shown as buttons at once; more open the R18 chooser. */
const CHOOSER_FROM = 9;

/** A meld choice's button: its label and the meld (or whole table, R18) it makes.
 * `attrs`: more attributes (the one-tap win's test id and class). */
function meldButton({ a, d }, v, attrs = {}) {
  const rows = [];
  (d.groups || []).forEach((g, i) => {
    if (i) rows.push(h("span", { class: "meld-sep", "aria-hidden": "true" }, TABLE_SEPARATOR));
    rows.push(cardRow(g, { size: "xs", highlight: v.forced || v.live }));
  });
  // "says-all": the label names every card of the table (no meld is kept as it was)
  const extra = `${d.keeps ? "" : " says-all"}${attrs.class ? ` ${attrs.class}` : ""}`;
  return h("button", { type: "button", ...attrs, class: `btn primary choice meld-choice${extra}`, "data-action": a, "aria-label": `${d.label}: ${(d.groups || []).map(spokenList).join("; ")}` },
    h("span", { class: "choice-label" }, d.label), h("span", { class: "choice-cards" }, ...rows));
}

/**
 * The meld choices as the page offers them: equivalent tables as one (the same cards on
 * the table: the same outcome, R18 lets the partition be chosen again at every meld), the
 * simplest partition (fewest melds, then the server's order) standing for its kind.
 * Returns {win, tables, alias}: the one winning table (R16, R18f) or null, the other
 * tables, and for each meld action the action shown for it.
 */
export function meldPlan(meldItems) {
  const groups = new Map();
  for (const x of meldItems) {
    const k = x.d.wins ? "win" : x.d.key;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(x);
  }
  const alias = new Map();
  let win = null;
  const tables = [];
  for (const [k, xs] of groups) {
    const rep = xs.reduce((best, x) => ((x.d.groups || []).length < (best.d.groups || []).length ? x : best));
    for (const x of xs) alias.set(x.a, rep.a);
    if (k === "win") win = rep;
    else tables.push(rep);
  }
  return { win, tables, alias };
}

/** The R18 chooser: the hand cards `picked` so far and the tables that use at least them
 * (a scrolling list, in `chooserTables` order: each table among the first few under at
 * most two picks, RULES R18b); the table the hint recommends, once asked, comes first. */
function chooserEl(tables, picked, v, hinted) {
  const card = v.forced || v.live;
  const shown = chooserTables(tables, picked, pickKeys(tables));
  const cards = shortList(handOrder([...picked]));
  const head = !picked.size ? t("page.chooser.ways", { n: tables.length, card: card ? short(card) : t("page.it") })
    : shown.length ? tn("page.chooser.at_least", shown.length, { cards }) : t("page.chooser.none", { cards });
  const best = hinted && !shown.slice(0, 1).some((x) => x.a === hinted.a) ? hinted : null;
  const list = [...(best ? [meldButton(best, v, { class: "hint-pick", title: t("page.chooser.hint_best") })] : []),
    ...shown.filter((x) => x !== best).map((x) => meldButton(x, v))];
  return h("div", { class: "chooser", "data-testid": "chooser" },
    h("p", { class: "chooser-head" }, head,
      picked.size ? h("button", { type: "button", class: "btn small", "data-clear": "picks" }, t("page.chooser.clear")) : ""),
    list.length ? h("div", { class: "chooser-tables" }, list) : "");
}

/** The controls of the choices that are neither melds nor plain throws: forces, turns,
 * refusals (the passive move is primary only when nothing can be melded, and it is safe). */
function otherButtons(items, v, oppWho, hasMeld) {
  const tag = t("page.danger.tag", { opp: oppWho });
  const warn = (d) => (d.danger ? h("span", { class: "danger-tag" }, `⚠ ${tag}`) : "");
  const out = [];
  for (const { a, d } of items) {
    if (d.kind === "meld" || (d.kind === "throw" && !d.force)) continue;
    if (d.force) {
      const landed = [...(d.target || []), d.card || v.live].filter(Boolean);
      out.push(h("button", { type: "button", class: `btn choice force-choice${d.danger ? " danger" : ""}`, "data-action": a,
        "aria-label": `${d.label}: ${spokenList(d.target || [])}${d.danger ? `; ${tag}` : ""}` },
      h("span", { class: "choice-label" }, d.label), cardRow(handOrder(landed), { size: "xs", highlight: d.card || v.live }), warn(d)));
    } else {
      const primary = !hasMeld && !d.danger && (d.kind === "turn" || d.kind === "refuse");
      out.push(h("button", { type: "button", class: `btn ${primary ? "primary" : "passive"} choice${d.danger ? " danger" : ""}`, "data-action": a,
        "aria-label": d.danger ? `${d.label}; ${tag}` : null }, h("span", { class: "choice-label" }, d.label), warn(d)));
    }
  }
  return out;
}

/** Several forces (throw and force, R15/R18e; refuse and force) as one list in the place
 * of the first: a box that scrolls inside itself when the page is short (table/fit.js),
 * so that the hand and a selected card's Throw button stay on screen. */
function forceBox(buttons) {
  const forces = buttons.filter((b) => b.classList.contains("force-choice"));
  if (forces.length < 2) return buttons;
  const box = h("div", { class: "force-choices", "data-testid": "force-choices" }, forces);
  return buttons.filter((b) => !forces.includes(b) || b === forces[0]).map((b) => (b === forces[0] ? box : b));
}

/**
 * The choices region.  `env`: {root, matchId, token, spectator, dialogs, act(item),
 * redraw(opts), frame()}.  It owns what the seat has picked in the R18 chooser and the
 * card a touch screen selected to throw, both for the version they were made in.
 */
export function createChoices(env) {
  let items = [];
  let picked = new Set(); // R18 chooser: the hand cards picked to add
  let selected = null; // touch screens: the card selected to throw, thrown on a second tap
  let version = null; // the version `picked`, `selected` and `hint` belong to
  let hint = null; // the hint's answer for this version (GET /hint), once asked

  /** Draw the controls into `el` (the actions group); returns the hand's plan:
   * {throws: Map(card -> item), chooser, pickable: Set, picked: Set, selected: card|null}. */
  function render(el, f, ctx) {
    const { v, names, opp } = ctx;
    if (version !== f.version) {
      version = f.version;
      picked = new Set();
      selected = null;
      hint = null;
    }
    items = ctx.items;
    const throws = new Map(items.filter((x) => x.d.kind === "throw" && !x.d.force).map((x) => [x.d.card, x]));
    const meldItems = items.filter((x) => x.d.kind === "meld");
    const plan = meldPlan(meldItems);
    const chooser = meldItems.length >= CHOOSER_FROM && plan.tables.length > 0;
    const pickable = new Set();
    const controls = [];
    // R16: a table of eleven wins the deal at once: one button above everything
    if (plan.win) controls.push(meldButton(plan.win, v, { class: "win-now", "data-testid": "win-now" }));
    if (chooser) {
      for (const { d } of plan.tables) for (const c of d.uses || []) pickable.add(c);
      const hinted = hint && hint.best ? plan.tables.find((x) => x.a === plan.alias.get(hint.best)) : null;
      controls.push(chooserEl(plan.tables, picked, v, hinted));
    } else if (plan.tables.length) {
      // one box for the meld choices: on a phone it scrolls when there are many, so
      // the refuse/force choices and the hand stay on screen
      controls.push(h("div", { class: "meld-choices", "data-testid": "meld-choices" }, plan.tables.map((x) => meldButton(x, v))));
    }
    if (selected && throws.has(selected)) {
      controls.push(h("div", { class: "throw-confirm" },
        h("button", { type: "button", class: "btn primary", "data-send": throws.get(selected).a }, t("page.choice.throw", { card: short(selected) })),
        h("button", { type: "button", class: "btn", "data-clear": "throw" }, t("page.table.keep_it"))));
    }
    controls.push(...forceBox(otherButtons(items, v, names.who(opp), meldItems.length > 0)));
    el.hidden = !controls.length;
    el.classList.toggle("choosing", chooser);
    el.replaceChildren(...(controls.length ? [h("h2", { class: "visually-hidden" }, t("page.table.your_choices")), ...controls] : []));
    const label = (a) => (items.find((x) => x.a === a) || { d: { label: a } }).d.label;
    const hintBox = env.spectator ? null : hintControl({ matchId: env.matchId, token: env.token, frame: env.frame, root: env.root,
      names: label, alias: (a) => plan.alias.get(a) || a, known: hint,
      // the hint's answer stays for this version: a pick redraws the chooser with it
      remember: (res) => {
        hint = res;
        if (chooser) env.redraw({});
      } });
    if (hintBox) el.append(hintBox);
    return { throws, chooser, pickable, picked, selected };
  }

  /** Ask before a move that publicly gives the opponent eleven (R16). */
  function confirmDanger(item, from, { v, names }) {
    const opp = v.seat === 1 ? 2 : 1;
    const cancel = h("button", { type: "button", class: "btn", "data-testid": "cancel-danger" }, t("page.danger.cancel"));
    const go = h("button", { type: "button", class: "btn danger-go", "data-action": item.a }, t("page.danger.anyway", { label: item.d.label }));
    const dlg = h("dialog", { class: "danger-dialog", "data-testid": "confirm-danger", "aria-labelledby": "danger-title", "aria-describedby": "danger-text" },
      h("h2", { id: "danger-title" }, t("page.danger.title", { opp: names.who(opp) })),
      h("p", { id: "danger-text" }, dangerText(item.d, v, names)),
      h("div", { class: "result-buttons" }, cancel, go));
    env.dialogs.show(dlg, from, cancel);
  }

  const byText = (a) => items.find((x) => x.a === a);
  const inside = (ev, sel) => {
    const b = ev.target.closest(sel);
    return b && env.root.contains(b) ? b : null;
  };

  /** A click in the table: picks, the throw confirmation, clearing either, and the
   * controls of choices.  `ctx` is the frame's context ({v, names}); true if handled. */
  function click(ev, ctx) {
    const pick = inside(ev, "[data-pick]");
    if (pick && !pick.disabled) {
      const c = pick.dataset.pick;
      if (picked.has(c)) picked.delete(c);
      else picked.add(c);
      env.redraw({ focus: `[data-pick="${c}"]` });
      return true;
    }
    const sendBtn = inside(ev, "[data-send]");
    if (sendBtn && !sendBtn.disabled) {
      const item = byText(sendBtn.dataset.send);
      if (item) env.act(item);
      return true;
    }
    const clear = inside(ev, "[data-clear]");
    if (clear) {
      if (clear.dataset.clear === "picks") picked = new Set();
      else selected = null;
      env.redraw({ focus: "first" });
      return true;
    }
    const btn = inside(ev, "button[data-action]");
    if (!btn || btn.disabled) return false;
    const item = byText(btn.dataset.action);
    if (!item) return true;
    if (btn.closest("dialog")) {
      env.act(item);
    } else if (item.d.kind === "throw" && !item.d.force && btn.matches("button.card") && confirmThrows() && selected !== item.d.card) {
      selected = item.d.card; // select first; the second tap or the confirm button throws
      env.redraw({ focus: `[data-send="${CSS.escape(item.a)}"]` });
    } else if (item.d.danger) {
      confirmDanger(item, btn, ctx);
    } else {
      env.act(item);
    }
    return true;
  }

  return { render, click };
}
