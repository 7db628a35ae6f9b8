"""``gameweave play``: one person against a bot, a whole match, in the terminal (Rich).

Everything shown to the person comes from their seat's view (R21): their hand in hand
order (R4), both tables with numbered melds (§VII) and "N of 11 melded" with a badge when a
seat is one card from eleven (R16), the card in the centre and who let it go, the dead
cards by suit, the stock count, the match tally and stakes balance (R20), what just
happened in plain words (``h`` shows the deal's whole public history), and every legal
action as a numbered choice (built by :mod:`gameweave.tables.choices`, as on the page).
A move that publicly hands the opponent the deal asks for a confirmation first.  The bot,
named as on the page ("Greedy bot"), decides from its own view only.  At the end of a
deal the opponent's hand is shown; the finished deals are saved as a match record
(§VII).  Keyboard only: a number (or an action in §VII notation, e.g. ``throw Ks``),
``?`` or ``help`` for the rules (from ``tables/help.json``), ``q`` to leave; Ctrl-C or end
of input leave cleanly.

Every profile plays (``--rules``, §V): where melds are rearranged (R18) each meld choice
is shown as the whole new table with the hand cards it uses, a forced card waits for the
person's ``meld`` decision (R18e), and anglo-american offers forcing back (R19).  When
there are many tables to choose from (up to 128, R18b) the common ones (one new meld, one
meld added to) are listed and the person may type the hand cards to add instead, then
pick among the few tables that use exactly those.  The match follows the profile and the
options the page offers (R20: ``--format``, ``--target``, ``--stake``, ``--tablas-stake``),
and "what just happened" is told from the view's public events, never from text.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import datetime, UTC
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from ..engine import (
    FORCE_ANY, GameState, GameweaveError, Match, PublicEvent, SeatView, find_profile,
    force_of, format_cards, kind_of, meld_cards, parse_action, seat_view, table_of, thrown_card,
)
from ..engine.actions import FORCE_KIND, REFUSE_KIND, TABLE, TURN_KIND
from ..engine.cards import CARD_NAMES, SUITS, cards_of, parse_cards
from ..engine.errors import UnparsableError
from ..engine.record import GameRecord, MatchRecord
from ..i18n import UnknownLanguage, check_language, messages, terminal_language, translate
from ..tables import Choice, TableError, check_name, check_new_match, help_data, seat_choices
from ..tables.choices import one_from_eleven
from .app import app
from .common import RULES_HELP, error, options_or_exit, profile_or_exit

BOT_NAMES = "random, greedy, search, search-v1, noisy (greedy with random slips) or a level name"
MANY_MELDS = 10
"""Above this many meld choices the R18 chooser lists the common tables only and lets the
person type the hand cards to add (R18b)."""
SUIT_STYLE = {0: "green", 1: "yellow", 2: "red", 3: "blue"}
LANG = ["en"]
"""The language of this run (``--lang``, else the locale): every word printed comes from
the catalog in it (``terminal.*``, ``term.*``, ``help.*``)."""


class _Quit(Exception):
    """The person left the table."""


SUIT_SYMBOLS = "♣♦♥♠"
SYMBOLS = [True]
"""Whether this run writes suits as the page does (``A♦``, in every language) or, on a
console that cannot print them, as the §VII letters (``Ad``); typed input takes both."""


def _prints_suits(con: Console) -> bool:
    """Whether ``con``'s output encoding can write ``♣♦♥♠``."""
    try:
        SUIT_SYMBOLS.encode(con.encoding or "ascii")
    except (LookupError, UnicodeError):
        return False
    return True


def _name(card: int) -> str:
    """One card as the terminal writes it: rank letter (R3) and suit symbol (or letter)."""
    return CARD_NAMES[card][0] + SUIT_SYMBOLS[card & 3] if SYMBOLS[0] else CARD_NAMES[card]


def _plain(mask: int) -> str:
    """A mask's cards in hand order (R4), space-separated, without markup."""
    return " ".join(_name(c) for c in cards_of(mask))


def _cards(mask: int) -> str:
    """Rich markup of a mask's cards in hand order (R4), one colour per suit."""
    return " ".join(f"[{SUIT_STYLE[c & 3]}]{_name(c)}[/]" for c in cards_of(mask))


def _notation(text: str) -> str:
    """Typed words in §VII notation: a leading verb of the game in this run's language
    (``descartar K♠``, ``bajar 6♦``, ``voltear``) becomes its notation verb (``throw K♠``);
    anything else is left as typed (the §VII verbs work in every language)."""
    verbs = {_term("meld_verb"): "meld", _term("throw"): "throw", _term("refuse"): "refuse",
             _term("turn"): "turn", _term("turn").split()[0]: "turn", _term("force"): "force"}
    low = text.strip().lower()
    for word, verb in sorted(verbs.items(), key=lambda kv: -len(kv[0])):
        w = word.lower()
        if low == w or low.startswith(w + " "):
            return verb + text.strip()[len(w):]
    return text


def _t(key: str, **params: object) -> str:
    """A terminal message (``terminal.<key>``) in the language of this run (``--lang``)."""
    return translate(f"terminal.{key}", LANG[0], **params)


def _term(key: str) -> str:
    """A word of the game (``term.<key>``) in the language of this run."""
    return translate(f"term.{key}", LANG[0])


def _table(melds: tuple[int, ...] | list[int]) -> str:
    """A table as bracketed melds, e.g. ``[3h 4h 5h] [6c 6d 6h]``."""
    return " ".join(f"[{_cards(m)}]" for m in melds) if melds else _t("no_melds_table")


def _meld_list(melds: tuple[int, ...]) -> str:
    if not melds:
        return _t("no_melds")
    return "   ".join(f"{i}) {_cards(m)}" for i, m in enumerate(melds, 1))


def _melding(view: SeatView) -> int:
    """The card the viewer's ``meld`` choices meld: the forced card (R18e) or the centre."""
    return view.forced if view.forced >= 0 else view.centre


def choice_text(view: SeatView, action: int, opp_name: str | None = None) -> str:
    """Plain words for one of the viewer's legal actions: a meld choice shows the
    resulting meld (R12) or, where melds are rearranged, the whole new table (R18); a
    force names the target meld's cards (R15) or says the opponent must meld it (R18e).
    ``opp_name`` names the opponent (default ``Player N``).  Words from the catalog
    (``terminal.*``, ``term.*``) in this run's language."""
    me = view.seat
    opp = 1 - me
    oname = opp_name or _t("player_n", n=opp + 1)
    k = kind_of(action)
    you_win = f" [bold green]{_t('win_you')}[/]"
    if k == TABLE:
        card = _melding(view)
        result = table_of(action)
        used = meld_cards(action) & view.hand
        extra = _t("with_from_hand", cards=_cards(used)) if used else ""
        total = view.table_counts[me] + 1 + used.bit_count()
        win = you_win if total >= 11 else ""
        return _t("meld_table", card=_name(card), extra=extra, table=_table(result), win=win)
    if k == 0:
        card = _melding(view)
        result = meld_cards(action)
        bit = 1 << card
        rest = result & ~bit
        mine = view.melds[me]
        win = you_win if view.table_counts[me] + result.bit_count() - (
            rest.bit_count() if rest in mine else 0) >= 11 else ""
        if rest in mine:
            n = mine.index(rest) + 1
            return _t("meld_onto", card=_name(card), n=n, cards=_cards(result), win=win)
        kind = _term("set") if len({c >> 2 for c in range(40) if result >> c & 1}) == 1 else _term("sequence")
        return _t("meld_new", card=_name(card), rest=_cards(rest), kind=kind, cards=_cards(result), win=win)
    if k == TURN_KIND:
        if view.centre >= 0 and view.live_from == opp:
            return _t("turn_let_die", card=_name(view.centre))
        return _t("turn_top")
    if k == FORCE_KIND:
        return _t("force_back", card=_name(view.centre), opp=oname)
    card = view.centre if k == REFUSE_KIND else thrown_card(action)
    verb = _t("verb_refuse") if k == REFUSE_KIND else _t("verb_throw")
    force = force_of(action)
    warn = f" [red]{_t('eleven_for', opp=oname)}[/]" if view.table_counts[opp] + 1 >= 11 else ""
    if force == FORCE_ANY:
        return _t("force_any", verb=verb, card=_name(card), opp=oname, table=_table(view.melds[opp]), warn=warn)
    if force:
        target = view.melds[opp][force - 1]
        return _t("force_onto", verb=verb, card=_name(card), opp=oname, n=force, target=_cards(target),
                  result=_cards(target | (1 << card)), warn=warn)
    if k == REFUSE_KIND:
        return _t("refuse_live", card=_name(card), opp=oname)
    return _t("throw_card", cards=_cards(1 << card))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def event_words(ev: PublicEvent, after: SeatView, me: int, opp_name: str | None = None) -> str:
    """Plain words for one public event from seat ``me``'s point of view, from the
    event's fields only (R21), e.g. ``"Player 2 forced 7s onto your meld 4s 5s 6s"``;
    ``opp_name`` names the other seat (default ``Player N``).  Words from the catalog in
    this run's language (``terminal.ev_*``: ``.me`` when you acted, ``.other`` else)."""
    seat = ev.seat
    oname = opp_name or _t("player_n", n=2 - me)
    side = "me" if seat == me else "other"
    card = _name(ev.card) if ev.card >= 0 else ""
    won = after.status == "won" and after.history and after.history[-1] == ev
    k = ev.kind
    if k == "meld":
        if kind_of(ev.action) == TABLE:
            what = _t(f"ev_forced_card.{side}") + f" ({card})" if ev.forced else card
            s = _t(f"ev_meld_table.{side}", who=oname, what=what)
            if ev.from_hand:
                s += _t(f"ev_from_hand.{side}", cards=_plain(ev.from_hand))
            s += _t(f"ev_table_now.{side}", table=" / ".join(_plain(m) for m in ev.table))
        else:
            rest = ev.meld & ~(1 << ev.card)
            if ev.from_hand:
                s = _t(f"ev_meld_new.{side}", who=oname, card=card, meld=_plain(ev.meld))
            else:
                s = _t(f"ev_meld_onto.{side}", who=oname, card=card, meld=_plain(rest))
        if won:
            s += _t(f"ev_reached_eleven.{side}")
        return s
    if k == "turn":
        pre = _t(f"ev_let_die.{side}", card=_name(ev.died)) if ev.died >= 0 else ""
        if ev.card < 0:
            return _cap(_t(f"ev_turn_empty.{side}", who=oname, pre=pre))
        return _cap(_t(f"ev_turned.{side}", who=oname, pre=pre, card=card))
    if k == "force":
        return _t(f"ev_force_back.{side}", who=oname, card=card, opp=oname)
    verb = "refused" if k == "refuse" else "threw"
    if ev.forced:
        if ev.meld:
            target = _plain(ev.meld & ~(1 << ev.card))
            if seat == me:
                s = _t(f"ev_{verb}_forced.me", card=card, opp=oname, meld=target)
            else:
                s = _t("ev_forced_onto.other", who=oname, card=card, meld=target)
                if k == "refuse":
                    s += _t("ev_refused_turned")
            if won:
                s += _t(f"ev_eleven_for.{side}", opp=oname)
            return s
        return _t(f"ev_{verb}_forced_on.{side}", who=oname, card=card, opp=oname)
    s = _t(f"ev_{verb}.{side}", who=oname, card=card)
    if after.status == "tablas" and after.history and after.history[-1] == ev:
        s += _t("ev_tablas")
    return s


def event_text(before: SeatView, action: int, after: SeatView, me: int, opp_name: str | None = None) -> str:
    """Plain words for the action just applied (the last event of ``after``), from seat
    ``me``'s point of view."""
    return event_words(after.history[-1], after, me, opp_name)




def bot_name(name: str) -> str:
    """The bot's display name, as on the page: ``greedy`` -> ``Greedy bot``."""
    key = f"page.bot.{name.strip().lower()}"  # the page's name for it, where the catalog has one
    if key in messages(LANG[0]):
        return messages(LANG[0])[key]
    return _t("bot_name", name=f"{name[:1].upper()}{name[1:]}")


def _score(match: Match, me: int, oname: str = "") -> str:
    """The score line: wins, tablas, the format, and in a stakes match both seats' stakes,
    the balance and this deal's stake (R20)."""
    opp = 1 - me
    oname = oname or _t("player_n", n=opp + 1)
    s = _t("score", mine=match.wins[me], theirs=match.wins[opp], opp=oname, tablas=match.tablas)
    if match.format == "first_to":
        s += _t("score_first_to", n=match.target)
    elif match.format == "stakes":
        s += _t("score_stakes", mine=match.points[me], opp=oname, theirs=match.points[opp],
                balance=f"{match.balance(me):+d}", stake=match.current_stake)
    return s


def dead_grid(dead: int) -> str:
    """The dead cards as a compact grid by suit: ``♣: 2 5 K · ♦: – · ♥: A 7 · ♠: Q`` (letters
    where the console cannot print the symbols)."""
    parts = []
    for suit in range(4):
        ranks = [CARD_NAMES[c][0] for c in range(suit, 40, 4) if dead >> c & 1]
        head = SUIT_SYMBOLS[suit] if SYMBOLS[0] else SUITS[suit]
        parts.append(f"[{SUIT_STYLE[suit]}]{head}[/]: {' '.join(ranks) or '–'}")
    return " · ".join(parts)


def _progress_line(view: SeatView, seat: int, label: str) -> str:
    n = view.table_counts[seat]
    badge = f" [bold red]{_t('one_from_eleven')}[/]" if seat in one_from_eleven(view) else ""
    return _t("progress", label=label, n=n, badge=badge)


def _screen(con: Console, view: SeatView, deal_no: int, match: Match, oname: str, log: list[str]) -> None:
    me = view.seat
    opp = 1 - me
    con.rule(_t("screen_title", n=deal_no, rules=view.rules))
    con.print(_t("screen_score", score=_score(match, me, oname)))
    if log:
        con.print(f"[bold]{_t('what_happened')}[/]")
        for line in log:
            con.print(f"  {line}")
    theirs = _progress_line(view, opp, _t("their_table", opp=oname))
    con.print(f"{theirs}: {_meld_list(view.melds[opp])}")
    con.print(f"{_progress_line(view, me, _t('your_table'))}: {_meld_list(view.melds[me])}")
    if view.forced >= 0:
        forced = _cards(1 << view.forced)
        con.print(_t("forced_on_you", card=forced) if view.to_act == me else _t("forced_on_them", opp=oname, card=forced))
    elif view.centre >= 0:
        if view.live_from == opp:
            where = _t("centre_live", opp=oname)
        elif view.live_from == me:
            where = _t("centre_by_you")
        else:
            where = _t("centre_turned_you") if view.to_act == me else _t("centre_turned_them", opp=oname)
        con.print(_t("centre", card=_cards(1 << view.centre), where=where))
    else:
        con.print(_t("centre_empty"))
    con.print(_t("dead_cards", n=view.dead.bit_count(), grid=dead_grid(view.dead)))
    con.print(_t("stock_line", stock=_n(view.stock_count, "card"), opp=oname, held=_n(view.hand_counts[opp], "card")))
    con.print(_t("your_hand", cards=_cards(view.hand) or _t("empty")))


def show_help(con: Console, rules: str) -> None:
    """Print the rules of profile ``rules``, the glossary and first-deal tips (from the
    catalogs, in this run's language)."""
    data = help_data(LANG[0])
    prof = data["profiles"][find_profile(rules).name]
    con.rule(_t("help_title", title=prof["title"], summary=prof["summary"]))
    for sec in prof["sections"]:
        con.print(f"[bold]{escape(sec['title'])}.[/] {escape(sec['text'])}")
    con.print(f"[bold]{_t('help_words')}[/]")
    for g in data["glossary"]:
        con.print(f"  [bold]{escape(g['term'])}[/]: {escape(g['text'])}")
    con.print(f"[bold]{_t('help_tips')}[/]")
    for tip in data["tips"]:
        con.print(f"  - {escape(tip)}")
    con.print(escape(data["terminal"]["help_hint"]))


def _is_common(view: SeatView, c: Choice) -> bool:
    """A meld choice that leaves the table as it is but for one meld: one new meld, or
    one meld added to; or one that adds no hand card (R12-like cases under R18)."""
    if not c.uses:
        return True
    before = set(view.melds[view.seat])
    new = [m for m in c.melds if m not in before]
    gone = [m for m in before if m not in c.melds]
    return len(new) == 1 and (not gone or (len(gone) == 1 and gone[0] & ~new[0] == 0))


Reader = Callable[[str], str]
"""Reads one line of input after a prompt; raises EOFError at the end of input."""


class Asker:
    """The person's side of one decision: lists the choices, reads numbers, typed
    actions, typed hand cards (the R18 chooser), ``?``/``help``, ``h`` and ``q``, and
    confirms a move that gives the opponent eleven (R16).  ``read`` reads a line."""

    def __init__(self, con: Console, read: Reader, oname: str, hint_level: str = "master"):
        self.con = con
        self.read = read
        self.oname = oname
        self.hint_level = hint_level

    def _line(self, prompt: str) -> str:
        try:
            return self.read(prompt).strip()
        except EOFError:
            raise _Quit() from None

    def entries(self, view: SeatView, choices: list[Choice]) -> tuple[list[Choice], int]:
        """The numbered entries: all choices, or where there are more than
        :data:`MANY_MELDS` meld choices, the common meld choices and every other choice;
        and how many meld choices are left to the hand-card chooser."""
        melds = [c for c in choices if c.is_meld]
        if len(melds) <= MANY_MELDS:
            return choices, 0
        shown = [c for c in choices if not c.is_meld or _is_common(view, c)]
        return shown, len(choices) - len(shown)

    def ask(self, view: SeatView, history: Callable[[], None] | None = None) -> int:
        """The action the person picks (one of ``view.legal``).  Raises :class:`_Quit`."""
        con = self.con
        choices = seat_choices(view)
        if view.decision == "meld":
            con.print(f"[bold]{_t('forced_choose', card=_name(view.forced))}[/]")
        shown, hidden = self.entries(view, choices)
        while True:
            con.print(f"[bold]{_t('your_choices')}[/]")
            eleven_for = _t("eleven_for", opp=self.oname)
            for i, c in enumerate(shown, 1):
                text = choice_text(view, c.action, self.oname)
                warn = (f" [bold red]{_t('gives_eleven', opp=self.oname)}[/]"
                        if c.gives_eleven and eleven_for not in text else "")
                con.print(f"  {i:>2}) {text}{warn}")
            if hidden:
                hint = help_data(LANG[0])["terminal"]["r18_pick"].format(example=self._example(view, choices), count=hidden)
                con.print(f"  {escape(hint)}")
            n = len(shown)
            ask = _t("press_enter") if n == 1 else _t("choose_range", n=n)
            text = self._line(_t("prompt", ask=ask))
            picked = self._pick(view, choices, shown, text, history)
            if picked is None:
                continue
            if picked.gives_eleven and not self._confirm(picked, shown):
                continue
            return picked.action

    def show_hint(self, view: SeatView, shown: list[Choice]) -> None:
        """Each shown choice's estimated chance to win the deal, from this seat's view
        only (R21), by the ``hint_level`` bot (issue 11: hints)."""
        from ..bots.advice import hint

        est = {e.action: e for e in hint(view, self.hint_level, seed=0)}
        best = max(est.values(), key=lambda e: e.score).action
        self.con.print(f"[bold]{_t('hint_head', level=self.hint_level)}[/]")
        for i, c in enumerate(shown, 1):
            e = est[c.action]
            mark = " *" if c.action == best else ""
            self.con.print(f"  {i:>2}) {_t('hint_line', score=round(100 * e.score), win=round(100 * e.win), tablas=round(100 * e.tablas))}"
                           f"{mark}  {choice_text(view, c.action, self.oname)}")

    def _example(self, view: SeatView, choices: list[Choice]) -> str:
        for c in choices:
            if c.is_meld and c.uses and not _is_common(view, c):
                return format_cards(c.uses)  # what to type: §VII letters
        return "2d 3d"

    def _pick(self, view: SeatView, choices: list[Choice], shown: list[Choice], text: str,
              history: Callable[[], None] | None) -> Choice | None:
        con = self.con
        n = len(shown)
        low = text.lower()
        if low in ("q", "quit", "exit", _t("word_quit")):
            raise _Quit()
        if low in ("?", "help", _t("word_help")):
            show_help(con, view.rules)
            return None
        if low in ("h", "history", _t("word_history")):
            if history is not None:
                history()
            return None
        if low in ("hint", "pista"):
            self.show_hint(view, shown)
            return None
        if text.isdigit():
            k = int(text)
            if 1 <= k <= n:
                return shown[k - 1]
            con.print(f"[red]{_t('no_choice', k=k, how=_how(n))}[/]")
            return None
        if not text:
            if n == 1:
                return shown[0]
            con.print(f"[red]{_t('type_number_or_q', n=n)}[/]")
            return None
        try:
            a = parse_action(_notation(text), find_profile(view.rules))
        except GameweaveError as exc:
            cards = self._hand_cards(view, text)
            if cards is not None and any(c.is_meld for c in choices):
                return self.choose_by_cards(view, choices, cards)
            reason = _t("not_understood", text=repr(text)) if LANG[0] != "en" and isinstance(exc, UnparsableError) \
                else _reason(exc)
            con.print(f"[red]{escape(_t('bad_text', reason=reason, how=_how(n)))}[/]")
            return None
        for c in choices:
            if c.action == a:
                return c
        con.print(f"[red]{escape(_t('not_a_choice', text=repr(text), how=_how(n)))}[/]")
        return None

    @staticmethod
    def _hand_cards(view: SeatView, text: str) -> int | None:
        """The mask of typed hand cards (``-`` is none), or None if it is not that."""
        if text.strip() == "-":
            return 0
        try:
            cards = parse_cards(text)
        except (GameweaveError, ValueError):
            return None
        mask = 0
        for c in cards:
            mask |= 1 << c
        return mask if mask & ~view.hand == 0 else None

    def choose_by_cards(self, view: SeatView, choices: list[Choice], cards: int) -> Choice | None:
        """The R18 chooser's second step: the meld choices that add exactly the hand
        cards ``cards``; one is taken at once, several are offered by number."""
        con = self.con
        fits = [c for c in choices if c.is_meld and c.uses == cards]
        what = _plain(cards) or _t("no_hand_card")
        if not fits:
            con.print(f"[red]{escape(help_data(LANG[0])['terminal']['r18_none'])} ({what})[/]")
            return None
        if len(fits) == 1:
            return fits[0]
        con.print(f"[bold]{_t('tables_adding', what=what)}[/]")
        for i, c in enumerate(fits, 1):
            con.print(f"  {i:>2}) {choice_text(view, c.action, self.oname)}")
        while True:
            text = self._line(_t("choose_or_back", n=len(fits)))
            if not text:
                return None
            if text.isdigit() and 1 <= int(text) <= len(fits):
                return fits[int(text) - 1]
            con.print(f"[red]{_t('type_number_or_back', n=len(fits))}[/]")

    def _confirm(self, c: Choice, shown: list[Choice]) -> bool:
        """Ask before a move that publicly gives the opponent eleven (R16): ``y``, or
        the same number again, plays it."""
        question = help_data(LANG[0])["terminal"]["confirm_danger"].format(opponent=self.oname)
        number = str(shown.index(c) + 1) if c in shown else ""
        self.con.print(f"[bold red]{escape(c.text)}:[/] " + escape(question.rstrip()))
        answer = self._line(_t("confirm_number", n=number) if number else _t("confirm_y"))
        return answer.lower() in ("y", "yes", "s", "si", "sí") or (bool(number) and answer == number)


def _history_printer(con: Console, st: GameState, me: int, oname: str) -> Callable[[], None]:
    def show() -> None:
        view = seat_view(st, me)
        con.rule(_t("history_title"))
        if not view.history:
            con.print(f"  {_t('nothing_yet')}")
        for i, ev in enumerate(view.history, 1):
            con.print(f"  {i:>2}. {event_words(ev, view, me, oname)}")
    return show


def play_deal(con: Console, st: GameState, me: int, bot, deal_no: int, match: Match, bot_label: str,
              read: Reader | None = None) -> None:
    """Play one deal to its end: the person in seat ``me`` decides every decision (the
    deal's first ``turn`` too), the bot answers from its own view (R21).  Raises
    :class:`_Quit` when the person leaves."""
    asker = Asker(con, read or con.input, bot_label)
    log: list[str] = []
    history = _history_printer(con, st, me, bot_label)
    while not st.is_over:
        seat = st.to_act
        if seat == me:
            before = seat_view(st, me)
            _screen(con, before, deal_no, match, bot_label, log)
            log = []
            a = asker.ask(before, history)
        else:
            a = bot.choose(seat_view(st, seat))
        st.play(a, seat=seat)
        after = seat_view(st, me)
        log.append(event_words(after.history[-1], after, me, bot_label))
    end = seat_view(st, me)
    opp = 1 - me
    con.rule(_t("deal_over", n=deal_no))
    for line in log:
        con.print(f"  {line}")
    if st.status == "won":
        con.print(f"[bold green]{_t('you_won_deal')}[/]" if st.winner == me
                  else f"[bold red]{_t('they_won_deal', opp=bot_label)}[/]")
    else:
        con.print(f"[bold]{_t('tablas_deal')}[/]")
    con.print(f"{_t('their_table', opp=bot_label)}: {_meld_list(end.melds[opp])}")
    con.print(_t("their_hand_was", opp=bot_label, cards=_cards(end.opponent_hand or 0) or _t("empty")))
    con.print(f"{_t('your_table')}: {_meld_list(end.melds[me])}")
    con.print(_t("your_hand", cards=_cards(end.hand) or _t("empty")))


def _record_path(record: Path | None) -> Path:
    """``--record FILE``, else a new file in ``<data dir>/records`` (``$GAMEWEAVE_DATA``)."""
    if record is not None:
        return record
    from ..storage import default_data_dir

    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return default_data_dir() / "records" / f"play-{stamp}.json"


def save_record(con: Console, path: Path, match: Match, finished: list[GameState]) -> None:
    """Write the finished deals as a §VII match record (``gameweave replay`` / ``verify``
    read it) and say where; an unfinished deal is never written (R21: its stock is
    still secret)."""
    if not finished:
        con.print(_t("no_record"))
        return
    rec = MatchRecord(rules=match.rules.name, first_opener=match.first_opener, options=dict(match.options),
                      deals=[GameRecord.from_state(st) for st in finished])
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(rec.to_dict()) + "\n", encoding="utf-8")
    except OSError as exc:
        error(f"cannot save the record to {path}: {exc.strerror or exc}")
        return
    con.print(_t("record_saved", deals=_n(len(finished), "finished_deal"), path=escape(str(path))))


@app.command()
def play(
    bot: str | None = typer.Option(None, "--bot", help="Opponent: " + BOT_NAMES + " (default greedy)."),
    rules: str = typer.Option("gameweave", "--rules", help=RULES_HELP),
    fmt: str | None = typer.Option(None, "--format", help="Match format: first_to, tally or stakes (stakes in "
                                                          "classic only). Default: the profile's."),
    target: int | None = typer.Option(None, "--target", min=1, max=99, help="N of a first-to-N match."),
    stake: int | None = typer.Option(None, "--stake", min=1, help="Base stake of a stakes match."),
    tablas_stake: str | None = typer.Option(None, "--tablas-stake",
                                            help="In a stakes match, what tablas does to the next stake: "
                                                 "double or carry."),
    deals: int | None = typer.Option(None, "--deals", min=1, help="Play this many deals. Default 3 (or the whole first-to match)."),
    to: int | None = typer.Option(None, "--to", min=1, help="Play until one seat has won this many deals (--format first_to --target N)."),
    seed: int | None = typer.Option(None, "--seed", help="Seed for the deals and the bot (default: random)."),
    seat: int = typer.Option(1, "--seat", min=1, max=2, help="Your seat, 1 or 2."),
    option: list[str] | None = typer.Option(None, "--option", help="Match option key=value (R20), e.g. tablas_stake=carry."),
    record: Path | None = typer.Option(None, "--record", dir_okay=False,
                                       help="Save the finished deals as a match record here (default: a new "
                                            "file in the data directory's records folder, named at the end)."),
    no_record: bool = typer.Option(False, "--no-record", help="Save no record."),
    test_decks: Path | None = typer.Option(
        None, "--test-decks", exists=True, dir_okay=False,
        help="Deal the deck orders of this file first (one 40-card deck a line, as for serve --test-decks), "
             "to replay a position; then shuffled deals.",
    ),
    lang: str | None = typer.Option(None, "--lang", help="Language: es or en (default: from the locale, "
                                                        "LANGUAGE / LC_ALL / LC_MESSAGES / LANG)."),
    name: str | None = typer.Option(None, "--name", help="Your name at the table (1-24 characters)."),
    level: str | None = typer.Option(None, "--level", help="Opponent by level instead of --bot: "
                                                          "beginner, casual, intermediate or master."),
) -> None:
    """Play a match against a bot in the terminal: type a choice's number each turn.

    Type ? or help at any choice for the rules of the profile in play, a glossary and
    tips; h for the deal's public history; hint for each choice's win chance; q to leave."""
    from ..bots import make_bot
    from ..engine import OptionError
    from ..tables import TestDeckError, read_test_decks

    con = Console(highlight=False)
    SYMBOLS[0] = _prints_suits(con)
    try:
        LANG[0] = terminal_language() if lang is None else check_language(lang)
    except UnknownLanguage:
        error(f"--lang must be es or en, not {lang!r}", 2)
    try:
        you = check_name(name)
    except TableError:
        error("--name must be 1 to 24 characters with no control characters", 2)
    if deals is not None and to is not None:
        error("give --deals or --to, not both", 2)
    if level is not None and bot is not None:
        error("give --bot or --level, not both", 2)
    if level is not None:
        from ..bots import level_names

        if level.strip().lower() not in level_names():
            error(f"--level must be one of {', '.join(level_names())}, not {level!r}", 2)
        bot = level.strip().lower()
    bot = bot or "greedy"
    profile = profile_or_exit(rules)
    assert profile is not None
    if to is not None:
        if fmt not in (None, "first_to") or target is not None:
            error("--to N is --format first_to --target N: give one of them", 2)
        fmt, target = "first_to", to
    try:
        opts = check_new_match(profile, fmt, target, stake, tablas_stake)
    except OptionError as exc:
        error(str(exc), 2)
    if option:
        given = [f"{k}={v}" for k, v in opts.items()] + list(option)
        opts = options_or_exit(profile, given)
    fixed: list[tuple[int, ...]] = []
    if test_decks is not None:
        try:
            fixed = read_test_decks(test_decks)
        except TestDeckError as exc:
            error(exc.message, 2)
    try:
        opponent = make_bot(bot, seed=seed)
    except ValueError as exc:
        error(str(exc), 2)
    label = bot_name(bot.strip().lower())
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 30)
    me = seat - 1
    rng = random.Random(seed)
    first = rng.randrange(2) if profile.first_opener == "random" else 0
    match = Match(rules=profile, format=opts["match"], target=opts["target"], stake=opts["stake"],
                  tablas_stake=opts["tablas_stake"], first_opener=first)
    if deals is not None:
        n_deals: int | None = deals
    else:
        n_deals = None if match.format == "first_to" else 3
    if match.format == "first_to" and deals is None:
        goal = _t("goal_first_to_one" if match.target == 1 else "goal_first_to_many", n=match.target)
    else:
        goal = _t("goal_deals_one" if n_deals == 1 else "goal_deals_many", n=n_deals)
        if match.format == "first_to":
            goal += _t("goal_or_first_to", n=match.target)
    if match.format == "stakes":
        goal += _t("goal_stakes_double" if match.tablas_stake == "double" else "goal_stakes_carry", base=match.stake)
    opener = _t("you_open") if first == me else _t("they_open", opp=label)
    drawn = _t("drawn") if profile.first_opener == "random" else ""
    words = help_data(LANG[0])
    title = words["profiles"][profile.name]
    con.print(_t("intro", rules=profile.name, summary=title["summary"], you=escape(you) if you else _t("you"),
                 seat=seat, opp=f"[bold]{label}[/]", other=2 - me, goal=goal, seed=seed, opener=opener, drawn=drawn))
    con.print(escape(words["terminal"]["help_hint"]))
    deal_no = 0
    finished: list[GameState] = []
    path = None if no_record else _record_path(record)
    try:
        while not match.is_over and (n_deals is None or deal_no < n_deals):
            deal_no += 1
            shuffle_seed = rng.randrange(1 << 62)
            st = match.new_deal(fixed.pop(0)) if fixed else match.new_deal(seed=shuffle_seed)
            this_stake = match.current_stake
            play_deal(con, st, me, opponent, deal_no, match, label)
            match.count(st)
            finished.append(st)
            line = _t("tally", mine=match.wins[me], opp=label, theirs=match.wins[1 - me], tablas=match.tablas)
            if match.format == "stakes":
                if st.status != "won":
                    paid = _t("stake_unpaid", stake=this_stake)
                elif st.winner == me:
                    paid = _t("stake_you_win", stake=this_stake)
                else:
                    paid = _t("stake_they_win", opp=label, stake=this_stake)
                line += _t("tally_stakes", paid=paid, mine=match.points[me], opp=label, theirs=match.points[1 - me],
                           balance=f"{match.balance(me):+d}", stake=match.current_stake)
            con.print(line)
    except _Quit:
        con.print(_t("left"))
        if path is not None:
            save_record(con, path, match, finished)
        raise typer.Exit(0) from None
    except KeyboardInterrupt:
        con.print("\n" + _t("left"))
        if path is not None:
            save_record(con, path, match, finished)
        raise typer.Exit(130) from None
    won, drawn_match, lost = _t("you_won_match"), _t("match_drawn"), _t("they_won_match", opp=label)
    if match.is_over:
        con.print(f"[bold green]{won}[/]" if match.winner == me else f"[bold red]{lost}[/]")
    elif match.format == "stakes":
        b = match.balance(me)
        verdict = won if b > 0 else (drawn_match if b == 0 else lost)
        con.print(f"[bold]{verdict}[/]" + _t("stakes_final", mine=match.points[me], opp=label,
                                              theirs=match.points[1 - me], balance=f"{b:+d}"))
    elif match.format == "first_to":
        con.print(_t("match_stopped", deals=match.deals_played, mine=match.wins[me], opp=label,
                     theirs=match.wins[1 - me], target=match.target))
    else:
        w, lost_n = match.wins[me], match.wins[1 - me]
        verdict = won if w > lost_n else (drawn_match if w == lost_n else lost)
        con.print(f"[bold]{verdict}[/]")
    if path is not None:
        save_record(con, path, match, finished)


def _how(n: int) -> str:
    """How to pick among ``n`` shown choices: "type 1 or press Enter" for one, else
    "type a number from 1 to n"."""
    return _t("how_one") if n == 1 else _t("how_range", n=n)


def _n(count: int, noun: str) -> str:
    """``'1 card'``, ``'3 cards'`` (``noun``: ``card`` or ``finished_deal``), in this run's language."""
    return _t(f"{noun}_one" if count == 1 else f"{noun}_many", count=count)


def _reason(exc: GameweaveError) -> str:
    """An engine error in this run's language: ``error.<reason>`` from the catalog when
    there is one (Spanish), else the engine's English sentence."""
    key = f"error.{getattr(exc, 'reason', '')}"
    if LANG[0] != "en" and key in messages(LANG[0]):
        return messages(LANG[0])[key].rstrip(".")
    if LANG[0] != "en":
        return _t("unreadable", text=str(exc)).rstrip(".")
    return str(exc)
