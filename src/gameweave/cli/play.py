"""``gameweave play``: one person against a bot, a whole match, in the terminal (Rich).

Everything shown to the person comes from their seat's view (R21): their hand in hand
order (R4), both tables with numbered melds (§VII), the card in the centre and who let it
go, the stock count, the match tally (R20), what just happened in plain words, and every
legal action as a numbered choice.  The bot, too, decides from its own view only.  At the
end of a deal the opponent's hand is shown.  Keyboard only: a number (or an action in
§VII notation, e.g. ``throw Ks``), ``q`` to leave; Ctrl-C or end of input leave cleanly.

Every profile plays (``--rules``, §V): where melds are rearranged (R18) each meld choice
is shown as the whole new table with the hand cards it uses, a forced card waits for the
person's ``meld`` decision (R18e), and anglo-american offers forcing back (R19).  The
match follows the profile (R20: first to 3, stakes with ``--option tablas_stake=carry``
…), and "what just happened" is told from the view's public events, never from text.
"""

from __future__ import annotations

import random

import typer
from rich.console import Console

from ..engine import (
    FORCE_ANY, GameState, GameweaveError, Match, PublicEvent, SeatView, find_profile,
    force_of, format_cards, kind_of, meld_cards, parse_action, seat_view, table_of, thrown_card,
)
from ..engine.actions import FORCE_KIND, REFUSE_KIND, TABLE, TURN_KIND
from ..engine.cards import CARD_NAMES
from .app import app
from .common import RULES_HELP, options_or_exit, profile_or_exit

BOT_NAMES = "random, greedy, search"
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


def _table(melds: tuple[int, ...] | list[int]) -> str:
    """A table as bracketed melds, e.g. ``[3h 4h 5h] [6c 6d 6h]``."""
    return " ".join(f"[{_cards(m)}]" for m in melds) if melds else "(no melds)"


def _meld_list(melds: tuple[int, ...]) -> str:
    if not melds:
        return "no melds"
    return "   ".join(f"{i}) {_cards(m)}" for i, m in enumerate(melds, 1))


def _melding(view: SeatView) -> int:
    """The card the viewer's ``meld`` choices meld: the forced card (R18e) or the centre."""
    return view.forced if view.forced >= 0 else view.centre


def choice_text(view: SeatView, action: int) -> str:
    """Plain words for one of the viewer's legal actions: a meld choice shows the
    resulting meld (R12) or, where melds are rearranged, the whole new table (R18); a
    force names the target meld's cards (R15) or says the opponent must meld it (R18e)."""
    me = view.seat
    opp = 1 - me
    k = kind_of(action)
    if k == TABLE:
        card = _melding(view)
        result = table_of(action)
        used = meld_cards(action) & view.hand
        extra = f", with {_cards(used)} from your hand" if used else ""
        total = view.table_counts[me] + 1 + used.bit_count()
        win = " [bold green](eleven: you win, R16)[/]" if total >= 11 else ""
        return f"meld {CARD_NAMES[card]}{extra} -> your table {_table(result)}{win}"
    if k == 0:
        card = _melding(view)
        result = meld_cards(action)
        bit = 1 << card
        rest = result & ~bit
        mine = view.melds[me]
        win = " [bold green](eleven: you win, R16)[/]" if view.table_counts[me] + result.bit_count() - (
            rest.bit_count() if rest in mine else 0) >= 11 else ""
        if rest in mine:
            n = mine.index(rest) + 1
            return f"meld {CARD_NAMES[card]} onto your meld {n} -> {_cards(result)}{win}"
        kind = "set" if len({c >> 2 for c in range(40) if result >> c & 1}) == 1 else "sequence"
        return f"meld {CARD_NAMES[card]} with {_cards(rest)} from your hand -> new {kind} {_cards(result)}{win}"
    if k == TURN_KIND:
        if view.centre >= 0 and view.live_from == opp:
            return f"turn the stock (let {CARD_NAMES[view.centre]} die)"
        return "turn the top card of the stock"
    if k == FORCE_KIND:
        return (f"force {CARD_NAMES[view.centre]} back onto Player {opp + 1}, who turned and refused it "
                f"(they must meld it, R19)")
    card = view.centre if k == REFUSE_KIND else thrown_card(action)
    verb = "refuse" if k == REFUSE_KIND else "throw"
    force = force_of(action)
    if force == FORCE_ANY:
        warn = ""
        if view.table_counts[opp] + 1 >= 11:
            warn = f" [red](eleven for Player {opp + 1}: they win, R16)[/]"
        return (f"{verb} {CARD_NAMES[card]} and force it on Player {opp + 1}: they must meld it into "
                f"their table {_table(view.melds[opp])} (R18e){warn}")
    if force:
        target = view.melds[opp][force - 1]
        warn = ""
        if view.table_counts[opp] + 1 >= 11:
            warn = f" [red](eleven for Player {opp + 1}: they win, R16)[/]"
        return (f"{verb} {CARD_NAMES[card]} and force it onto Player {opp + 1}'s meld {force} "
                f"{_cards(target)} -> {_cards(target | (1 << card))}{warn}")
    if k == REFUSE_KIND:
        return f"refuse {CARD_NAMES[card]} (it goes live for Player {opp + 1})"
    return f"throw {_cards(1 << card)}"


def event_words(ev: PublicEvent, after: SeatView, me: int) -> str:
    """Plain words for one public event from seat ``me``'s point of view, from the
    event's fields only (R21), e.g. ``"Player 2 forced 7s onto your meld 4s 5s 6s"``."""
    seat = ev.seat
    who = _who(seat, me)
    opp = 1 - seat
    whose_opp = "your" if opp == me else f"Player {opp + 1}'s"
    card = CARD_NAMES[ev.card] if ev.card >= 0 else ""
    won = after.status == "won" and after.history and after.history[-1] == ev
    k = ev.kind
    if k == "meld":
        own = "your" if seat == me else "their"
        if kind_of(ev.action) == TABLE:
            what = "the card forced on " + ("you" if seat == me else "them") if ev.forced else card
            s = f"{who} melded {what}"
            if ev.forced:
                s += f" ({card})"
            if ev.from_hand:
                s += f" with {format_cards(ev.from_hand)} from {'your' if seat == me else 'their'} hand"
            s += f": {own} table is now " + " / ".join(format_cards(m) for m in ev.table)
        else:
            rest = ev.meld & ~(1 << ev.card)
            if ev.from_hand:
                s = f"{who} melded {card} as a new meld {format_cards(ev.meld)}"
            else:
                s = f"{who} melded {card} onto {own} meld {format_cards(rest)}"
        if won:
            s += " and reached eleven"
        return s
    if k == "turn":
        pre = f"let {CARD_NAMES[ev.died]} die and " if ev.died >= 0 else ""
        if ev.card < 0:
            return f"{who} {pre}would turn the stock, but it is empty"
        return f"{who} {pre}turned {card}"
    if k == "force":
        whose = "you" if opp == me else f"Player {opp + 1}"
        return f"{who} forced {card} back onto {whose} (R19): {'you' if opp == me else 'they'} must meld it"
    verb = "refused" if k == "refuse" else "threw"
    if ev.forced:
        if ev.meld:
            target = ev.meld & ~(1 << ev.card)
            s = f"{who} {verb} {card} and forced it onto {whose_opp} meld {format_cards(target)}"
            if seat != me:
                s = f"{who} forced {card} onto {whose_opp} meld {format_cards(target)}"
                if k == "refuse":
                    s += " (a refused turned card)"
            if won:
                s += f"; that is eleven for {_who(opp, me, False)}"
            return s
        s = f"{who} {verb} {card} and forced it on {'you' if opp == me else f'Player {opp + 1}'}"
        return s + f": {'you' if opp == me else 'they'} must meld it (R18e)"
    s = f"{who} {verb} {card}"
    if after.status == "tablas" and after.history and after.history[-1] == ev:
        s += "; the stock is empty and it cannot be melded: tablas"
    return s


def event_text(before: SeatView, action: int, after: SeatView, me: int) -> str:
    """Plain words for the action just applied (the last event of ``after``), from seat
    ``me``'s point of view."""
    return event_words(after.history[-1], after, me)


def _score(match: Match, me: int) -> str:
    opp = 1 - me
    s = f"You {match.wins[me]} – {match.wins[opp]} Player {opp + 1}, tablas {match.tablas}"
    if match.format == "first_to":
        s += f" (first to {match.target})"
    elif match.format == "stakes":
        s += (f"; stakes won: you {match.points[me]}, Player {opp + 1} {match.points[opp]}; "
              f"this deal's stake {match.current_stake}")
    return s


def _screen(con: Console, view: SeatView, deal_no: int, match: Match, bot: str, log: list[str]) -> None:
    me = view.seat
    opp = 1 - me
    con.rule(f"Deal {deal_no} · {_score(match, me)} · {bot}")
    if log:
        con.print("[bold]What just happened:[/]")
        for line in log:
            con.print(f"  {line}")
    tc = view.table_counts
    con.print(f"Player {opp + 1}'s table ({tc[opp]} cards): {_meld_list(view.melds[opp])}")
    con.print(f"Your table ({tc[me]} cards): {_meld_list(view.melds[me])}")
    if view.forced >= 0:
        who = "you" if view.to_act == me else f"Player {view.to_act + 1}"
        con.print(f"Forced on {who}: {_cards(1 << view.forced)} (it must be melded, R18e)")
    elif view.centre >= 0:
        if view.live_from == opp:
            where = f"live, let go by Player {opp + 1}"
        elif view.live_from == me:
            where = "let go by you"
        else:
            where = "just turned by you" if view.to_act == me else f"just turned by Player {opp + 1}"
        con.print(f"Centre: {_cards(1 << view.centre)} ({where})")
    else:
        con.print("Centre: empty")
    con.print(f"Stock: {_n(view.stock_count, 'card')} · Player {opp + 1} holds {_n(view.hand_counts[opp], 'card')}")
    con.print(f"Your hand: {_cards(view.hand) or '(empty)'}")


def _ask(con: Console, view: SeatView) -> int:
    legal = view.legal
    rules = find_profile(view.rules)
    if view.decision == "meld":
        con.print(f"[bold]{CARD_NAMES[view.forced]} was forced on you: choose your new table (R18e).[/]")
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
            a = parse_action(text, rules)
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
        if seat == me:
            before = seat_view(st, me)
            if len(before.legal) == 1 and before.decision == "turn":
                a = before.legal[0]  # the deal's first turn: nothing to decide
            else:
                _screen(con, before, deal_no, match, bot_name, log)
                log = []
                a = _ask(con, before)
        else:
            a = bot.choose(seat_view(st, seat))
        st.play(a, seat=seat)
        after = seat_view(st, me)
        log.append(event_words(after.history[-1], after, me))
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
    bot: str = typer.Option("greedy", "--bot", help="Opponent: " + BOT_NAMES + "."),
    deals: int | None = typer.Option(None, "--deals", min=1, help="Play this many deals. Default 3 (or the whole first-to match)."),
    to: int | None = typer.Option(None, "--to", min=1, help="Play until one seat has won this many deals."),
    seed: int | None = typer.Option(None, "--seed", help="Seed for the deals and the bot (default: random)."),
    seat: int = typer.Option(1, "--seat", min=1, max=2, help="Your seat, 1 or 2."),
    rules: str = typer.Option("gameweave", "--rules", help=RULES_HELP),
    option: list[str] | None = typer.Option(None, "--option", help="Match option key=value (R20), e.g. tablas_stake=carry."),
) -> None:
    """Play a match against a bot in the terminal: type a choice's number each turn."""
    from ..bots import make_bot

    con = Console(highlight=False)
    if deals is not None and to is not None:
        typer.echo("error: give --deals or --to, not both", err=True)
        raise typer.Exit(2)
    profile = profile_or_exit(rules)
    assert profile is not None
    given = list(option or [])
    if to is not None:
        given += ["match=first_to", f"target={to}"]
    opts = options_or_exit(profile, given)
    try:
        opponent = make_bot(bot, seed=seed)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
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
        goal = f"first to {match.target} won deal{'s' if match.target != 1 else ''}"
    else:
        goal = f"{n_deals} deal{'s' if n_deals != 1 else ''}"
        if match.format == "first_to":
            goal += f" (or first to {match.target})"
    if match.format == "stakes":
        how = "doubled" if match.tablas_stake == "double" else "carried"
        goal += f", stakes (base {match.stake}, {how} after tablas)"
    opener = "you open" if first == me else f"Player {first + 1} opens"
    drawn = " (drawn at random)" if profile.first_opener == "random" else ""
    con.print(f"Gameweave ({profile.name} rules): you (seat {seat}) against [bold]{bot}[/] (Player {2 - me}), "
              f"{goal}, seed {seed}; {opener} deal 1{drawn}.")
    con.print("Type the number of a choice and press Enter; q leaves the table.")
    deal_no = 0
    try:
        while not match.is_over and (n_deals is None or deal_no < n_deals):
            deal_no += 1
            st = match.new_deal(seed=rng.randrange(1 << 62))
            stake = match.current_stake
            play_deal(con, st, me, opponent, deal_no, match, bot)
            match.count(st)
            line = f"Tally: you {match.wins[me]}, Player {2 - me} {match.wins[1 - me]}, tablas {match.tablas}"
            if match.format == "stakes":
                paid = ("you win" if st.winner == me else f"Player {2 - me} wins") + f" the stake of {stake}" \
                    if st.status == "won" else f"the stake of {stake} is unpaid"
                line += (f"; {paid}; stakes won: you {match.points[me]}, Player {2 - me} {match.points[1 - me]}; "
                         f"next stake {match.current_stake}")
            con.print(line)
    except _Quit:
        con.print("\nYou left the table.")
        raise typer.Exit(0) from None
    except KeyboardInterrupt:
        con.print("\nYou left the table.")
        raise typer.Exit(130) from None
    if match.is_over:
        con.print("[bold green]You won the match![/]" if match.winner == me else f"[bold red]Player {2 - me} won the match.[/]")
    elif match.format == "stakes":
        b = match.balance(me)
        verdict = "You won the match!" if b > 0 else ("The match is drawn." if b == 0 else f"Player {2 - me} won the match.")
        con.print(f"[bold]{verdict}[/] (stakes: you {match.points[me]}, Player {2 - me} {match.points[1 - me]})")
    else:
        w, lost = match.wins[me], match.wins[1 - me]
        verdict = "You won the match!" if w > lost else ("The match is drawn." if w == lost else f"Player {2 - me} won the match.")
        con.print(f"[bold]{verdict}[/]")


def _n(count: int, noun: str) -> str:
    """``'1 card'``, ``'3 cards'``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
