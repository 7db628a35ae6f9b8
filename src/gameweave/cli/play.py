"""``gameweave play``: one person against a bot, a whole match, in the terminal (Rich).

Everything shown to the person comes from their seat's view (R21): their hand in hand
order (R4), both tables with numbered melds (§VII), the card in the centre and who let it
go, the stock count, the match tally (R20), what just happened in plain words, and every
legal action as a numbered choice.  The bot, too, decides from its own view only.  At the
end of a deal the opponent's hand is shown.  Keyboard only: a number (or an action in
§VII notation, e.g. ``throw Ks``), ``q`` to leave; Ctrl-C or end of input leave cleanly.
"""

from __future__ import annotations

import random
from typing import Optional

import typer
from rich.console import Console

from ..bots import bot_names, make_bot
from ..engine import (
    GameState, GameweaveError, Match, SeatView, decode, format_cards, parse_action, seat_view,
)
from ..engine.cards import CARD_NAMES
from .app import app

SUIT_STYLE = {0: "green", 1: "yellow", 2: "red", 3: "blue"}


class _Quit(Exception):
    """The person left the table."""


def _who(seat: int, me: int, cap: bool = True) -> str:
    if seat == me:
        return "You" if cap else "you"
    return f"Player {seat + 1}"


def _cards(mask: int) -> str:
    """Rich markup of a mask's cards in hand order (R4), one colour per suit."""
    out = []
    m = mask
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        out.append(f"[{SUIT_STYLE[c & 3]}]{CARD_NAMES[c]}[/]")
    return " ".join(out)


def _meld_list(melds: tuple[int, ...]) -> str:
    if not melds:
        return "no melds"
    return "   ".join(f"{i}) {_cards(m)}" for i, m in enumerate(melds, 1))


def choice_text(view: SeatView, action: int) -> str:
    """Plain words for one of the viewer's legal actions; a meld choice shows the
    resulting meld (R12), a force names the target meld's cards (R15)."""
    me = view.seat
    opp = 1 - me
    d = decode(action)
    if d.kind == 0:
        bit = 1 << view.centre
        rest = action ^ bit
        mine = view.melds[me]
        if rest in mine:
            n = mine.index(rest) + 1
            return f"meld {CARD_NAMES[view.centre]} onto your meld {n} -> {_cards(action)}"
        kind = "set" if len({c >> 2 for c in range(40) if action >> c & 1}) == 1 else "sequence"
        return f"meld {CARD_NAMES[view.centre]} with {_cards(rest)} from your hand -> new {kind} {_cards(action)}"
    if d.kind == 1:
        if view.centre >= 0 and view.live_from == opp:
            return f"turn the stock (let {CARD_NAMES[view.centre]} die)"
        return "turn the top card of the stock"
    card = view.centre if d.kind == 2 else d.card
    verb = "refuse" if d.kind == 2 else "throw"
    if d.force:
        target = view.melds[opp][d.force - 1]
        warn = ""
        if sum(m.bit_count() for m in view.melds[opp]) + 1 >= 11:
            warn = f" [red](eleven for Player {opp + 1}: they win, R16)[/]"
        return (f"{verb} {CARD_NAMES[card]} and force it onto Player {opp + 1}'s meld {d.force} "
                f"{_cards(target)} -> {_cards(target | (1 << card))}{warn}")
    if d.kind == 2:
        return f"refuse {CARD_NAMES[card]} (it goes live for Player {opp + 1})"
    return f"throw {_cards(1 << card)}"


def event_text(before: SeatView, action: int, after: SeatView, me: int) -> str:
    """Plain words for an action just applied, from seat ``me``'s point of view, using
    the two public views around it only (R21), e.g.
    ``"Player 2 forced 7s onto your meld 4s 5s 6s"``."""
    seat = before.to_act
    who = _who(seat, me)
    opp = 1 - seat
    d = decode(action)
    if d.kind == 0:
        card = before.centre
        rest = action ^ (1 << card)
        if rest in before.melds[seat]:
            s = f"{who} melded {CARD_NAMES[card]} onto {'your' if seat == me else 'their'} meld {_cards(rest)}"
        else:
            s = f"{who} melded {CARD_NAMES[card]} as a new meld {_cards(action)}"
        if after.status == "won":
            s += " and reached eleven"
        return s
    if d.kind == 1:
        pre = ""
        if before.centre >= 0 and before.live_from == opp:
            pre = f"let {CARD_NAMES[before.centre]} die and "
        if after.status == "tablas":
            return f"{who} {pre}would turn the stock, but it is empty"
        return f"{who} {pre}turned {CARD_NAMES[after.centre]}"
    card = before.centre if d.kind == 2 else d.card
    verb = "refused" if d.kind == 2 else "threw"
    if d.force:
        target = before.melds[opp][d.force - 1]
        whose = "your" if opp == me else f"Player {opp + 1}'s"
        s = f"{who} {verb} {CARD_NAMES[card]} and forced it onto {whose} meld {format_cards(target)}"
        if seat != me:
            s = f"{who} forced {CARD_NAMES[card]} onto {whose} meld {format_cards(target)}"
            if d.kind == 2:
                s += " (a refused turned card)"
        if after.status == "won":
            s += f"; that is eleven for {_who(opp, me, False)}"
        return s
    return f"{who} {verb} {CARD_NAMES[card]}"


def _screen(con: Console, view: SeatView, deal_no: int, match: Match, bot: str, log: list[str]) -> None:
    me = view.seat
    opp = 1 - me
    con.rule(f"Deal {deal_no} · You {match.wins[me]} – {match.wins[opp]} Player {opp + 1} ({bot}) · "
             f"tablas {match.tablas}")
    if log:
        con.print("[bold]What just happened:[/]")
        for line in log:
            con.print(f"  {line}")
    tc = [sum(m.bit_count() for m in side) for side in view.melds]
    con.print(f"Player {opp + 1}'s table ({tc[opp]} cards): {_meld_list(view.melds[opp])}")
    con.print(f"Your table ({tc[me]} cards): {_meld_list(view.melds[me])}")
    if view.centre >= 0:
        if view.live_from == opp:
            where = f"live, let go by Player {opp + 1}"
        elif view.live_from == me:
            where = "let go by you"
        else:
            where = "just turned by you" if view.to_act == me else f"just turned by Player {opp + 1}"
        con.print(f"Centre: {_cards(1 << view.centre)} ({where})")
    else:
        con.print("Centre: empty")
    con.print(f"Stock: {view.stock_count} cards · Player {opp + 1} holds {view.hand_counts[opp]} cards")
    con.print(f"Your hand: {_cards(view.hand) or '(empty)'}")


def _ask(con: Console, view: SeatView) -> int:
    legal = view.legal
    con.print("[bold]Your choices:[/]")
    for i, a in enumerate(legal, 1):
        con.print(f"  {i:>2}) {choice_text(view, a)}")
    while True:
        try:
            ask = "Press Enter or 1" if len(legal) == 1 else f"Choose 1-{len(legal)}"
            text = con.input(f"{ask} (q to leave): ").strip()
        except EOFError:
            raise _Quit() from None
        if text.lower() in ("q", "quit", "exit"):
            raise _Quit()
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(legal):
                return legal[n - 1]
            con.print(f"[red]There is no choice {n}: type a number from 1 to {len(legal)}.[/]")
            continue
        if not text:
            if len(legal) == 1:
                return legal[0]
            con.print(f"[red]Type a number from 1 to {len(legal)}, or q to leave.[/]")
            continue
        try:
            a = parse_action(text)
        except GameweaveError as exc:
            con.print(f"[red]{exc}. Type a number from 1 to {len(legal)}.[/]")
            continue
        if a in legal:
            return a
        con.print(f"[red]{text!r} is not one of your choices now. Type a number from 1 to {len(legal)}.[/]")


def play_deal(con: Console, st: GameState, me: int, bot, deal_no: int, match: Match, bot_name: str) -> None:
    """Play one deal to its end: the person in seat ``me`` types, the bot answers from its
    own view (R21).  Raises :class:`_Quit` when the person leaves."""
    log: list[str] = []
    while not st.is_over:
        seat = st.to_act
        before = seat_view(st, me)
        if seat == me:
            if len(before.legal) == 1 and before.decision == "turn":
                a = before.legal[0]  # the deal's first turn: nothing to decide
            else:
                _screen(con, before, deal_no, match, bot_name, log)
                log = []
                a = _ask(con, before)
        else:
            a = bot.choose(seat_view(st, seat))
        st.play(a, seat=seat)
        log.append(event_text(before, a, seat_view(st, me), me))
    end = seat_view(st, me)
    opp = 1 - me
    con.rule(f"Deal {deal_no} is over")
    for line in log:
        con.print(f"  {line}")
    if st.status == "won":
        con.print("[bold green]You won the deal![/]" if st.winner == me else f"[bold red]Player {opp + 1} won the deal.[/]")
    else:
        con.print("[bold]Tablas: the stock ran out (R17).[/]")
    con.print(f"Player {opp + 1}'s table: {_meld_list(end.melds[opp])}")
    con.print(f"Player {opp + 1}'s hand was: {_cards(end.opponent_hand or 0) or '(empty)'}")
    con.print(f"Your table: {_meld_list(end.melds[me])}")
    con.print(f"Your hand: {_cards(end.hand) or '(empty)'}")


@app.command()
def play(
    bot: str = typer.Option("greedy", "--bot", help="Opponent: " + ", ".join(bot_names()) + "."),
    deals: Optional[int] = typer.Option(None, "--deals", min=1, help="Play this many deals (running tally). Default 3."),
    to: Optional[int] = typer.Option(None, "--to", min=1, help="Play until one seat has won this many deals."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for the deals and the bot (default: random)."),
    seat: int = typer.Option(1, "--seat", min=1, max=2, help="Your seat, 1 or 2 (seat 1 opens deal 1)."),
) -> None:
    """Play a match against a bot in the terminal: type a choice's number each turn."""
    con = Console(highlight=False)
    if deals is not None and to is not None:
        typer.echo("error: give --deals or --to, not both", err=True)
        raise typer.Exit(2)
    try:
        opponent = make_bot(bot, seed=seed)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 30)
    me = seat - 1
    match = Match(format="first_to", target=to) if to is not None else Match()
    n_deals = deals if deals is not None else (None if to is not None else 3)
    goal = (f"first to {to} won deal{'s' if to != 1 else ''}" if to is not None
            else f"{n_deals} deal{'s' if n_deals != 1 else ''}")
    con.print(f"Gameweave: you (seat {seat}) against [bold]{bot}[/] (Player {2 - me}), {goal}, seed {seed}.")
    con.print("Type the number of a choice and press Enter; q leaves the table.")
    rng = random.Random(seed)
    deal_no = 0
    try:
        while not match.is_over and (n_deals is None or deal_no < n_deals):
            deal_no += 1
            st = match.new_deal(seed=rng.randrange(1 << 62))
            play_deal(con, st, me, opponent, deal_no, match, bot)
            match.record(st)
            con.print(f"Tally: you {match.wins[me]}, Player {2 - me} {match.wins[1 - me]}, tablas {match.tablas}")
    except _Quit:
        con.print("\nYou left the table.")
        raise typer.Exit(0)
    except KeyboardInterrupt:
        con.print("\nYou left the table.")
        raise typer.Exit(130)
    if match.is_over:
        con.print("[bold green]You won the match![/]" if match.winner == me else f"[bold red]Player {2 - me} won the match.[/]")
    else:
        w, l = match.wins[me], match.wins[1 - me]
        verdict = "You won the match!" if w > l else ("The match is drawn." if w == l else f"Player {2 - me} won the match.")
        con.print(f"[bold]{verdict}[/]")
