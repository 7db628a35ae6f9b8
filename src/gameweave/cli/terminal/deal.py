"""One deal at the terminal table: the person decides every decision of their seat (the
deal's first ``turn`` too), the bot answers from its own view (R21), and what just
happened is told by the narrator from the view's public events; at the end the
opponent's hand is shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ...engine import GameState, Match, SeatView, seat_view
from ...tables.words import describe_event, history_lines
from .asker import Asker, Reader
from .screen import Terminal, show_screen


class Bot(Protocol):
    """What the deal needs of the opponent: an action (one of ``view.legal``) from its view."""

    def choose(self, view: SeatView) -> int:
        """The bot's action for its seat's view ``view``."""


def told(tty: Terminal, view: SeatView, oname: str) -> str:
    """The last event of ``view``'s history in words, told to the viewer."""
    return describe_event(view.history[-1], view.seat, tty.lang, opp=oname, ends=view.status, look=tty.plain_look)


def history_printer(tty: Terminal, st: GameState, me: int, oname: str) -> Callable[[], None]:
    """What ``h`` prints: the deal's whole public history so far, from seat ``me``'s view."""
    def show() -> None:
        view = seat_view(st, me)
        tty.con.rule(tty.t("history_title"))
        if not view.history:
            tty.con.print(f"  {tty.t('nothing_yet')}")
        lines = history_lines(view.history, view.status, me, tty.lang, opp=oname, look=tty.plain_look)
        for i, line in enumerate(lines, 1):
            tty.con.print(f"  {i:>2}. {line}")
    return show


def play_deal(tty: Terminal, st: GameState, me: int, bot: Bot, deal_no: int, match: Match, bot_label: str,
              read: Reader | None = None) -> None:
    """Play one deal to its end: the person in seat ``me`` decides every decision, the
    bot answers from its own view (R21).  Raises :class:`~.asker.Quit` when the person
    leaves."""
    con = tty.con
    asker = Asker(con, read or con.input, bot_label, lang=tty.lang, symbols=tty.symbols)
    log: list[str] = []
    history = history_printer(tty, st, me, bot_label)
    while not st.is_over:
        seat = st.to_act
        if seat == me:
            before = seat_view(st, me)
            show_screen(tty, before, deal_no, match, bot_label, log)
            log = []
            a = asker.ask(before, history)
        else:
            a = bot.choose(seat_view(st, seat))
        st.play(a, seat=seat)
        log.append(told(tty, seat_view(st, me), bot_label))
    show_deal_end(tty, st, me, deal_no, bot_label, log)


def show_deal_end(tty: Terminal, st: GameState, me: int, deal_no: int, oname: str, log: list[str]) -> None:
    """The end of a deal: what happened since the person's last decision, who won (R16)
    or tablas (R17), both tables and both hands (the opponent's is public now)."""
    con = tty.con
    end = seat_view(st, me)
    opp = 1 - me
    con.rule(tty.t("deal_over", n=deal_no))
    for line in log:
        con.print(f"  {line}")
    if st.status == "won":
        con.print(f"[bold green]{tty.t('you_won_deal')}[/]" if st.winner == me
                  else f"[bold red]{tty.t('they_won_deal', opp=oname)}[/]")
    else:
        con.print(f"[bold]{tty.t('tablas_deal')}[/]")
    con.print(f"{tty.t('their_table', opp=oname)}: {tty.meld_list(end.melds[opp])}")
    con.print(tty.t("their_hand_was", opp=oname, cards=tty.cards(end.opponent_hand or 0) or tty.t("empty")))
    con.print(f"{tty.t('your_table')}: {tty.meld_list(end.melds[me])}")
    con.print(tty.t("your_hand", cards=tty.cards(end.hand) or tty.t("empty")))


__all__ = ["Bot", "history_printer", "play_deal", "show_deal_end", "told"]
