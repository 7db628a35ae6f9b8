// The account page (/account, issue 20): sign up or sign in; once signed in, the name,
// sign out (here or everywhere), change the password, delete the account.  The session
// is an HttpOnly cookie the page never reads; GET /api/account says who is signed in.
// At sign-up the seats this browser holds (localStorage) join the account; at sign-out
// the account's seats leave this browser (they stay with the account).

import { api, loadSeats } from "./api.js";
import { t } from "./i18n.js";
import { forgetAccountSeats } from "./mine.js";
import { h, toast } from "./ui.js";

/** The seats this browser holds, as POST /api/account/sign-up takes them. */
function heldSeats() {
  return Object.entries(loadSeats())
    .filter(([, s]) => s && (s.seat === 1 || s.seat === 2) && typeof s.token === "string")
    .slice(0, 50)
    .map(([matchId, s]) => ({ match_id: matchId, seat: s.seat, token: s.token }));
}

/** A labelled text input; `kind` "username" or "password" (its own data-testid). */
function field(kind, labelKey, autocomplete, testid) {
  const input = h("input", {
    type: kind === "password" ? "password" : "text", name: kind, autocomplete, required: true,
    "data-testid": testid, maxlength: kind === "password" ? 256 : 20, minlength: kind === "password" ? 8 : 3,
    autocapitalize: "none", spellcheck: "false",
  });
  return { input, row: h("label", { class: "field" }, h("span", {}, t(labelKey)), input) };
}

/** "Wait N seconds" under a minute and a half, else "wait N minutes" (rounded up). */
function waitWords(seconds) {
  return seconds < 90 ? t("page.account.wait", { s: Math.ceil(seconds) })
    : t("page.account.wait_minutes", { m: Math.ceil(seconds / 60) });
}

/** One form: fields, a submit button (`testid`), an error line; `send(values)` posts it. */
function form(titleKey, fields, submitKey, testid, send) {
  const error = h("p", { class: "form-error", role: "alert", "data-testid": `${testid}-error` });
  const button = h("button", { type: "submit", class: "btn primary", "data-testid": testid }, t(submitKey));
  const el = h("form", { class: "panel account-form", novalidate: true },
    h("h2", {}, t(titleKey)), ...fields.map((f) => f.row), error, button);
  el.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const values = fields.map((f) => f.input.value);
    if (fields.some((f, i) => (f.input.name === "password" ? values[i] : values[i].trim()) === "")) {  // said here: the server would answer "do not match"
      error.textContent = t("page.account.fill_in");
      return;
    }
    button.disabled = true;
    try {
      await send(values);
    } catch (err) {
      const wait = err.params && err.params.retry_after;
      error.textContent = err.code === "rate_limited" && wait ? waitWords(wait) : err.message;
    } finally {
      button.disabled = false;
    }
  });
  return el;
}

function signedOut(main, refresh) {
  const upName = field("username", "page.account.username", "username", "username-input");
  const upPass = field("password", "page.account.password", "new-password", "password-input");
  const inName = field("username", "page.account.username", "username", "username-input");
  const inPass = field("password", "page.account.password", "current-password", "password-input");
  const up = form("page.account.sign_up_title", [upName, upPass], "page.account.sign_up", "sign-up",
    async ([username, password]) => {
      if (password.length < 8) throw new Error(t("error.bad_password"));  // said before sending
      await api("POST", "/api/account/sign-up", { body: { username, password, seats: heldSeats() } });
      refresh();
    });
  up.append(h("p", { class: "hint" }, t("page.account.rules")));
  const inForm = form("page.account.sign_in_title", [inName, inPass], "page.account.sign_in", "sign-in",
    async ([username, password]) => {
      await api("POST", "/api/account/sign-in", { body: { username, password } });
      refresh();
    });
  main.replaceChildren(h("section", { class: "account", "data-testid": "account" },
    h("h1", {}, t("page.account.title")), h("p", {}, t("page.account.why")), inForm, up,
    h("p", {}, h("a", { href: "/", "data-nav": true }, t("page.account.back")))));
}

function signedIn(main, me, refresh, go) {
  const post = async (path, body) => {
    await api("POST", path, { body: body || {} });
  };
  const current = field("password", "page.account.current", "current-password", "password-current");
  const next = field("password", "page.account.new", "new-password", "password-new");
  const change = form("page.account.change_title", [current, next], "page.account.change", "change-password",
    async ([cur, nw]) => {
      await post("/api/account/password", { current: cur, new: nw });
      toast(t("page.account.changed"));
      current.input.value = next.input.value = "";
    });
  const confirm = field("password", "page.account.password", "current-password", "password-delete");
  const del = form("page.account.delete_title", [confirm], "page.account.delete", "delete-account",
    async ([pw]) => {
      await post("/api/account/delete", { password: pw });
      toast(t("page.account.deleted"));
      refresh();
    });
  del.querySelector("h2").after(h("p", { class: "hint" }, t("page.account.delete_note")));
  // signing out leaves none of the account's seats in this browser (mine.js)
  const leave = async (path) => {
    try {
      await forgetAccountSeats();
      await post(path);
    } catch (err) {
      toast(err.message, "error");
    }
    refresh();
  };
  const out = h("button", { type: "button", class: "btn", "data-testid": "sign-out",
    onclick: () => leave("/api/account/sign-out") }, t("page.account.sign_out"));
  const everywhere = h("button", { type: "button", class: "btn", "data-testid": "sign-out-everywhere",
    onclick: () => leave("/api/account/sign-out-everywhere") },
  t("page.account.sign_out_everywhere"));
  main.replaceChildren(h("section", { class: "account", "data-testid": "account" },
    h("h1", {}, t("page.account.title")),
    h("p", {}, t("page.account.signed_in_as"), " ", h("strong", { "data-testid": "account-name" }, me.username)),
    h("p", {}, t("page.account.seats", { n: me.seats.length })),
    h("p", { class: "account-actions" }, out, " ", everywhere),
    change, del,
    h("p", {}, h("a", { href: "/", "data-nav": true, onclick: (ev) => { ev.preventDefault(); go("/"); } },
      t("page.account.back")))));
}

/** Render the account page into `main`; returns {close}. */
export function renderAccount(main, { go }) {
  let alive = true;
  const refresh = async () => {
    let me = null;
    try {
      me = await api("GET", "/api/account");
    } catch (err) {
      toast(err.message, "error");
    }
    if (!alive) return;
    if (me && me.signed_in) signedIn(main, me, refresh, go);
    else signedOut(main, refresh);
  };
  main.replaceChildren(h("p", { class: "panel loading" }, t("page.loading")));
  refresh();
  return { close() { alive = false; } };
}
