"""A whole terminal match: the words that open it (profile, seats, goal, seed, who opens,
R9, R20), the deals one after another with the tally after each (and the stakes, R20),
the match's verdict, and the record of the finished deals."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from rich.markup import escape

from ...engine import GameState, Match, Rules
from ...i18n import translate
from ...tables import help_data
from .asker import Quit, is_quit
from .deal import Bot, play_deal
from .record import save_record
from .screen import Terminal


@dataclass
class Seating:
    """Who plays: the person in seat index ``me`` (0/1) under ``you`` (their name, or
    empty), the bot and its display name ``label``."""

    me: int
    you: str
    bot: Bot
    label: str


@dataclass
class Plan:
    """How the match runs: ``deals`` to play (None: until a first-to match is over), the
    ``seed`` shown, ``rng`` drawing each deal's shuffle (seeded from it, after the first
    opener's draw, R9), and the deck orders to deal first (``--test-decks``)."""

    deals: int | None
    seed: int
    rng: random.Random
    fixed: list[tuple[int, ...]] = field(default_factory=list)


def goal_words(tty: Terminal, match: Match, plan: Plan) -> str:
    """What the match is played to: ``"3 deals"``, ``"first to 2 won deals"``, with the
    stakes (R20)."""
    if match.format == "first_to" and plan.deals is None:
        goal = tty.t("goal_first_to_one" if match.target == 1 else "goal_first_to_many", n=match.target)
    else:
        goal = tty.t("goal_deals_one" if plan.deals == 1 else "goal_deals_many", n=plan.deals)
        if match.format == "first_to":
            goal += tty.t("goal_or_first_to", n=match.target)
    if match.format == "stakes":
        goal += tty.t("goal_stakes_double" if match.tablas_stake == "double" else "goal_stakes_carry",
                      base=match.stake)
    return goal


def show_intro(tty: Terminal, profile: Rules, match: Match, who: Seating, plan: Plan) -> None:
    """The match's first lines: profile, seats, goal, seed, who opens deal 1 (R9), and how
    to play at the prompt."""
    me = who.me
    opener = tty.t("you_open") if match.first_opener == me else tty.t("they_open", opp=who.label)
    drawn = tty.t("drawn") if profile.first_opener == "random" else ""
    words = help_data(tty.lang)
    title = words["profiles"][profile.name]
    # the rules alone (the summary also names the profile's usual match, "…; first to 3"):
    # this match's own goal follows in the same line
    summary = translate(f"profile.{profile.name}.rules", tty.lang)
    tty.con.print(tty.t("intro", rules=title["title"], summary=summary,
                        you=escape(who.you) if who.you else tty.t("you"), seat=me + 1,
                        opp=f"[bold]{who.label}[/]", other=2 - me, goal=goal_words(tty, match, plan),
                        seed=plan.seed, opener=opener, drawn=drawn))
    tty.con.print(escape(words["terminal"]["help_hint"]))


def tally_line(tty: Terminal, match: Match, me: int, st: GameState, stake: int, label: str) -> str:
    """The tally after a counted deal; in a stakes match who won the deal's ``stake``,
    the stakes won, the balance and the next stake (R20)."""
    line = tty.t("tally", mine=match.wins[me], opp=label, theirs=match.wins[1 - me], tablas=match.tablas)
    if match.format != "stakes":
        return line
    if st.status != "won":
        paid = tty.t("stake_unpaid", stake=stake)
    elif st.winner == me:
        paid = tty.t("stake_you_win", stake=stake)
    else:
        paid = tty.t("stake_they_win", opp=label, stake=stake)
    return line + tty.t("tally_stakes", paid=paid, mine=match.points[me], opp=label, theirs=match.points[1 - me],
                        balance=f"{match.balance(me):+d}", stake=match.current_stake)


def verdict(tty: Terminal, match: Match, me: int, label: str) -> str:
    """The match's last line (Rich markup): who won it, a first-to match stopped early, or
    where a match without an end stands after the deals played (a running tally, or
    stakes with the balance: R20 gives those no winner)."""
    won, lost = tty.t("you_won_match"), tty.t("they_won_match", opp=label)
    if match.is_over:
        return f"[bold green]{won}[/]" if match.winner == me else f"[bold red]{lost}[/]"
    if match.format == "first_to":
        return tty.t("match_stopped", deals=match.deals_played, mine=match.wins[me], opp=label,
                     theirs=match.wins[1 - me], target=match.target)
    stakes = match.format == "stakes"
    mine, theirs = (match.points if stakes else match.wins)[me], (match.points if stakes else match.wins)[1 - me]
    n = match.deals_played
    deals = tty.t("goal_deals_one" if n == 1 else "goal_deals_many", n=n)
    key = "standing_you" if mine > theirs else ("standing_level" if mine == theirs else "standing_them")
    line = f"[bold]{tty.t(key, deals=deals, mine=mine, theirs=theirs, opp=label)}[/]"
    if stakes:
        line += tty.t("stakes_final", mine=mine, opp=label, theirs=theirs, balance=f"{match.balance(me):+d}")
    return line


def pause(tty: Terminal, next_deal: int) -> None:
    """Wait between two deals until the person presses Enter (the last deal's end stays
    on the screen); ``q`` or the end of the input leaves (:class:`~.asker.Quit`)."""
    try:
        line = tty.con.input(tty.t("next_deal_prompt", n=next_deal))
    except EOFError:
        raise Quit() from None
    if is_quit(line.strip().lower(), tty):
        raise Quit()


def play_match(tty: Terminal, match: Match, who: Seating, plan: Plan, record: Path | None) -> int:
    """Play the deals of ``plan`` (or until the match is over), print the tally after
    each and the verdict, and save the finished deals to ``record`` (None: no record).
    Returns the exit status: 0, or 130 after Ctrl-C; leaving (``q``) is 0 too; 1 if
    the record could not be saved."""
    finished: list[GameState] = []
    deal_no = 0
    try:
        while not match.is_over and (plan.deals is None or deal_no < plan.deals):
            deal_no += 1
            shuffle_seed = plan.rng.randrange(1 << 62)
            st = match.new_deal(plan.fixed.pop(0)) if plan.fixed else match.new_deal(seed=shuffle_seed)
            stake = match.current_stake
            play_deal(tty, st, who.me, who.bot, deal_no, match, who.label)
            match.count(st)
            finished.append(st)
            tty.con.print(tally_line(tty, match, who.me, st, stake, who.label))
            if not match.is_over and (plan.deals is None or deal_no < plan.deals):
                pause(tty, deal_no + 1)
    except (Quit, KeyboardInterrupt) as exc:
        tty.con.print(("\n" if isinstance(exc, KeyboardInterrupt) else "") + tty.t("left"))
        saved = record is None or save_record(tty, record, match, finished)
        return 130 if isinstance(exc, KeyboardInterrupt) else 0 if saved else 1
    tty.con.print(verdict(tty, match, who.me, who.label))
    saved = record is None or save_record(tty, record, match, finished)
    return 0 if saved else 1


__all__ = ["Plan", "Seating", "goal_words", "pause", "play_match", "show_intro", "tally_line", "verdict"]
