"""The person's side of one decision at the terminal table: the numbered choices (built
by :mod:`gameweave.tables.choices`, told by the narrator :mod:`gameweave.tables.words`)
and what the person may type.

A number picks a choice (Enter alone when there is one); an action may be typed in §VII
notation (``throw Ks``) or with a verb of the game in the run's language (``descartar
K♠``); ``?``/``help`` prints the rules, ``h`` the deal's public history, ``hint`` each
choice's win chance, ``q`` leaves (:class:`Quit`, as does the end of input).  Where there
are many tables to choose from (R18b) the common ones are listed and the person may type
the hand cards to add instead.  A move that publicly hands the opponent the deal asks for
a confirmation first (R16).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from ...engine import GameweaveError, SeatView, find_profile, format_cards, parse_action, parse_cards
from ...engine.errors import UnparsableError
from ...i18n import DEFAULT_LANGUAGE, messages, translate
from ...tables import Choice, help_data, seat_choices
from ...tables.words import describe_choice, typed_notation
from .screen import Terminal, show_help

MANY_MELDS = 10
"""Above this many meld choices the R18 chooser lists the common tables only and lets the
person type the hand cards to add (R18b)."""

Reader = Callable[[str], str]
"""Reads one line of input after a prompt; raises EOFError at the end of input."""

YES = ("y", "yes", "s", "si", "sí")
"""Answers that confirm a move, in either language."""


def is_quit(low: str, tty: Terminal) -> bool:
    """True if the typed word ``low`` (lower case, stripped) is one that leaves the table."""
    return low in ("q", "quit", "exit", tty.t("word_quit"))


class Quit(Exception):
    """The person left the table."""


def is_common(view: SeatView, c: Choice) -> bool:
    """A meld choice that leaves the table as it is but for one meld: one new meld, or
    one meld added to; or one that adds no hand card (R12-like cases under R18)."""
    if not c.uses:
        return True
    before = set(view.melds[view.seat])
    new = [m for m in c.melds if m not in before]
    gone = [m for m in before if m not in c.melds]
    return len(new) == 1 and (not gone or (len(gone) == 1 and gone[0] & ~new[0] == 0))


RULE_CODES = re.compile(r"\s*\((?:R\d+[a-f]?(?:\s*[-,/]\s*R?\d+[a-f]?)*)\)|(?<=\()R\d+[a-f]?(?:,\s*R\d+[a-f]?)*[;:]\s*")
"""A rule code in an engine sentence: a whole ``(R5, R6)``, or ``R18; `` / ``R20: ``
opening a parenthesis (the engine's messages cite the rulebook for developers; a player
reads none of it, issue 19)."""


MAX_SAID = 200
"""Longest text of what was typed that a message repeats (a pasted page is cut)."""


def _cut(text: str) -> str:
    return text if len(text) <= MAX_SAID else text[: MAX_SAID - 1] + "…"


def reason(exc: GameweaveError, lang: str, typed: str = "") -> str:
    """An engine error in ``lang`` for a person: ``terminal.unparsable.<reason>`` for a
    text the profile cannot read (``typed``: what was typed), ``error.<reason>`` from the
    catalog when there is one (Spanish), else the engine's English sentence without its
    rule codes."""
    why = getattr(exc, "reason", None) or ""
    key = f"terminal.unparsable.{why}"
    if isinstance(exc, UnparsableError) and key in messages(lang):
        return translate(key, lang, text=repr(_cut(typed)))
    if lang != "en" and f"error.{why}" in messages(lang):
        return messages(lang)[f"error.{why}"].rstrip(".")
    said = _cut(RULE_CODES.sub("", str(exc)))
    if lang != "en":
        return translate("terminal.unreadable", lang, text=said).rstrip(".")
    return said


def hand_cards(view: SeatView, text: str) -> int | None:
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


class Asker:
    """The person's side of one decision: lists the choices, reads numbers, typed
    actions, typed hand cards (the R18 chooser), ``?``/``help``, ``h`` and ``q``, and
    confirms a move that gives the opponent eleven (R16).  ``read`` reads a line;
    ``oname`` names the opponent; ``lang`` and ``symbols`` as for :class:`Terminal`."""

    def __init__(self, con: Console, read: Reader, oname: str, hint_level: str = "master", *,
                 lang: str = DEFAULT_LANGUAGE, symbols: bool = True):
        self.tty = Terminal(con, lang, symbols)
        self.con = con
        self.read = read
        self.oname = oname
        self.hint_level = hint_level

    def _line(self, prompt: str) -> str:
        try:
            return self.read(prompt).strip()
        except EOFError:
            raise Quit() from None

    def words(self, view: SeatView, c: Choice) -> str:
        """The choice in words (Rich markup), as the list shows it: a meld by what it
        changes, as the page's meld buttons say it (``"6♦ joins 4♦ 5♦"``, R12, R18)."""
        return describe_choice(c, view, self.tty.lang, opp=self.oname, look=self.tty.look, changes=True)

    def entries(self, view: SeatView, choices: list[Choice]) -> tuple[list[Choice], int]:
        """The numbered entries: all choices, or where there are more than
        :data:`MANY_MELDS` meld choices, the common meld choices and every other choice;
        and how many meld choices are left to the hand-card chooser."""
        melds = [c for c in choices if c.is_meld]
        if len(melds) <= MANY_MELDS:
            return choices, 0
        shown = [c for c in choices if not c.is_meld or is_common(view, c)]
        return shown, len(choices) - len(shown)

    def ask(self, view: SeatView, history: Callable[[], None] | None = None) -> int:
        """The action the person picks (one of ``view.legal``).  Raises :class:`Quit`."""
        tty = self.tty
        choices = seat_choices(view)
        if view.decision == "meld":
            self.con.print(f"[bold]{tty.t('forced_choose', card=tty.name(view.forced))}[/]")
        shown, hidden = self.entries(view, choices)
        while True:
            self._list(view, choices, shown, hidden)
            n = len(shown)
            ask = tty.t("press_enter") if n == 1 else tty.t("choose_range", n=n)
            text = self._line(tty.t("prompt", ask=ask))
            picked = self._pick(view, choices, shown, text, history)
            if picked is None:
                continue
            if picked.gives_eleven and not self._confirm(view, picked, shown):
                continue
            return picked.action

    def _list(self, view: SeatView, choices: list[Choice], shown: list[Choice], hidden: int) -> None:
        self.con.print(f"[bold]{self.tty.t('your_choices')}[/]")
        for i, c in enumerate(shown, 1):
            self.con.print(f"  {i:>2}) {self.words(view, c)}")
        if hidden:
            hint = help_data(self.tty.lang)["terminal"]["r18_pick"].format(example=self._example(view, choices),
                                                                          count=hidden)
            self.con.print(f"  {escape(hint)}")

    def show_hint(self, view: SeatView, shown: list[Choice]) -> None:
        """Each shown choice's estimated chance to win the deal, from this seat's view
        only (R21), by the ``hint_level`` bot (issue 11: hints)."""
        from ...bots.advice import hint

        est = {e.action: e for e in hint(view, self.hint_level, seed=0)}
        best = max(est.values(), key=lambda e: e.score).action
        level = translate(f"page.bot_option.{self.hint_level}", self.tty.lang).lower()  # as the lobby names it
        self.con.print(f"[bold]{self.tty.t('hint_head', level=level)}[/]")
        for i, c in enumerate(shown, 1):
            e = est[c.action]
            mark = " *" if c.action == best else ""
            line = self.tty.t("hint_line", score=round(100 * e.score), win=round(100 * e.win),
                              tablas=round(100 * e.tablas))
            self.con.print(f"  {i:>2}) {line}{mark}  {self.words(view, c)}")

    def _example(self, view: SeatView, choices: list[Choice]) -> str:
        for c in choices:
            if c.is_meld and c.uses and not is_common(view, c):
                return format_cards(c.uses)  # what to type: §VII letters
        return "2d 3d"

    def _command(self, view: SeatView, shown: list[Choice], low: str, history: Callable[[], None] | None) -> bool:
        """Carry out a typed word (quit, help, history, hint); False if it is none."""
        t = self.tty.t
        if is_quit(low, self.tty):
            raise Quit()
        if low in ("?", "help", t("word_help")):
            show_help(self.tty, view.rules)
        elif low in ("h", "history", t("word_history")):
            if history is not None:
                history()
        elif low in ("hint", "pista"):
            self.show_hint(view, shown)
        else:
            return False
        return True

    def _pick(self, view: SeatView, choices: list[Choice], shown: list[Choice], text: str,
              history: Callable[[], None] | None) -> Choice | None:
        tty = self.tty
        n = len(shown)
        if self._command(view, shown, text.lower(), history):
            return None
        if text.isascii() and text.isdigit():
            k = int(text)
            if 1 <= k <= n:
                return shown[k - 1]
            self.con.print(f"[red]{tty.t('no_choice', k=k, how=tty.how(n))}[/]")
            return None
        if not text:
            if n == 1:
                return shown[0]
            self.con.print(f"[red]{tty.t('type_number_or_q', n=n)}[/]")
            return None
        return self._typed(view, choices, text, n)

    def _typed(self, view: SeatView, choices: list[Choice], text: str, n: int) -> Choice | None:
        """A typed action (§VII, or with a verb in the run's language) or typed hand cards."""
        tty = self.tty
        try:
            a = parse_action(typed_notation(text, tty.lang), find_profile(view.rules))
        except GameweaveError as exc:
            cards = hand_cards(view, text)
            if cards is not None and any(c.is_meld for c in choices):
                return self.choose_by_cards(view, choices, cards)
            why = reason(exc, tty.lang, text)
            if tty.lang != "en" and isinstance(exc, UnparsableError) and exc.reason in (None, "not_a_card"):
                # the codec's words are English
                why = tty.t("not_a_card", card=repr(exc.text)) if exc.reason == "not_a_card" else \
                    tty.t("not_understood" if find_profile(view.rules).force_back else "not_understood_no_force",
                          text=repr(_cut(text)))
            self.con.print(f"[red]{escape(tty.t('bad_text', reason=why, how=tty.how(n)))}[/]")
            return None
        for c in choices:
            if c.action == a:
                return c
        self.con.print(f"[red]{escape(tty.t('not_a_choice', text=repr(_cut(text)), how=tty.how(n)))}[/]")
        return None

    def choose_by_cards(self, view: SeatView, choices: list[Choice], cards: int) -> Choice | None:
        """The R18 chooser's second step: the meld choices that add exactly the hand
        cards ``cards``; one is taken at once, several are offered by number."""
        con, tty = self.con, self.tty
        fits = [c for c in choices if c.is_meld and c.uses == cards]
        what = tty.plain(cards) or tty.t("no_hand_card")
        if not fits:
            con.print(f"[red]{escape(help_data(tty.lang)['terminal']['r18_none'])} ({what})[/]")
            return None
        if len(fits) == 1:
            return fits[0]
        con.print(f"[bold]{tty.t('tables_adding', what=what)}[/]")
        for i, c in enumerate(fits, 1):
            con.print(f"  {i:>2}) {self.words(view, c)}")
        while True:
            text = self._line(tty.t("choose_or_back", n=len(fits)))
            if not text:
                return None
            if text.isascii() and text.isdigit() and 1 <= int(text) <= len(fits):
                return fits[int(text) - 1]
            con.print(f"[red]{tty.t('type_number_or_back', n=len(fits))}[/]")

    def _confirm(self, view: SeatView, c: Choice, shown: list[Choice]) -> bool:
        """Ask before a move that publicly gives the opponent eleven (R16): ``y``, or
        the same number again, plays it."""
        question = help_data(self.tty.lang)["terminal"]["confirm_danger"].format(opponent=self.oname)
        number = str(shown.index(c) + 1) if c in shown else ""
        words = describe_choice(c, view, self.tty.lang, opp=self.oname, look=self.tty.plain_look, notes=False,
                                changes=True)
        self.con.print(f"[bold red]{escape(words)}:[/] " + escape(question.rstrip()))
        answer = self._line(self.tty.t("confirm_number", n=number) if number else self.tty.t("confirm_y"))
        return answer.lower() in YES or (bool(number) and answer == number)


__all__ = ["MANY_MELDS", "YES", "Asker", "Quit", "Reader", "hand_cards", "is_common", "reason"]
