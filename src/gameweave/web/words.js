// Plain words for the table: the move log, whose turn it is and what they decide, and
// the labels of action controls.  Everything here reads only the seat's view (R21):
// view.history (public events), view.melds, view.live, view.legal.

import { cardIndex, handOrder, short, shortList } from "./cards.js";

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

function sortMelds(list) {
  return list.sort((a, b) => cardIndex(a[0]) - cardIndex(b[0]));
}

function isSubset(small, big) {
  return small.every((c) => big.includes(c));
}

/**
 * The public history as log lines: [{seat, text, kind}].  Melds are rebuilt from the
 * events (§VII numbering: a seat's melds in hand order of their lowest card) so that a
 * force can name the meld it landed on.
 */
export function logLines(view, names) {
  const me = names.me;
  const melds = { 1: [], 2: [] };
  const out = [];
  let prev = null;
  for (const ev of view.history || []) {
    const s = ev.seat;
    const other = s === 1 ? 2 : 1;
    const who = names.who(s);
    const card = ev.card ? short(ev.card) : "a card";
    const words = ev.action.split(" ");
    const force = words.indexOf("force");
    let text;
    if (words[0] === "turn") {
      const letDie = prev && prev.seat === other && (prev.action.startsWith("throw") || prev.action.startsWith("refuse"))
        && !prev.action.includes("force");
      text = letDie && prev.card
        ? `${who} let ${short(prev.card)} go dead and turned ${card}.`
        : `${who} turned ${card}.`;
    } else if (words[0] === "meld") {
      const result = handOrder(words.slice(1));
      const taken = prev && prev.seat === other;
      const old = melds[s].find((m) => isSubset(m, result));
      melds[s] = melds[s].filter((m) => !isSubset(m, result));
      melds[s].push(result);
      sortMelds(melds[s]);
      const how = taken ? `took ${card} and` : `melded the turned ${card}:`;
      const own = s === me ? "your" : "their";
      if (old) {
        text = taken
          ? `${who} ${how} added it to ${own} meld: ${shortList(result)}.`
          : `${who} ${how} added it to ${own} meld ${shortList(result)}.`;
      } else {
        text = taken
          ? `${who} ${how} made a new meld: ${shortList(result)}.`
          : `${who} ${how} a new meld ${shortList(result)}.`;
      }
    } else if (words[0] === "refuse" || words[0] === "throw") {
      const verb = words[0] === "refuse" ? "refused" : "threw";
      if (force >= 0) {
        const n = Number(words[force + 1]);
        const target = melds[other][n - 1] || [];
        text = `${who} ${verb} ${card} and forced it onto ${names.whose(other)} meld ${shortList(target)}.`;
        out.push({ seat: s, text, kind: "force" });
        if (ev.card && target.length) {
          const grown = handOrder([...target, ev.card]);
          melds[other][n - 1] = grown;
          sortMelds(melds[other]);
          text = `${card} was added to ${names.whose(other)} meld: ${shortList(grown)}.`;
          out.push({ seat: other, text, kind: "forced" });
        }
        prev = ev;
        continue;
      }
      text = `${who} ${verb} ${card}.`;
    } else {
      text = `${who}: ${ev.action}`;
    }
    out.push({ seat: s, text, kind: words[0] });
    prev = ev;
  }
  if (view.status === "won") {
    out.push({ seat: view.winner, text: `${names.who(view.winner)} reached eleven and won the deal.`, kind: "end" });
  } else if (view.status === "tablas") {
    out.push({ seat: null, text: "The stock ran out: tablas (a tie).", kind: "end" });
  }
  return out;
}

/** The last event if it forced a card onto `me`, and the meld it landed on. */
export function forcedOnMe(view) {
  const h = view.history || [];
  const last = h[h.length - 1];
  if (!last || last.seat === view.seat || !last.action.includes("force")) return null;
  if (view.to_act !== view.seat || view.decision !== "throw") return null;
  const mine = view.melds[String(view.seat)] || [];
  const meld = mine.find((m) => m.includes(last.card)) || [];
  return { card: last.card, meld, how: last.action.startsWith("refuse") ? "refused" : "threw" };
}

/** Whose turn it is and what they decide, in words (for data-testid=status). */
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
    const canMeld = (view.legal || []).some((a) => a.startsWith("meld"));
    const canForce = (view.legal || []).some((a) => a.includes("force"));
    const orForce = canForce ? ` You may force it onto one of ${opp}'s melds.` : "";
    switch (view.decision) {
      case "turn":
        return "Your turn: turn the top card of the stock.";
      case "take_or_turn":
        return canMeld
          ? `Your turn: take ${live} by melding it, or let it go dead and turn the stock.`
          : `Your turn: you cannot meld ${live} — turn the stock.`;
      case "meld_or_refuse":
        return (canMeld ? `You turned ${live}: meld it, or refuse it.` : `You turned ${live}: you cannot meld it — refuse it.`) + orForce;
      case "throw":
        return "Throw a card: click a card in your hand." + (canForce ? ` A card that fits one of ${opp}'s melds can be forced onto it (see your choices).` : "");
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
    default:
      return `Waiting for ${opp}.`;
  }
}

/**
 * Describe one legal action for its control: {kind, label, cards, target, force}.
 * kind: "meld" | "turn" | "refuse" | "throw".  For a meld, `cards` is the resulting meld
 * and `label` says whether it is a new set, a new sequence or an addition to meld N.
 */
export function describeAction(action, view, names) {
  const w = action.split(" ");
  const me = view.seat;
  const opp = me === 1 ? 2 : 1;
  const force = w.indexOf("force");
  const forceN = force >= 0 ? Number(w[force + 1]) : 0;
  const target = forceN ? (view.melds[String(opp)] || [])[forceN - 1] || [] : null;
  if (w[0] === "meld") {
    const cards = handOrder(w.slice(1));
    const mine = view.melds[String(me)] || [];
    const idx = mine.findIndex((m) => isSubset(m, cards));
    let label;
    if (idx >= 0) label = `Add to your meld ${idx + 1}`;
    else if (cards.every((c) => c[0] === cards[0][0])) label = `New set of ${cards.length}`;
    else label = `New sequence of ${cards.length}`;
    return { kind: "meld", label, cards };
  }
  if (w[0] === "turn") {
    return { kind: "turn", label: view.live && view.live_from && view.live_from !== me ? "Let it go dead, turn the stock" : "Turn the stock" };
  }
  if (w[0] === "refuse") {
    if (forceN) {
      return { kind: "refuse", label: `Refuse and force it onto ${names.whose(opp)} meld ${forceN}`, target, force: forceN };
    }
    return { kind: "refuse", label: `Refuse ${view.live ? short(view.live) : "it"}` };
  }
  if (w[0] === "throw") {
    const card = w[1];
    if (forceN) {
      return { kind: "throw", card, label: `Throw ${short(card)} and force it onto ${names.whose(opp)} meld ${forceN}`, target, force: forceN };
    }
    return { kind: "throw", card, label: `Throw ${short(card)}` };
  }
  return { kind: w[0], label: action };
}
