// Plain words for the table: the move log, whose turn it is and what they decide, and
// the labels of action controls.  Everything here reads only the seat's view (R21):
// view.history (public events), view.melds, view.live, view.legal.

import { handOrder, short, shortList } from "./cards.js";

/** The opponent's display name: "Greedy bot", or "Player 2" for a person in seat 2.
 * `opponent` is match.opponent of a state frame or a lobby summary. */
export function opponentName(opponent, oppSeat) {
  const o = opponent || {};
  if (o.kind === "bot") {
    const b = o.bot || "computer";
    return `${b[0].toUpperCase()}${b.slice(1)} bot`;
  }
  return oppSeat ? `Player ${oppSeat}` : "A friend";
}

/** Names for seats: who(seat) -> "You" | "Greedy bot"; whose(seat) -> "your" | "Greedy bot's". */
export function namer(me, oppName) {
  return {
    me,
    who: (s) => (s === me ? "You" : oppName),
    whom: (s) => (s === me ? "you" : oppName),
    whose: (s) => (s === me ? "your" : `${oppName}'s`),
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

/** A table (list of melds) in words: "3♥ 4♥ 5♥ / 6♣ 6♦ 6♥". */
export function tableText(melds) {
  return (melds || []).map(shortList).join(" / ");
}

/**
 * The public history as log lines: [{seat, text, kind}], from the structured fields of
 * each event (kind, card, died, forced, meld, table, from_hand) — never from action text.
 * Works for every profile: gameweave melds (R12), whole tables where melds are rearranged
 * (R18), forcing onto a numbered meld (R15), a forced card that must be melded (R18e) and
 * forcing back (R19).
 */
export function logLines(view, names) {
  const me = names.me;
  const out = [];
  let prev = null;
  for (const ev of view.history || []) {
    const s = ev.seat;
    const other = s === 1 ? 2 : 1;
    const who = names.who(s);
    const card = ev.card ? short(ev.card) : "a card";
    const kind = eventKind(ev);
    const own = s === me ? "your" : "their";
    let text;
    if (kind === "turn") {
      const died = ev.died ? `let ${short(ev.died)} go dead and ` : "";
      text = ev.card ? `${who} ${died}turned ${card}.` : `${who} ${died}had to turn, but the stock is empty.`;
    } else if (kind === "meld") {
      const fromHand = ev.from_hand || [];
      const turned = prev && prev.seat === s && eventKind(prev) === "turn";
      const how = ev.forced ? `melded ${card} (forced on ${names.whom(s)})` : turned ? `melded the turned ${card}` : `took ${card}`;
      const table = ev.table || [];
      const result = ev.meld || [];
      if (view.rearranging && table.length) {
        const withHand = fromHand.length ? ` with ${shortList(fromHand)} from ${own} hand` : "";
        text = `${who} ${how}${withHand}: ${own} table is now ${tableText(table)}.`;
      } else if (!fromHand.length) {
        text = `${who} ${how} and added it to ${own} meld: ${shortList(result)}.`;
      } else {
        text = `${who} ${how} and made a new meld: ${shortList(result)}.`;
      }
    } else if (kind === "force") {
      text = `${who} forced ${card} back onto ${names.whom(other)}: ${other === me ? "you" : "they"} must meld it.`;
      out.push({ seat: s, text, kind: "force" });
      prev = ev;
      continue;
    } else if (kind === "refuse" || kind === "throw") {
      const verb = kind === "refuse" ? "refused" : "threw";
      if (ev.forced) {
        const landed = ev.meld || [];
        if (landed.length) {
          const target = landed.filter((c) => c !== ev.card);
          out.push({ seat: s, text: `${who} ${verb} ${card} and forced it onto ${names.whose(other)} meld ${shortList(target)}.`, kind: "force" });
          out.push({ seat: other, text: `${card} was added to ${names.whose(other)} meld: ${shortList(landed)}.`, kind: "forced" });
        } else {
          out.push({ seat: s, text: `${who} ${verb} ${card} and forced it on ${names.whom(other)}: ${other === me ? "you" : "they"} must meld it.`, kind: "force" });
        }
        prev = ev;
        continue;
      }
      text = `${who} ${verb} ${card}.`;
    } else {
      text = `${who}: ${ev.action}`;
    }
    out.push({ seat: s, text, kind });
    prev = ev;
  }
  if (view.status === "won") {
    out.push({ seat: view.winner, text: `${names.who(view.winner)} reached eleven and won the deal.`, kind: "end" });
  } else if (view.status === "tablas") {
    out.push({ seat: null, text: "The stock ran out: tablas (a tie).", kind: "end" });
  }
  return out;
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
  const how = kind === "force" ? "forced back" : kind === "refuse" ? "refused" : "threw";
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
    return view.winner === me ? "Deal over — you won this deal." : `Deal over — ${names.who(view.winner)} won this deal.`;
  }
  if (view.status === "tablas") return "Deal over — tablas: the stock ran out.";
  if (opts.waitingFor) return opts.waitingFor;
  const live = view.live ? short(view.live) : null;
  const opp = names.who(me === 1 ? 2 : 1);
  if (view.to_act === me) {
    const choices = opts.choices || [];
    const canMeld = choices.some((c) => c.kind === "meld" || c.kind === "table");
    const canForce = choices.some((c) => c.force && c.kind !== "force");
    const canForceBack = choices.some((c) => c.kind === "force");
    const orForce = canForce ? ` You may force it onto ${opp}'s table.` : "";
    switch (view.decision) {
      case "turn":
        return "Your turn: turn the top card of the stock.";
      case "take_or_turn": {
        const back = canForceBack ? ` You may also force it back onto ${opp} (they turned and refused it).` : "";
        return (canMeld
          ? `Your turn: take ${live} by melding it, or let it go dead and turn the stock.`
          : `Your turn: you cannot meld ${live} — turn the stock.`) + back;
      }
      case "meld":
        return `${view.forced ? short(view.forced) : "A card"} was forced on you: choose how to meld it into your table.`;
      case "meld_or_refuse":
        return (canMeld ? `You turned ${live}: meld it, or refuse it.` : `You turned ${live}: you cannot meld it — refuse it.`) + orForce;
      case "throw":
        return "Throw a card: click a card in your hand." + (canForce ? ` A card that fits ${opp}'s table can be forced onto it (see your choices).` : "");
      default:
        return "Your turn.";
    }
  }
  switch (view.decision) {
    case "turn":
      return `${opp} is to turn the stock.`;
    case "take_or_turn":
      return `${opp} is deciding whether to take ${live} or turn the stock.`;
    case "meld_or_refuse":
      return `${opp} turned ${live} and is deciding whether to meld or refuse it.`;
    case "throw":
      return `${opp} is choosing a card to throw.`;
    case "meld":
      return `${opp} is melding ${view.forced ? short(view.forced) : "the card"}, which was forced on them.`;
    default:
      return `Waiting for ${opp}.`;
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
  const raised = next && stakes.base && next > stakes.base ? (stakes.tablas_stake === "carry" ? " (carried after tablas)" : " (doubled after tablas)") : "";
  return `stakes: you ${mine} – ${theirs} ${oppName} · next deal pays ${next}${raised}`;
}

/** "your meld 2" / "Greedy bot's meld 1": the meld of `melds` equal to `cards`, by number. */
function meldNumber(melds, cards) {
  const key = handOrder(cards || []).join(" ");
  const i = (melds || []).findIndex((m) => handOrder(m).join(" ") === key);
  return i >= 0 ? i + 1 : 0;
}

/** "New set of 3" / "New sequence of 4" for a meld's cards (R5, R6). */
function newMeldWords(meld) {
  return meld.every((c) => c[0] === meld[0][0]) ? `New set of ${meld.length}` : `New sequence of ${meld.length}`;
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
  const forceLabel = forceN ? `force it onto ${names.whose(opp)} meld ${forceN}` : `force it on ${names.whom(opp)} (they must meld it)`;
  if (kind === "meld") {
    const table = (choice.melds || []).map((m) => handOrder(m));
    const uses = choice.uses || [];
    const cards = handOrder(table.flat());
    if (choice.kind === "table" || view.rearranging) {
      // R18: the whole new table.  Say the simple cases in R12's words: one new meld
      // beside the melds kept, or one meld grown; anything else rearranges the table.
      const before = new Set(mine.map((m) => handOrder(m).join(" ")));
      const after = new Set(table.map((m) => m.join(" ")));
      const added = table.filter((m) => !before.has(m.join(" ")));
      const gone = mine.filter((m) => !after.has(handOrder(m).join(" ")));
      const fromHand = uses.length ? `, ${uses.length} card${uses.length === 1 ? "" : "s"} from your hand` : "";
      let label;
      if (cards.length >= 11) label = "Meld and win: eleven cards";
      else if (added.length === 1 && !gone.length) label = `${newMeldWords(added[0])}`;
      else if (added.length === 1 && gone.length === 1 && gone[0].every((c) => added[0].includes(c))) {
        label = `Add to your meld ${mine.indexOf(gone[0]) + 1}${fromHand}`;
      } else if (uses.length) label = `New table, ${uses.length} card${uses.length === 1 ? "" : "s"} from your hand`;
      else label = "New table";
      return { kind, label, groups: table, cards, card, uses, danger };
    }
    const grown = table.find((m) => m.includes(card)) || cards;
    const idx = mine.findIndex((m) => m.every((c) => grown.includes(c)));
    let label;
    if (cards.length >= 11) label = "Meld and win: eleven cards";
    else if (idx >= 0 && !uses.length) label = `Add to your meld ${idx + 1}`;
    else label = newMeldWords(grown);
    return { kind, label, groups: [grown], cards: grown, card, uses, danger };
  }
  if (kind === "turn") {
    return { kind, label: view.live && view.live_from && view.live_from !== me ? "Let it go dead, turn the stock" : "Turn the stock", danger };
  }
  if (kind === "force") {
    return { kind, card, label: `Force ${card ? short(card) : "it"} back onto ${names.whom(opp)}`, target: choice.force || [], force: true, danger };
  }
  if (kind === "refuse") {
    if (choice.force) return { kind, card, label: `Refuse and ${forceLabel}`, target: choice.force, force: forceN || true, danger };
    return { kind, card, label: `Refuse ${card ? short(card) : "it"}`, danger };
  }
  if (kind === "throw") {
    if (choice.force) return { kind, card, label: `Throw ${short(card)} and ${forceLabel}`, target: choice.force, force: forceN || true, danger };
    return { kind, card, label: `Throw ${short(card)}`, danger };
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
  const c = d.card ? short(d.card) : "this card";
  const hold = `${who} has ${onTable} cards on the table${inHand ? "" : " and none in hand"}`;
  if (d.force) return `${hold}: forcing ${c} onto them completes eleven, and they win the deal.`;
  if (d.kind === "refuse") return `${hold}: if you refuse ${c}, they can add it to their table and win the deal.`;
  return `${hold}: if you throw ${c}, they can add it to their table and win the deal.`;
}
