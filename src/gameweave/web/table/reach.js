// The order of the R18 chooser's tables (RULES R18b: up to 128 ways to meld one card),
// chosen so that every table is a few clicks away: at most `most` picks, then a click on
// the table, which shows among the first `room` buttons of the list without scrolling.
//
// Sorting alone cannot promise that ("largest first" leaves a small table 40th under
// every pick that it holds).  So each table is given one *key*: a set of at most `most`
// of the hand cards it uses, no key shared by more than `room` tables.  Under the picks
// P the tables whose key is P come first, then the rest, largest first.  Finding keys is
// a bipartite matching (tables to pick sets, `room` places each), solved by augmenting
// paths; the smallest `room` that places every table is used.  A table that uses only
// `most` cards or fewer is keyed by exactly those cards; with no pick, the largest tables.

import { meldKey } from "../cards.js";

/** A table's used hand cards: `x.d.uses` (card names), as a key string. */
const usesOf = (x) => meldKey(x.d.uses || []);

/** The subsets of `cards` (names) of at most `most` cards, as keys, larger first
 * (a pick set that names more of the table is the one a person is likelier to try). */
function pickSets(cards, most) {
  const out = [];
  const grow = (from, chosen) => {
    if (chosen.length) out.push(chosen);
    if (chosen.length === most) return;
    for (let i = from; i < cards.length; i++) grow(i + 1, [...chosen, cards[i]]);
  };
  grow(0, []);
  return [...out.sort((a, b) => b.length - a.length).map(meldKey), ""];
}

/** Keys for `room` places per pick set: Map(table -> key string), the tables that could
 * not be placed left out.  `tables`: the chooser's items ({a, d: {uses, cards}}). */
function place(tables, room, most) {
  const key = new Map();
  const owners = new Map();
  const fixed = new Set();
  const put = (x, k) => {
    key.set(x, k);
    if (!owners.has(k)) owners.set(k, []);
    owners.get(k).push(x);
  };
  const size = (x) => (x.d.cards || []).length;
  for (const x of tables) if ((x.d.uses || []).length <= most) { put(x, usesOf(x)); fixed.add(x); }
  const loose = tables.filter((x) => !fixed.has(x));
  // with no pick: the largest tables, as the list would show them anyway
  for (const x of [...loose].sort((p, q) => size(q) - size(p)).slice(0, room)) { put(x, ""); fixed.add(x); }
  const sets = new Map(loose.map((x) => [x, pickSets(x.d.uses || [], most)]));
  const augment = (x, seen) => {
    for (const k of sets.get(x)) {
      if (seen.has(k)) continue;
      seen.add(k);
      const own = owners.get(k) || [];
      if (own.length < room) { put(x, k); return true; }
      for (const y of own) {
        if (fixed.has(y) || !augment(y, seen)) continue;
        own.splice(own.indexOf(y), 1);
        put(x, k);
        return true;
      }
    }
    return false;
  };
  for (const x of [...loose].sort((p, q) => size(p) - size(q))) if (!key.has(x)) augment(x, new Set());
  return key;
}

/**
 * Keys for the chooser's `tables` (each {a, d: {uses, cards}}): Map(table -> the pick
 * set, hand cards joined by spaces in hand order, under which it comes first), with the
 * fewest places per pick set (1 to `room`) that key every table: two in the R18b
 * position; `room` is 3, the buttons the list shows without scrolling on a phone.  Where
 * even `room` does not do, the tables left without a key come after the keyed ones,
 * largest first.
 */
export function pickKeys(tables, { room = 3, most = 2 } = {}) {
  let best = new Map();
  for (let r = 1; r <= room; r++) {
    const key = place(tables, r, most);
    if (key.size > best.size) best = key;
    if (key.size === tables.length) break;
  }
  return best;
}

/** The tables of the chooser for the hand cards `picked`: those that use at least them;
 * a table of exactly those first, then those keyed by the picks (`keys`, from
 * `pickKeys`), then the largest first (most cards on the table), then the server's order. */
export function chooserTables(tables, picked, keys) {
  const want = [...picked];
  const exact = meldKey(want);
  const fit = tables.filter(({ d }) => want.every((c) => (d.uses || []).includes(c)));
  const size = (x) => (x.d.cards || []).length;
  const rank = (x) => (usesOf(x) === exact ? 0 : keys.get(x) === exact ? 1 : 2);
  return fit.map((x, i) => [x, i]).sort(([x, i], [y, j]) => rank(x) - rank(y) || size(y) - size(x) || i - j).map(([x]) => x);
}
