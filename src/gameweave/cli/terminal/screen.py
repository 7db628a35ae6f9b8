"""The terminal table's screen: who reads it (:class:`Terminal`: the console, the
language, suit symbols or letters) and what it shows before each of the person's
decisions, region by region, from their seat's view only (R21).

Regions: the score bar (wins, tablas, the format, stakes, R20), what just happened, both
tables with numbered melds and "N of 11 melded" with a badge one card from eleven (R16),
the centre card and who let it go, the dead cards by suit, the stock and the opponent's
hand count, the person's hand in hand order (R4).  Help (``?``) prints the profile's rules,
the glossary and tips from the catalogs.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console
from rich.markup import escape

from ...engine import RANKS, SUITS, Match, SeatView, find_profile, format_cards, make_card
from ...engine.cards import SUIT_SYMBOLS, cards_of, suit_of
from ...i18n import DEFAULT_LANGUAGE, messages, translate
from ...tables import help_data, profile_title
from ...tables.choices import one_from_eleven
from ...tables.words import Look, seat_name, symbol_cards

SUIT_STYLE = {0: "green", 1: "yellow", 2: "red", 3: "blue"}
"""Rich colour of each suit (by suit index: clubs, diamonds, hearts, spades)."""


def prints_suits(con: Console) -> bool:
    """Whether ``con``'s output encoding can write ``♣♦♥♠``."""
    try:
        SUIT_SYMBOLS.encode(con.encoding or "ascii")
    except (LookupError, UnicodeError):
        return False
    return True


def plain_cards(mask: int, symbols: bool = True) -> str:
    """A mask's cards in hand order (R4), space-separated, without markup: rank letter
    (R3) and suit symbol as people read them, or the §VII letters on a console that
    cannot print the symbols (``symbols=False``)."""
    return symbol_cards(mask) if symbols else format_cards(mask)


def rich_cards(mask: int, symbols: bool = True) -> str:
    """Rich markup of a mask's cards in hand order (R4), one colour per suit."""
    return " ".join(f"[{SUIT_STYLE[suit_of(c)]}]{plain_cards(1 << c, symbols)}[/]" for c in cards_of(mask))


def rich_look(symbols: bool = True) -> Look:
    """How the narrator writes a choice at the terminal: coloured cards, a win in bold
    green, a warning in bold red (Rich markup)."""
    return Look(cards=lambda m: rich_cards(m, symbols), good=lambda s: f"[bold green]{s}[/]",
                bad=lambda s: f"[bold red]{s}[/]")


def plain_look(symbols: bool = True) -> Look:
    """How the narrator writes an event at the terminal: cards without markup."""
    return Look(cards=lambda m: plain_cards(m, symbols))


def dead_grid(dead: int, symbols: bool = True) -> str:
    """The dead cards as a compact grid by suit: ``♣: 2 5 K · ♦: – · ♥: A 7 · ♠: Q`` (Rich
    markup; letters where the console cannot print the symbols)."""
    parts = []
    for suit in range(4):
        ranks = [RANKS[r] for r in range(len(RANKS)) if dead >> make_card(r, suit) & 1]
        head = SUIT_SYMBOLS[suit] if symbols else SUITS[suit]
        parts.append(f"[{SUIT_STYLE[suit]}]{head}[/]: {' '.join(ranks) or '–'}")
    return " · ".join(parts)


def bot_name(name: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The bot's display name, as on the page: ``greedy`` -> ``Greedy bot`` / ``Bot voraz``."""
    key = f"page.bot.{name.strip().lower()}"  # the page's name for it, where the catalog has one
    if key in messages(lang):
        return messages(lang)[key]
    return translate("terminal.bot_name", lang, name=f"{name[:1].upper()}{name[1:]}")


@dataclass(frozen=True)
class Terminal:
    """The person's terminal: where to print, in which language (``--lang``, else the
    locale) and whether suits are written as symbols (``A♦``) or §VII letters (``Ad``)."""

    con: Console
    lang: str = DEFAULT_LANGUAGE
    symbols: bool = True

    def t(self, key: str, **params: object) -> str:
        """A terminal message (``terminal.<key>``) in this terminal's language."""
        return translate(f"terminal.{key}", self.lang, **params)

    def n(self, count: int, noun: str) -> str:
        """``'1 card'``, ``'3 cards'`` (``noun``: ``card`` or ``finished_deal``)."""
        return self.t(f"{noun}_one" if count == 1 else f"{noun}_many", count=count)

    def how(self, n: int) -> str:
        """How to pick among ``n`` shown choices: "type 1 or press Enter" for one, else
        "type a number from 1 to n"."""
        return self.t("how_one") if n == 1 else self.t("how_range", n=n)

    def name(self, card: int) -> str:
        """One card (0..39), no markup."""
        return plain_cards(1 << card, self.symbols)

    def plain(self, mask: int) -> str:
        """A mask's cards in hand order (R4), no markup."""
        return plain_cards(mask, self.symbols)

    def cards(self, mask: int) -> str:
        """Rich markup of a mask's cards in hand order (R4), one colour per suit."""
        return rich_cards(mask, self.symbols)

    @property
    def look(self) -> Look:
        """How the narrator writes choices here (:func:`rich_look`)."""
        return rich_look(self.symbols)

    @property
    def plain_look(self) -> Look:
        """How the narrator writes events here (:func:`plain_look`)."""
        return plain_look(self.symbols)

    def meld_list(self, melds: tuple[int, ...]) -> str:
        """Numbered melds (§VII numbers), ``1) 3♥ 4♥ 5♥   2) 6♣ 6♦ 6♥``."""
        if not melds:
            return self.t("no_melds")
        return "   ".join(f"{i}) {self.cards(m)}" for i, m in enumerate(melds, 1))


def score_line(tty: Terminal, match: Match, me: int, oname: str = "") -> str:
    """The score bar: wins, tablas, the format, and in a stakes match both seats' stakes,
    the balance and this deal's stake (R20)."""
    opp = 1 - me
    oname = oname or seat_name(opp, tty.lang)
    s = tty.t("score", mine=match.wins[me], theirs=match.wins[opp], opp=oname, tablas=match.tablas)
    if match.format == "first_to":
        s += tty.t("score_first_to", n=match.target)
    elif match.format == "stakes":
        s += tty.t("score_stakes", mine=match.points[me], opp=oname, theirs=match.points[opp],
                   balance=f"{match.balance(me):+d}", stake=match.current_stake)
    return s


def _progress(tty: Terminal, view: SeatView, seat: int, label: str) -> str:
    badge = f" [bold red]{tty.t('one_from_eleven')}[/]" if seat in one_from_eleven(view) else ""
    return tty.t("progress", label=label, n=view.table_counts[seat], badge=badge)


def _centre(tty: Terminal, view: SeatView, oname: str) -> str:
    """The centre: a card forced on a seat (R18e), the live or just-turned card, or empty."""
    me, opp = view.seat, view.opponent
    if view.forced >= 0:
        forced = tty.cards(1 << view.forced)
        return tty.t("forced_on_you", card=forced) if view.to_act == me else tty.t("forced_on_them", opp=oname,
                                                                                   card=forced)
    if view.centre < 0:
        return tty.t("centre_empty")
    if view.live_from == opp:
        where = tty.t("centre_live", opp=oname)
    elif view.live_from == me:
        where = tty.t("centre_by_you")
    else:
        where = tty.t("centre_turned_you") if view.to_act == me else tty.t("centre_turned_them", opp=oname)
    return tty.t("centre", card=tty.cards(1 << view.centre), where=where)


def show_screen(tty: Terminal, view: SeatView, deal_no: int, match: Match, oname: str, log: list[str]) -> None:
    """Print the whole screen before one of the person's decisions."""
    con, me, opp = tty.con, view.seat, view.opponent
    con.rule(tty.t("screen_title", n=deal_no, rules=profile_title(view.rules, tty.lang)))
    con.print(tty.t("screen_score", score=score_line(tty, match, me, oname)))
    if log:
        con.print(f"[bold]{tty.t('what_happened')}[/]")
        for line in log:
            con.print(f"  {line}")
    con.print(f"{_progress(tty, view, opp, tty.t('their_table', opp=oname))}: {tty.meld_list(view.melds[opp])}")
    con.print(f"{_progress(tty, view, me, tty.t('your_table'))}: {tty.meld_list(view.melds[me])}")
    con.print(_centre(tty, view, oname))
    con.print(tty.t("dead_cards", n=view.dead.bit_count(), grid=dead_grid(view.dead, tty.symbols)))
    con.print(tty.t("stock_line", stock=tty.n(view.stock_count, "card"), opp=oname,
                    held=tty.n(view.hand_counts[opp], "card")))
    con.print(tty.t("your_hand", cards=tty.cards(view.hand) or tty.t("empty")))


def show_help(tty: Terminal, rules: str) -> None:
    """Print the rules of profile ``rules``, the glossary and first-deal tips (from the
    catalogs, in the terminal's language)."""
    con = tty.con
    data = help_data(tty.lang)
    prof = data["profiles"][find_profile(rules).name]
    con.rule(tty.t("help_title", title=prof["title"], summary=prof["summary"]))
    for sec in prof["sections"]:
        con.print(f"[bold]{escape(sec['title'])}.[/] {escape(sec['text'])}")
    con.print(f"[bold]{tty.t('help_words')}[/]")
    for g in data["glossary"]:
        con.print(f"  [bold]{escape(g['term'])}[/]: {escape(g['text'])}")
    con.print(f"[bold]{tty.t('help_tips')}[/]")
    for tip in data["tips"]:
        con.print(f"  - {escape(tip)}")
    con.print(escape(data["terminal"]["help_hint"]))


__all__ = ["SUIT_STYLE", "Terminal", "bot_name", "dead_grid", "plain_cards", "plain_look", "prints_suits",
           "rich_cards", "rich_look", "score_line", "show_help", "show_screen"]
