// The lobby: choose the rules (a profile, RULES §V) and the match format it allows, play
// the computer or a friend, see your matches (mine.js: this browser's and the account's).  The last
// settings are remembered too (localStorage "gameweave.lobby").

import { hintsAgreement } from "./advice.js";
import { api, saveSeat } from "./api.js";
import { openHelp } from "./help.js";
import { botOption } from "./rating.js";
import { has, t } from "./i18n.js";
import { fillMatches } from "./mine.js";
import { tutorialBanner } from "./tutorial.js";
import { meetPanel } from "./open.js";
import { h, toast } from "./ui.js";
import { nameProblem } from "./words.js";

const SETTINGS_KEY = "gameweave.lobby";
const TARGET_MAX = 99;

/** The profile list used until (or if) GET /api/profiles answers: the default one only. */
const FALLBACK_PROFILES = [{
  name: "gameweave", title: "Gameweave", summary: "", rearranging: false, force_back: false,
  formats: ["first_to", "tally"], default_format: "first_to", default_target: 3, stake: null,
}];

/** A profile's title and summary in the page's language (profile.<name>.title|summary),
 * the server's English where the catalog has none. */
function profileTitleText(p) {
  return has(`profile.${p.name}.title`) ? t(`profile.${p.name}.title`) : p.title || p.name;
}
function profileSummaryText(p) {
  return has(`profile.${p.name}.summary`) ? t(`profile.${p.name}.summary`) : p.summary || "";
}

/** The clock choices of POST /api/matches (seconds per decision; null: no clock). */
const CLOCKS = [null, 60, 30];

/** The remembered lobby settings ({rules, format, target, stake, tablas_stake, bot, clock, name}) or {}. */
export function loadSettings() {
  try {
    const v = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}");
    return v && typeof v === "object" ? v : {};
  } catch { return {}; }
}

function saveSettings(s) {
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(s)); } catch { /* private mode: nothing is remembered */ }
}

/**
 * Why "First to" text is not a valid target, in words, or null: a whole number from 1 to
 * `max` (the profile's max_target, 99; nothing is clamped or rounded silently).
 */
export function targetProblem(text, max = TARGET_MAX) {
  const v = String(text ?? "").trim();
  if (!v) return t("page.lobby.target_empty", { max });
  if (!/^[0-9]+$/.test(v)) return t("page.lobby.target_not_number", { text: v, max });
  const n = Number(v);
  if (n < 1) return t("page.lobby.target_small", { max });
  if (n > max) return t("page.lobby.target_big", { n, max });
  return null;
}

/** The rules and format chooser; `.read()` -> {ok, body | problem}; `.settings()`. */
function rulesChooser(saved) {
  let profiles = FALLBACK_PROFILES;
  const rulesSelect = h("select", { id: "rules-select", "data-testid": "rules-select" });
  const summary = h("p", { class: "muted small rules-summary", id: "rules-summary", "data-testid": "rules-summary" });
  rulesSelect.setAttribute("aria-describedby", "rules-summary");
  const target = h("input", {
    type: "text", id: "target", value: String(saved.target ?? 3), inputmode: "numeric", size: 3,
    "aria-label": t("page.lobby.target_label"), "data-testid": "target", "aria-describedby": "target-problem",
  });
  const problem = h("p", { class: "error small", id: "target-problem", "data-testid": "target-problem", role: "alert", hidden: true });
  const stake = h("input", { type: "text", id: "stake", inputmode: "numeric", size: 3, value: String(saved.stake ?? 1), "aria-label": t("term.stake"), "data-testid": "stake" });
  const tablas = h("select", { id: "tablas-stake", "data-testid": "tablas-stake", "aria-label": t("page.lobby.after_tablas") });
  const radios = {};
  const labels = {};
  for (const f of ["first_to", "tally", "stakes"]) {
    radios[f] = h("input", { type: "radio", name: "format", value: f, id: `fmt-${f}`, "data-testid": `format-${f}` });
  }
  labels.first_to = h("label", { for: "fmt-first_to", class: "radio" }, radios.first_to, " ", t("page.lobby.first_to"), " ", target, " ", t("page.lobby.won_deals"));
  labels.tally = h("label", { for: "fmt-tally", class: "radio" }, radios.tally, " ", t("page.lobby.format.tally"));
  const stakeRow = h("div", { class: "stake-row" },
    h("label", { for: "stake" }, t("page.lobby.stake"), " "), stake, h("label", { for: "tablas-stake" }, " ", t("page.lobby.after_tablas"), " "), tablas);
  labels.stakes = h("div", { class: "stakes-choice" },
    h("label", { for: "fmt-stakes", class: "radio" }, radios.stakes, h("span", {}, t("page.lobby.format.stakes"))), stakeRow);

  const profile = () => profiles.find((p) => p.name === rulesSelect.value) || profiles[0];
  const format = () => Object.keys(radios).find((f) => radios[f].checked && !labels[f].hidden) || profile().default_format;

  function sync() {
    const p = profile();
    summary.textContent = t("page.lobby.profile_line", { title: profileTitleText(p), summary: profileSummaryText(p) });
    for (const f of Object.keys(radios)) labels[f].hidden = !(p.formats || []).includes(f);
    if (!Object.keys(radios).some((f) => radios[f].checked && !labels[f].hidden)) {
      const f = (p.formats || []).includes(p.default_format) ? p.default_format : (p.formats || ["first_to"])[0];
      if (radios[f]) radios[f].checked = true;
    }
    target.disabled = !radios.first_to.checked;
    const st = p.stake;
    stakeRow.hidden = !st || !radios.stakes.checked;
    if (st) {
      const keep = tablas.value || saved.tablas_stake || st.default_tablas_stake;
      tablas.replaceChildren(...(st.tablas_stake || []).map((x) => h("option", { value: x, selected: x === keep }, t(`page.lobby.tablas.${x}`))));
    }
    problem.hidden = true;
  }

  function setProfiles(list, keep) {
    profiles = list && list.length ? list : FALLBACK_PROFILES;
    const want = keep || rulesSelect.value || saved.rules;
    // each option is the profile's name alone (a long line was cut in the box); the
    // chosen one's summary is said below it (rules-summary)
    rulesSelect.replaceChildren(...profiles.map((p) => h("option", { value: p.name }, profileTitleText(p))));
    rulesSelect.value = profiles.some((p) => p.name === want) ? want : profiles[0].name;
    // the remembered format if it is this profile's, else the profile's default (sync)
    for (const r of Object.values(radios)) r.checked = false;
    const f = saved.rules === rulesSelect.value ? saved.format : null;
    if (f && radios[f] && (profile().formats || []).includes(f)) radios[f].checked = true;
    sync();
  }
  setProfiles(FALLBACK_PROFILES, saved.rules);
  rulesSelect.addEventListener("change", () => {
    for (const r of Object.values(radios)) r.checked = false;
    sync();
  });
  for (const r of Object.values(radios)) r.addEventListener("change", sync);
  // A shown problem follows the field as it is typed: gone once the value is valid,
  // else re-worded for the new value (not only when a Play button is pressed).
  const recheck = () => {
    if (problem.hidden) return;
    const r = fs.read();
    if (r.ok) problem.hidden = true;
    else problem.textContent = r.problem;
  };
  target.addEventListener("input", recheck);
  stake.addEventListener("input", recheck);

  const fs = h(
    "fieldset", { class: "format" },
    h("legend", {}, t("page.lobby.rules_and_format")),
    h("div", { class: "rules-row" }, h("label", { for: "rules-select" }, t("page.lobby.rules")), rulesSelect),
    summary,
    labels.first_to, labels.tally, labels.stakes, problem,
  );
  fs.setProfiles = setProfiles;
  fs.profile = profile;
  /** The POST /api/matches fields, or the reason in words they are not valid. */
  fs.read = () => {
    const p = profile();
    const f = format();
    const body = { rules: p.name, format: f };
    if (f === "first_to") {
      const why = targetProblem(target.value, p.max_target || TARGET_MAX);
      if (why) return { ok: false, problem: why, field: target };
      body.target = Number(target.value.trim());
    }
    if (f === "stakes" && p.stake) {
      const v = String(stake.value).trim();
      const max = p.stake.max || 99;
      if (!/^[0-9]+$/.test(v) || Number(v) < 1 || Number(v) > max) {
        return { ok: false, problem: t("page.lobby.stake_problem", { max }), field: stake };
      }
      body.stake = Number(v);
      body.tablas_stake = tablas.value || p.stake.default_tablas_stake;
    }
    return { ok: true, body };
  };
  fs.showProblem = (r) => {
    problem.textContent = r.problem;
    problem.hidden = false;
    r.field.focus();
  };
  fs.settings = () => ({
    rules: rulesSelect.value, format: format(), target: target.value.trim(), stake: stake.value.trim(),
    tablas_stake: tablas.value,
  });
  return fs;
}

/** The bots the lobby offers before GET /api/bots answers, and the one it picks when
 * none is remembered. */
const DEFAULT_BOTS = ["random", "beginner", "casual", "intermediate", "master"];
const DEFAULT_BOT = "intermediate";
const OLD_BOTS = { greedy: "intermediate", search: "master" };

/** Render the lobby into `main`; returns {close}. */
export function renderLobby(main, { go }) {
  document.title = t("page.title.lobby");
  const saved = loadSettings();
  // a choice remembered before the levels: the level that plays as that bot did
  if (OLD_BOTS[saved.bot]) saved.bot = OLD_BOTS[saved.bot];
  const fmt = rulesChooser(saved);
  // The bots offered to people (GET /api/bots: random and the levels), each labelled
  // from the catalog; until the list comes, the usual one.
  const botLabel = (b) => (has(`page.bot_option.${b}`) ? t(`page.bot_option.${b}`) : t("page.bot.named", { bot: b }));
  // each measured level with its ladder rating beside the name (GET /api/bots `ladder`, issue 20)
  const botOptions = (names, ladder = {}) => names.map((b) => botOption(b, botLabel(b), ladder[b]));
  const botSelect = h("select", { id: "bot-select", "data-testid": "bot-select" }, botOptions(DEFAULT_BOTS));
  // The player's name (trimmed, 1-24 characters; empty: "Player 1"), remembered.
  const nameInput = h("input", { type: "text", id: "player-name", "data-testid": "name-input", maxlength: 96, autocomplete: "nickname",
    value: saved.name || "", placeholder: t("page.name_placeholder"), "aria-describedby": "name-problem" });
  const nameProblemEl = h("p", { class: "error small", id: "name-problem", role: "alert", hidden: true });
  nameInput.addEventListener("input", () => { nameProblemEl.hidden = true; });
  const hintsBox = hintsAgreement();
  // The clock: none, 60 s or 30 s per decision (the server's clock, with a small bank).
  const clockSelect = h("select", { id: "clock-select", "data-testid": "clock-select" },
    CLOCKS.map((c) => h("option", { value: c === null ? "" : String(c) }, c === null ? t("page.clock.none") : t("page.clock.per_decision", { s: c }))));
  clockSelect.value = CLOCKS.includes(saved.clock) && saved.clock !== null ? String(saved.clock) : "";
  botSelect.value = DEFAULT_BOTS.includes(saved.bot) ? saved.bot : DEFAULT_BOT;
  const inviteBox = h("div", { class: "invite", hidden: true });
  let busy = false;

  /** The chosen settings ({rules, format, target, …, name, clock}, remembered), or null
   * after showing what is wrong (nothing shown with `quiet`). */
  function choices({ quiet = false } = {}) {
    const read = fmt.read();
    const name = nameInput.value.trim();
    const why = nameProblem(nameInput.value);
    if (quiet) return read.ok && !why ? { ...read.body, name: name || null } : null;
    if (!read.ok) { fmt.showProblem(read); return null; }
    if (why) {
      nameProblemEl.textContent = why;
      nameProblemEl.hidden = false;
      nameInput.focus();
      return null;
    }
    const clock = clockSelect.value ? Number(clockSelect.value) : null;
    saveSettings({ ...fmt.settings(), bot: botSelect.value, clock, name });
    return { ...read.body, name: name || null, clock };
  }
  const meet = meetPanel({ choices, go });

  async function create(opponent) {
    if (busy) return;
    const chosen = choices();
    if (!chosen) return;
    busy = true;
    try {
      const body = { opponent, ...chosen };
      if (opponent === "bot") body.bot = botSelect.value;
      else body.hints = hintsBox.checked();
      const res = await api("POST", "/api/matches", { body });
      saveSeat(res.match_id, { seat: res.seat, token: res.token, opponent });
      // The new match belongs in "Your matches" at once (it is also where a bot match
      // shows up if the page stays here, e.g. the navigation is slow).
      fillMatches(list, go);
      if (opponent === "bot") {
        go(res.table_url || `/table/${res.match_id}`);
        return;
      }
      const url = new URL(res.invite_url, location.origin).href;
      const input = h("input", { type: "text", readonly: true, value: url, "data-testid": "invite-link", "aria-label": t("page.invite_link"), class: "invite-input" });
      input.addEventListener("focus", () => input.select());
      inviteBox.hidden = false;
      inviteBox.replaceChildren(
        h("p", {}, t("page.invite_send")),
        h("div", { class: "invite-row" }, input, h("button", { type: "button", class: "btn", onclick: () => copy(url) }, t("page.copy_link"))),
        h("p", {}, h("a", { class: "btn primary", href: res.table_url || `/table/${res.match_id}`, "data-nav": "", "data-testid": "go-to-table" }, t("page.go_to_table"))),
      );
      input.focus();
    } catch (err) {
      toast(t("page.lobby.start_failed", { why: err.message }), "error");
    } finally {
      busy = false;
    }
  }

  const copy = (url) => Promise.resolve().then(() => navigator.clipboard.writeText(url))
    .then(() => toast(t("page.copied")), () => toast(t("page.copy_by_hand")));

  const helpBtn = h("button", { type: "button", class: "btn", "data-testid": "open-help", onclick: (ev) => openHelp(fmt.profile().name, ev.currentTarget) }, t("page.how_to_play"));
  // first-time visitors: the guided first deal (until dismissed or won; also in the help)
  const guided = tutorialBanner({ name: () => nameInput.value.trim() || null });
  const list = h("div", { class: "my-matches", "data-testid": "my-matches", "aria-live": "polite" }, h("p", { class: "muted" }, t("page.lobby.loading_matches")));
  main.replaceChildren(
    h(
      "div", { class: "lobby" },
      guided,
      h("section", { class: "panel hero" },
        h("div", { class: "hero-row" }, h("h1", {}, t("term.conquian")), h("span", { class: "hero-links" }, helpBtn,
          h("a", { class: "btn", href: "/leaderboard", "data-nav": "", "data-testid": "leaderboard-link" }, t("page.leaderboard.link")),
          h("a", { class: "btn", href: "/account", "data-nav": "", "data-testid": "account-link" }, t("page.account.link")))),
        h("p", {}, t("page.lobby.intro")),
      ),
      h("section", { class: "panel" },
        h("h2", {}, t("page.lobby.new_match")),
        h("div", { class: "name-row" }, h("label", { for: "player-name" }, t("page.your_name")), nameInput),
        nameProblemEl,
        fmt,
        h("div", { class: "clock-row" }, h("label", { for: "clock-select" }, t("page.clock.label")), clockSelect),
        h("div", { class: "choice-group" },
          h("h3", {}, t("page.lobby.against_computer")),
          h("div", { class: "bot-row" },
            h("label", { for: "bot-select" }, t("page.lobby.bot")), botSelect,
            h("button", { type: "button", class: "btn primary", "data-testid": "new-match-bot", onclick: () => create("bot") }, t("page.lobby.play_computer"))),
        ),
        h("div", { class: "choice-group" },
          h("h3", {}, t("page.lobby.against_friend")),
          hintsBox.el,
          h("button", { type: "button", class: "btn primary", "data-testid": "new-match-friend", onclick: () => create("friend") }, t("page.lobby.invite_friend")),
          inviteBox,
        ),
      ),
      meet.el,
      h("section", { class: "panel" }, h("h2", {}, t("page.lobby.your_matches")), list),
    ),
  );
  fillMatches(list, go);
  // The profiles this server offers, each with the formats it allows (GET /api/profiles).
  api("GET", "/api/profiles").then((d) => fmt.setProfiles(d.profiles || [], saved.rules)).catch(() => {});
  // Offer only the bots this server has.
  api("GET", "/api/bots").then((d) => {
    const names = [...new Set(d.bots || [])];
    if (!names.length) return;
    const was = botSelect.value;
    botSelect.replaceChildren(...botOptions(names, d.ladder || {}));
    const pick = [saved.bot, was, DEFAULT_BOT].find((b) => names.includes(b));
    botSelect.value = pick || names[0];
  }).catch(() => {});
  return { close() { meet.close(); } };
}
