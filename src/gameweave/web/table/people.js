// The people at the table (issue 10): presence, spectators and a timed-out move (chips
// after the score bar's), the clocks (beside the status line), the invite while the
// friend has not joined, and the aside: the last deal's replay, the watch link, quick
// phrases (a fixed list: no free text from a person ever reaches the other), resign; and
// a phrase received, shown briefly.

import { keysWithPrefix, t, tn } from "../i18n.js";
import { openWaiting } from "../open.js";
import { h, toast } from "../ui.js";
import { seatName } from "../words.js";
import { seatRating } from "../rating.js";
import { createClock } from "./clock.js";

/** The quick phrases a seat may send: the fixed list of tables/phrases.py, whose catalog
 * keys are phrase.<key>. */
const phraseKeys = () => keysWithPrefix("phrase.").map((k) => k.slice("phrase.".length));

/** The pause after a phrase before the next may be sent. */
const PHRASE_GAP_MS = 3000;

/** A text box holding an address to copy (selected whole on focus). */
function linkInput(url, attrs) {
  const input = h("input", { type: "text", readonly: true, value: url, ...attrs });
  input.addEventListener("focus", () => input.select());
  return input;
}

/** The presence chips of a match between people (a bot is always there), or []. */
function presenceChips(f, { m, names, spectator }) {
  const players = m.players || null;
  if (!players || ![1, 2].every((s) => (players[String(s)] || {}).kind !== "bot")) return [];
  return [1, 2].map((s) => {
    const p = players[String(s)] || {};
    const online = p.kind === "bot" ? true : !!p.online;
    const notJoined = s !== f.seat && m.opponent && m.opponent.joined === false;
    const state = p.kind === "bot" ? "bot" : notJoined ? "not_joined" : p.away ? "away" : online ? "online" : "offline";
    const self = !spectator && s === f.seat;
    return h("span", { class: `chip presence ${online && !p.away ? "on" : "off"}${self ? " self" : ""}`, "data-testid": `presence-${s}`, "data-online": String(online), "data-away": String(!!p.away), "data-seat": String(s) },
      h("span", { class: "presence-text" }, t(`page.presence.${state}`, { who: names.who(s) })));
  });
}

/** Each seat's rating beside its name (issue 20: the account's rating in this profile, or
 * a bot level's ladder rating), as chips; none for a seat without one. */
function ratingChips(m, names) {
  return [1, 2].map((s) => {
    const badge = seatRating(m, s);
    return badge && h("span", { class: "chip rating-chip", "data-seat": String(s) }, names.who(s), " ", badge);
  }).filter(Boolean);
}

/** The invite while the friend has not joined (m.invite_url), or what an open table waits for. */
function renderInvite(el, m) {
  if (m.open_table) {  // an open table (issue 20): listed in the lobby, nobody to invite
    el.hidden = false;
    el.replaceChildren(...openWaiting(m));
    return;
  }
  if (!m.invite_url) {
    el.hidden = true;
    el.replaceChildren();
    return;
  }
  const url = new URL(m.invite_url, location.origin).href;
  el.hidden = false;
  el.replaceChildren(
    h("p", {}, t("page.table.invite_waiting")),
    h("div", { class: "invite-row" }, linkInput(url, { "data-testid": "invite-link", class: "invite-input", "aria-label": t("page.invite_link") }),
      h("button", { type: "button", class: "btn", onclick: () => navigator.clipboard.writeText(url).then(() => toast(t("page.copied")), () => toast(t("page.copy_by_hand"))) }, t("page.copy_link"))),
  );
}

/**
 * The people region.  `env`: {matchId, spectator, client, send(msg), dialogs, frame()}.
 * It owns the clocks' ticking, the phrases' pause and the phrase shown.
 */
export function createPeople(env) {
  const { spectator, client } = env;
  const phrases = h("div", { class: "phrases", "data-testid": "phrases", role: "group", "aria-label": t("page.phrases.label") });
  let phraseAt = -Infinity; // no phrase sent yet: not cooling, even in the first 3 s after a (re)load
  let saidTimer = null;
  const cooling = () => performance.now() - phraseAt < PHRASE_GAP_MS;
  const clock = createClock((s) => {
    const f = env.frame();
    const m = (f && f.match) || {};
    if (spectator) return seatName(m, s);
    return s === f.seat ? t("page.you") : seatName(m, s);
  });

  function sendPhrase(k) {
    if (cooling() || client.replaced || spectator) return;
    if (!client.say({ type: "phrase", key: k })) {
      toast(t("page.table.not_sent"), "error");
      return;
    }
    phraseAt = performance.now();
    for (const b of phrases.querySelectorAll("[data-phrase]")) b.disabled = true;
    setTimeout(() => { if (env.frame()) for (const b of phrases.querySelectorAll("[data-phrase]")) b.disabled = client.replaced; }, PHRASE_GAP_MS);
  }

  /** Ask before resigning: this deal (it counts as lost, R20) or the whole match. */
  function confirmResign(from) {
    const f = env.frame();
    const v = f.view;
    const m = f.match || {};
    const canDeal = v.status === "playing";
    const opp = seatName(m, v.seat === 1 ? 2 : 1);
    const radio = (scope, label, checked) => h("label", { class: "radio" },
      h("input", { type: "radio", name: "resign-scope", value: scope, checked, "data-testid": `resign-${scope}` }), " ", label);
    const cancel = h("button", { type: "button", class: "btn", "data-testid": "resign-cancel" }, t("page.resign.cancel"));
    const goBtn = h("button", { type: "button", class: "btn danger-go", "data-testid": "resign-confirm" }, t("page.resign.confirm"));
    const dlg = h("dialog", { class: "danger-dialog resign-dialog", "data-testid": "resign-dialog", "aria-labelledby": "resign-title" },
      h("h2", { id: "resign-title" }, t("page.resign.title")),
      canDeal ? radio("deal", t("page.resign.deal", { opp }), true) : "",
      radio("match", t("page.resign.match", { opp }), !canDeal),
      h("div", { class: "result-buttons" }, cancel, goBtn));
    goBtn.addEventListener("click", () => {
      const scope = (dlg.querySelector("input[name=resign-scope]:checked") || {}).value || "match";
      env.dialogs.close();
      env.send({ type: "resign", scope });
    });
    env.dialogs.show(dlg, from, cancel);
  }

  /** The aside's parts: the last deal's replay, the watch link, phrases, resign. */
  function aside(f, { v, m }, people) {
    const out = [];
    if (m.last_deal && v.status === "playing") {
      out.push(h("p", { class: "small" }, h("a", { href: `/replay/${env.matchId}/${m.last_deal}`, "data-nav": "", "data-testid": "last-deal-replay" }, t("page.table.last_deal_replay", { n: m.last_deal }))));
    }
    if (!spectator && m.watch_url) {
      const input = linkInput(new URL(m.watch_url, location.origin).href, { class: "invite-input", "data-testid": "watch-link", "aria-label": t("page.watch.link_label") });
      out.push(h("details", { class: "watch small" }, h("summary", {}, t("page.watch.invite")), h("p", { class: "muted small" }, t("page.watch.text")), input));
    }
    if (!spectator && people) {
      const cool = cooling();
      phrases.replaceChildren(h("h3", { class: "small" }, t("page.phrases.title")),
        ...phraseKeys().map((k) => h("button", { type: "button", class: "btn small phrase", "data-phrase": k, disabled: cool || client.replaced,
          onclick: () => sendPhrase(k) }, t(`phrase.${k}`))));
      out.push(phrases);
    }
    // resigning is offered while a deal is played only: between deals there is no deal to
    // give up (the match can be resigned once the next deal is dealt)
    if (!spectator && !m.over && v.status === "playing") {
      out.push(h("p", {}, h("button", { type: "button", class: "btn small resign", "data-testid": "resign", disabled: client.replaced,
        onclick: (ev) => confirmResign(ev.currentTarget) }, t("page.resign.button"))));
    }
    if (spectator) out.push(h("p", { class: "muted small", "data-testid": "spectator-note" }, t("page.watch.note")));
    return out;
  }

  /** el: {score, clocks, extra, invite}: chips after the score bar's, the clocks, the
   * aside, the invite. */
  function render(el, f, ctx) {
    const { m, names } = ctx;
    const presence = presenceChips(f, ctx);
    const chips = [...presence, ...ratingChips(m, names)];
    // the clocks while a deal is played (between deals nothing is timed)
    el.clocks.replaceChildren(...clock.chips(el.clocks, ctx.v.status === "playing" ? m : {}, spectator ? null : f.seat));
    el.clocks.hidden = !el.clocks.children.length;
    // the server played for a seat whose clock ran out (say so while that move is the last)
    if (m.timed_out && m.timed_out.version === f.version) {
      chips.push(h("span", { class: "chip timed-out", "data-testid": "timed-out", "data-seat": String(m.timed_out.seat) },
        t("page.clock.timed_out", { who: names.who(m.timed_out.seat) })));
    }
    if (!spectator && m.spectators != null && (presence.length || m.spectators > 0)) {
      chips.push(h("span", { class: "chip spectators", "data-testid": "spectators", "data-count": String(m.spectators) }, tn("page.spectators", m.spectators)));
    }
    el.score.append(...chips);
    clock.start();
    el.extra.replaceChildren(...aside(f, ctx, presence.length > 0));
    renderInvite(el.invite, m);
  }

  /** A quick phrase received (a fixed key: never text typed by a person), for 4 s. */
  function said(el, f) {
    const now = env.frame();
    const who = now ? (f.seat === now.seat ? t("page.you") : seatName(now.match || {}, f.seat)) : seatName({}, f.seat);
    el.replaceChildren(h("span", { class: "said-line", "data-phrase": f.key, "data-seat": String(f.seat) },
      t("page.phrases.said", { who, phrase: t(`phrase.${f.key}`) })));
    el.hidden = false;
    clearTimeout(saidTimer);
    saidTimer = setTimeout(() => { el.hidden = true; el.replaceChildren(); }, 4000);
  }

  function close() {
    clock.close();
    clearTimeout(saidTimer);
  }
  return { render, said, close };
}
