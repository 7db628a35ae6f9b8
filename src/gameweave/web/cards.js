// Cards as the page shows them (RULES §I): rank + suit symbol, red or black, and a
// second cue (a tinted face with a suit-shaped corner mark) so colour is never the only
// signal.  Card names on the wire are canonical text: "7h", "Ks", "Ac" (R3).

import { t, tn } from "./i18n.js";

export const RANKS = "A234567JQK";
export const SUITS = "cdhs";
export const SUIT_SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };

/** A suit's name in the page's language (page.suit.c|d|h|s). */
const suitName = (s) => t(`page.suit.${s}`);
/** A rank's spoken name: ace, jack, queen, king from the catalog (page.rank.*), digits as is. */
const rankName = (r) => ("AJQK".includes(r) ? t(`page.rank.${r}`) : r);

/** Index 0..39 of a card name (rank * 4 + suit), so that index order is hand order (R4). */
export function cardIndex(name) {
  return RANKS.indexOf(name[0]) * 4 + SUITS.indexOf(name[1]);
}

/** Sort card names into hand order (R4): by rank position, then suit c < d < h < s. */
export function handOrder(names) {
  return [...names].sort((a, b) => cardIndex(a) - cardIndex(b));
}

/** "7 of hearts", "king of spades" ("7 de corazones") — the spoken name of a card. */
export function spoken(name) {
  return t("page.card.spoken", { rank: rankName(name[0]), suit: suitName(name[1]) });
}

/** "7♥" — short printed name of a card. */
export function short(name) {
  return name[0] + SUIT_SYMBOLS[name[1]];
}

/** A list of cards in words: "4♥ 5♥ 6♥". */
export function shortList(names) {
  return names.map(short).join(" ");
}

export function spokenList(names) {
  return names.map(spoken).join(", ");
}

/** What stands between the melds of a table (§VII writes a table "3h 4h 5h / 6c 6d 6h"):
 * the page's one copy of it, for the words and the drawn choices alike. */
export const TABLE_SEPARATOR = "/";

/** A table (a list of melds) in short names: "3♥ 4♥ 5♥ / 6♣ 6♦ 6♥". */
export function shortTable(melds) {
  return (melds || []).map(shortList).join(` ${TABLE_SEPARATOR} `);
}

/** A meld's cards as one key, the same whatever their order ("3h 4h 5h", hand order R4):
 * to find a meld again in another frame or another list. */
export function meldKey(cards) {
  return handOrder(cards || []).join(" ");
}

/** True when a meld is a set (R5: cards of one rank); else it is a sequence (R6). */
export function isSet(meld) {
  return meld.every((c) => c[0] === meld[0][0]);
}

function isRed(name) {
  return name[1] === "h" || name[1] === "d";
}

/**
 * A card face element.
 * @param {string} name canonical card text ("7h")
 * @param {object} [opts] {tag: "span"|"button", size: "sm"|"md"|"lg", label: aria-label override}
 */
export function cardEl(name, opts = {}) {
  const tag = opts.tag || "span";
  const el = document.createElement(tag);
  el.className = `card ${isRed(name) ? "red" : "black"} suit-${name[1]} ${opts.size || "md"}`;
  el.dataset.card = name;
  if (tag === "button") {
    el.type = "button";
    el.setAttribute("aria-label", opts.label || spoken(name));
  } else {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", opts.label || spoken(name));
  }
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = name[0];
  rank.setAttribute("aria-hidden", "true");
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = SUIT_SYMBOLS[name[1]];
  suit.setAttribute("aria-hidden", "true");
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.textContent = SUIT_SYMBOLS[name[1]];
  corner.setAttribute("aria-hidden", "true");
  el.append(rank, suit, corner);
  return el;
}

/** A face-down card (stock, opponent's hand). */
export function backEl(size = "md", label = null) {
  const el = document.createElement("span");
  el.className = `card back ${size}`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label ?? t("page.card.face_down"));
  return el;
}

/** A row of card faces (a meld or a hand), optionally marking one card as new. */
export function cardRow(names, opts = {}) {
  const row = document.createElement("span");
  row.className = "cards";
  for (const n of names) {
    const c = cardEl(n, { size: opts.size });
    if (opts.highlight && opts.highlight === n) c.classList.add("new");
    row.append(c);
  }
  return row;
}

/**
 * The dead cards (the discard pile) as a compact grid by suit: one row per suit
 * (♣ ♦ ♥ ♠), one column per rank (A..K, R3); a dead card's cell is filled, the others
 * are faint.  Reads only the public `view.dead` list (R21).
 */
export function deadGrid(dead) {
  const set = new Set(dead || []);
  const grid = document.createElement("div");
  grid.className = "dead-grid";
  grid.setAttribute("role", "img");
  grid.setAttribute("aria-label", set.size
    ? tn("page.card.dead_list", set.size, { cards: spokenList(handOrder([...set])) })
    : t("page.card.no_dead"));
  for (const s of SUITS) {
    const row = document.createElement("span");
    row.className = `dead-row ${isRed(`A${s}`) ? "red" : "black"}`;
    row.setAttribute("aria-hidden", "true");
    const head = document.createElement("span");
    head.className = "dead-suit";
    head.textContent = SUIT_SYMBOLS[s];
    row.append(head);
    for (const r of RANKS) {
      const cell = document.createElement("span");
      const name = r + s;
      cell.className = `dead-cell${set.has(name) ? " on" : ""}`;
      cell.textContent = r;
      if (set.has(name)) cell.dataset.card = name;
      row.append(cell);
    }
    grid.append(row);
  }
  return grid;
}
