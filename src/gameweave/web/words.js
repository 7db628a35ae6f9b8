// Plain words for the table: the move log, whose turn it is and what they decide, and
// the labels of action controls.  Everything here reads only the seat's view (R21):
// view.history (public events), view.melds, view.live, view.legal.

import { handOrder, isSet, meldKey, short, shortList, shortTable } from "./cards.js";
import { has, t, tn } from "./i18n.js";
import { touchScreen } from "./ui.js";

/** Why a name cannot be used, in words, or null (names: trimmed, 1-24 characters, no
 * control characters; empty means the default "Player n").  The server checks the same
 * (422 bad_name). */
export function nameProblem(text) {
  const v = String(text ?? "").trim();
  if (!v) return null;
  // joiners and variation selectors glue an emoji together: not counted (as on the server)
  if ([...v].filter((ch) => !"\u200c\u200d\ufe0e\ufe0f".includes(ch)).length > 24) return t("page.name_too_long");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(v)) return t("page.name_control");
  return null;
}

/**
 * The display name of seat `seat` of a match (a state frame's `match` or a lobby summary):
 * the player's own name (match.players[n].name, shown as text), "Greedy bot" for a bot,
 * else "Player n" (term.seat_n).  Old frames without `players` read `match.opponent`.
 */
export function seatName(m, seat) {
  const p = ((m || {}).players || {})[String(seat)];
  if (p) {
    if (p.name) return p.name;
    if (p.kind === "bot") return botName(p.bot);
    return t("page.player_n", { n: seat });
  }
  const o = (m || {}).opponent;
  if (o && o.kind === "bot" && (m.seat == null || m.seat !== seat)) return botName(o.bot);
  return t("page.player_n", { n: seat });
}

/** "Greedy bot" / "Bot voraz": a bot's name in the page's language. */
export function botName(bot) {
  const b = bot || "computer";
  return has(`page.bot.${b}`) ? t(`page.bot.${b}`) : t("page.bot.named", { bot: b });
}

/** The opponent's display name (compatibility with callers passing a match or a summary).
 * `m` is a frame's `match` or a lobby summary; `oppSeat` the opponent's seat number. */
export function opponentName(m, oppSeat) {
  if (m && (m.players || m.opponent)) return seatName(m, oppSeat);
  return oppSeat ? t("page.player_n", { n: oppSeat }) : t("page.a_friend");
}

/** Names for seats: who(seat) -> "You" | "Ana"; mine(seat) is true for the viewer.
 * `x(key, seat, params)` says message `key.me` or `key.opp` with {who} set (the two
 * forms differ in Spanish: "Volteaste" / "Ana volteó"). */
export function namer(me, oppName) {
  const who = (s) => (s === me ? t("page.you") : oppName);
  return {
    me,
    oppName,
    who,
    whom: (s) => (s === me ? t("page.you_object") : oppName),
    mine: (s) => s === me,
    x: (key, s, params = {}) => t(`${key}.${s === me ? "me" : "opp"}`, { who: who(s), ...params }),
  };
}

function isSubset(small, big) {
  return small.every((c) => big.includes(c));
}

/** The kind of a history event: "turn" | "meld" | "refuse" | "throw" | "force", as the
 * server sends it (the page never reads it back from the action text). */
export function eventKind(ev) {
  return ev.kind;
}

/** The seat (1/2) that turned the live card: the last ``turn`` event's (R10), not
 * whoever is to act now — after a resign or at the end of a deal that is someone else. */
export function turnerOf(view) {
  const hs = view.history || [];
  for (let i = hs.length - 1; i >= 0; i--) if (eventKind(hs[i]) === "turn" && hs[i].card) return hs[i].seat;
  return view.to_act;
}

/**
 * The public history as log lines: [{seat, text, kind}], from the structured fields of
 * each event (kind, card, died, forced, meld, table, from_hand) — never from action text.
 * Works for every profile: gameweave melds (R12), whole tables where melds are rearranged
 * (R18), forcing onto a numbered meld (R15), a forced card that must be melded (R18e) and
 * forcing back (R19).  Every sentence is a catalog message (page.log.*).  `opts.resigned`:
 * the seat that resigned the deal, if it ended so.
 */
export function logLines(view, names, opts = {}) {
  const out = [];
  let prev = null;
  for (const ev of view.history || []) {
    const s = ev.seat;
    const other = s === 1 ? 2 : 1;
    const card = ev.card ? short(ev.card) : t("page.a_card");
    const kind = eventKind(ev);
    const x = (key, params = {}) => names.x(key, s, { card, other: names.whom(other), ...params });
    let text;
    if (kind === "turn") {
      if (ev.card) text = ev.died ? x("page.log.died_turned", { died: short(ev.died) }) : x("page.log.turned");
      else text = ev.died ? x("page.log.died_stock_empty", { died: short(ev.died) }) : x("page.log.stock_empty");
    } else if (kind === "meld") {
      const fromHand = ev.from_hand || [];
      const turned = prev && prev.seat === s && eventKind(prev) === "turn";
      const how = ev.forced ? "forced" : turned ? "turned" : "took";
      const table = ev.table || [];
      const result = ev.meld || [];
      if (view.rearranging && table.length) {
        text = fromHand.length
          ? x(`page.log.${how}_table_hand`, { hand: shortList(fromHand), table: shortTable(table) })
          : x(`page.log.${how}_table`, { table: shortTable(table) });
      } else if (!fromHand.length) {
        text = x(`page.log.${how}_added`, { meld: shortList(result) });
      } else {
        text = x(`page.log.${how}_new`, { meld: shortList(result) });
      }
    } else if (kind === "force") {
      out.push({ seat: s, text: names.x("page.log.force_back", s, { card, other: names.whom(other), must: mustMeld(names, other) }), kind: "force" });
      prev = ev;
      continue;
    } else if (kind === "refuse" || kind === "throw") {
      if (ev.forced) {
        const landed = ev.meld || [];
        if (landed.length) {
          const target = landed.filter((c) => c !== ev.card);
          out.push({ seat: s, text: x(`page.log.${kind}_forced_onto`, { meld: shortList(target), whose: whoseMeld(names, other) }), kind: "force" });
          out.push({ seat: other, text: names.x("page.log.forced_landed", other, { card, meld: shortList(landed) }), kind: "forced" });
        } else {
          out.push({ seat: s, text: x(`page.log.${kind}_forced_on`, { must: mustMeld(names, other) }), kind: "force" });
        }
        prev = ev;
        continue;
      }
      text = x(`page.log.${kind}`);
    } else {
      text = `${names.who(s)}: ${ev.action}`;
    }
    out.push({ seat: s, text, kind });
    prev = ev;
  }
  if (view.status === "won" && opts.resigned) {
    // the deal was resigned (issue 10): it counts as won by the other seat (R20)
    out.push({ seat: opts.resigned, text: names.x("page.log.resigned", opts.resigned), kind: "end" });
  } else if (view.status === "won") {
    out.push({ seat: view.winner, text: names.x("page.log.won", view.winner), kind: "end" });
  } else if (view.status === "tablas") {
    out.push({ seat: null, text: t("page.log.tablas"), kind: "end" });
  }
  return out;
}

/** "you must meld it" / "Ana must meld it". */
function mustMeld(names, seat) {
  return names.x("page.must_meld", seat);
}

/** "your meld" / "Ana's meld" (whose meld a forced card lands on). */
function whoseMeld(names, seat) {
  return names.x("page.whose_meld", seat);
}

/**
 * The last event if it forced a card onto `me`: {card, meld, how, pending}.  `pending`
 * is true while the forced card waits for me to meld it (decision "meld", R18e); else
 * (gameweave, R15) it already lies in `meld` and I throw next.
 */
export function forcedOnMe(view) {
  const h = view.history || [];
  const last = h[h.length - 1];
  if (!last || last.seat === view.seat || view.to_act !== view.seat) return null;
  const kind = eventKind(last);
  const forced = last.forced;
  if (!forced || !["refuse", "throw", "force"].includes(kind)) return null;
  // how: "force" (forced back, R19) | "refuse" | "throw" (page.forced.<how>.*)
  const how = kind;
  if (view.decision === "meld") return { card: last.card, meld: [], how, pending: true };
  if (view.decision !== "throw") return null;
  const mine = view.melds[String(view.seat)] || [];
  const meld = (last.meld && last.meld.length ? last.meld : null) || mine.find((m) => m.includes(last.card)) || [];
  return { card: last.card, meld, how, pending: false };
}

/** Whose turn it is and what they decide, in words (for data-testid=status).  `opts.choices`
 * is the frame's `choices` (what can be melded or forced, from their kinds). */
export function statusText(view, names, opts = {}) {
  const me = view.seat;
  if (view.status === "won") {
    return names.x("page.state.deal_won", view.winner);
  }
  if (view.status === "tablas") return t("page.state.tablas");
  if (opts.waitingFor) return opts.waitingFor;
  const live = view.live ? short(view.live) : null;
  // a spectator (seat null) reads every move in the third person, by the actor's name
  const opp = me == null ? names.who(view.to_act) : names.who(me === 1 ? 2 : 1);
  const forced = view.forced ? short(view.forced) : t("page.a_card");
  if (view.to_act === me) {
    const choices = opts.choices || [];
    const canMeld = choices.some((c) => c.kind === "meld" || c.kind === "table");
    const canForce = choices.some((c) => c.force && c.kind !== "force");
    const canForceBack = choices.some((c) => c.kind === "force");
    const orForce = canForce ? ` ${t("page.state.may_force", { opp })}` : "";
    // R16, R18f: a meld that makes eleven wins the deal at once; say so first
    const canWin = choices.some((c) => (c.kind === "meld" || c.kind === "table") && (c.melds || []).flat().length >= 11);
    if (canWin) return t("page.state.my.can_win", { card: view.decision === "meld" ? forced : live });
    switch (view.decision) {
      case "turn":
        return t("page.state.my.turn");
      case "take_or_turn": {
        const back = canForceBack ? ` ${t("page.state.may_force_back", { opp })}` : "";
        return (canMeld ? t("page.state.my.take_or_turn", { live }) : t("page.state.my.cannot_take", { live })) + back;
      }
      case "meld":
        return t("page.state.my.meld_forced", { card: forced });
      case "meld_or_refuse":
        return (canMeld ? t("page.state.my.meld_or_refuse", { live }) : t("page.state.my.must_refuse", { live })) + orForce;
      case "throw":
        return (touchScreen() ? t("page.state.my.throw_touch") : t("page.state.my.throw")) + (canForce ? ` ${t("page.state.may_force_throw", { opp })}` : "");
      default:
        return t("page.state.my.other");
    }
  }
  switch (view.decision) {
    case "turn":
      return t("page.state.opp.turn", { opp });
    case "take_or_turn":
      return t("page.state.opp.take_or_turn", { opp, live });
    case "meld_or_refuse":
      return t("page.state.opp.meld_or_refuse", { opp, live });
    case "throw":
      return t("page.state.opp.throw", { opp });
    case "meld":
      return t("page.state.opp.meld_forced", { opp, card: forced });
    default:
      return t("page.state.opp.other", { opp });
  }
}

/**
 * A stakes match's points in words (R20): "stakes: you 3 – 1 Greedy bot · next deal pays 2".
 * `stakes` is match.stakes of a state frame or lobby summary: {points, current_stake,
 * base, tablas_stake}; `me` the viewer's seat number.
 */
export function stakesLine(stakes, me, oppName) {
  if (!stakes) return "";
  const p = stakes.points || {};
  const opp = me === 1 ? 2 : 1;
  const mine = p[String(me)] ?? 0;
  const theirs = p[String(opp)] ?? 0;
  const next = stakes.current_stake ?? stakes.base;
  const raised = next && stakes.base && next > stakes.base;
  const key = !raised ? "page.stakes.line" : stakes.tablas_stake === "carry" ? "page.stakes.line_carried" : "page.stakes.line_doubled";
  return t(key, { mine, theirs, opp: oppName, next });
}

/** "your meld 2" / "Greedy bot's meld 1": the meld of `melds` equal to `cards`, by number. */
function meldNumber(melds, cards) {
  const key = meldKey(cards);
  const i = (melds || []).findIndex((m) => meldKey(m) === key);
  return i >= 0 ? i + 1 : 0;
}

/** Cards in words, "4♦ 5♦"; melds one after another, "3♠ 4♠ 5♠ and 6♠ 7♠ J♠". */
function meldsWords(melds) {
  return melds.map(shortList).reduce((a, b) => t("words.change.and", { a, b }));
}

/** "new set 7♣ 7♦ 7♥" / "new sequence 4♦ 5♦ 6♦" for a meld that is all new (R5, R6). */
function newMeldWords(meld) {
  return t(isSet(meld) ? "words.change.new_set" : "words.change.new_sequence", { cards: shortList(meld) });
}

/**
 * What a meld choice changes on the viewer's table, in words (R12, R18): from the melds
 * `before` to the melds `after` (arrays of card names).  Each changed meld is one part:
 * "6♦ joins 4♦ 5♦" (a meld grown), "splits 3♠ 4♠ 5♠ 6♠ into 3♠ 4♠ 5♠ and 6♠ 7♠ J♠" (a
 * meld cut into several), "new set 7♣ 7♦ 7♥"; melds kept as they were are not named.
 * Parts are joined by " · ", the first letter capitalised.  The Python narrator says
 * the same (tables/words.py describe_change; the catalog's words.change.*).
 */
export function changeWords(before, after) {
  const old = (before || []).map(handOrder);
  const now = (after || []).map(handOrder);
  const oldKeys = new Set(old.map(meldKey));
  const nowKeys = new Set(now.map(meldKey));
  const gone = old.filter((m) => !nowKeys.has(meldKey(m)));
  const fresh = now.filter((m) => !oldKeys.has(meldKey(m)));
  const told = new Set();
  const parts = [];
  for (const m of gone) {
    const into = fresh.filter((n) => n.some((c) => m.includes(c)));
    if (into.length < 2) continue;
    parts.push(t("words.change.splits", { meld: shortList(m), parts: meldsWords(into) }));
    for (const n of into) told.add(meldKey(n));
  }
  for (const n of fresh) {
    if (told.has(meldKey(n))) continue;
    const from = gone.filter((m) => m.every((c) => n.includes(c)));
    const added = n.filter((c) => !from.some((m) => m.includes(c)));
    if (!from.length) parts.push(newMeldWords(n));
    else if (!added.length) parts.push(t("words.change.merges", { melds: meldsWords(from) }));
    else parts.push(tn("words.change.joins", added.length, { cards: shortList(added), meld: meldsWords(from) }));
  }
  const text = parts.join(" · ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The key of the table a meld choice leaves (its cards in hand order): two choices with
 * the same key put the same cards on the table, the same outcome (R18: the partition can
 * be chosen again at every meld). */
export function tableKey(choice) {
  return meldKey((choice.melds || []).flat());
}

/**
 * Describe one entry of a state frame's `choices` (PROTOCOL §4.3, built by the server from
 * the seat's view) for its control: {kind, label, groups, card, target, force, danger}.
 * Reads the structured fields (kind, card, force, melds, uses, gives_eleven), not the
 * action text.  For a meld, `groups` is what to draw: the new or grown meld (R12), or
 * the whole new table where melds are rearranged (R18, kind "table").
 */
export function describeChoice(choice, view, names) {
  const me = view.seat;
  const opp = me === 1 ? 2 : 1;
  const kind = choice.kind === "table" ? "meld" : choice.kind;
  const card = choice.card;
  const danger = !!choice.gives_eleven;
  const oppMelds = view.melds[String(opp)] || [];
  const mine = view.melds[String(me)] || [];
  const forceN = choice.force && !view.rearranging ? meldNumber(oppMelds, choice.force) : 0;
  const oppWho = names.who(opp);
  const forceLabel = forceN ? t("page.choice.force_onto_meld", { opp: oppWho, n: forceN }) : t("page.choice.force_on", { opp: oppWho });
  const c = card ? short(card) : t("page.it");
  if (kind === "meld") {
    const table = (choice.melds || []).map((m) => handOrder(m));
    const uses = choice.uses || [];
    const wins = table.flat().length >= 11; // R16, R18f: eleven on the table wins
    const label = wins ? t("page.choice.meld_and_win") : changeWords(mine, table);
    const key = tableKey(choice);
    // the melds kept as they were: the only ones the label does not name
    const before = new Set(mine.map(meldKey));
    const keeps = table.filter((m) => before.has(meldKey(m))).length;
    if (choice.kind === "table" || view.rearranging) {
      // R18: the whole new table is drawn
      return { kind, label, groups: table, cards: handOrder(table.flat()), card, uses, danger, wins, key, keeps };
    }
    const grown = table.find((m) => m.includes(card)) || handOrder(table.flat());
    return { kind, label, groups: [grown], cards: grown, card, uses, danger, wins, key, keeps };
  }
  if (kind === "turn") {
    return { kind, label: view.live && view.live_from && view.live_from !== me ? t("page.choice.let_go_turn") : t("page.choice.turn"), danger };
  }
  if (kind === "force") {
    return { kind, card, label: t("page.choice.force_back", { card: c, opp: oppWho }), target: choice.force || [], force: true, danger };
  }
  if (kind === "refuse") {
    if (choice.force) return { kind, card, label: t("page.choice.refuse_and", { force: forceLabel }), target: choice.force, force: forceN || true, danger };
    return { kind, card, label: t("page.choice.refuse", { card: c }), danger };
  }
  if (kind === "throw") {
    if (choice.force) return { kind, card, label: t("page.choice.throw_and", { card: c, force: forceLabel }), target: choice.force, force: forceN || true, danger };
    return { kind, card, label: t("page.choice.throw", { card: c }), danger };
  }
  return { kind, label: choice.action, danger };
}

/**
 * The danger confirmation's words for a move that publicly gives the opponent eleven
 * (R16): what the opponent holds (public counts only, R21) and what the move does.
 */
export function dangerText(d, view, names) {
  const opp = view.seat === 1 ? 2 : 1;
  const who = names.who(opp);
  const onTable = (view.table_counts || {})[String(opp)] ?? 0;
  const inHand = (view.hand_counts || {})[String(opp)] ?? 0;
  const c = d.card ? short(d.card) : t("page.this_card");
  const hold = t(inHand ? "page.danger.holds" : "page.danger.holds_no_hand", { who, n: onTable });
  if (d.force) return t("page.danger.force", { hold, card: c });
  if (d.kind === "refuse") return t("page.danger.refuse", { hold, card: c });
  return t("page.danger.throw", { hold, card: c });
}
