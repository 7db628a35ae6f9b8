"""Ratings in the database (issue 20): each account's Glicko-2 rating per profile, the
rating events that apply each rated deal exactly once, the leaderboard and a player's
public profile.  Synchronous, like :class:`~.store.Store` (the server calls it on its
database threads).

**Exactly once.**  :meth:`RatingStore.apply_deal` reads the deal's result from the
database (never from a node's memory) and, in **one** transaction, locks both players'
rating rows (an ``UPDATE`` first: row locks on PostgreSQL, the write lock on SQLite), checks that
the deal has no rating event yet, writes one event per account (primary key ``(match,
deal, account)``) and the two new ratings.  Two nodes applying the same deal at once:
the second waits for the first's row locks, then finds its events (or fails on their
key) and changes nothing.  A crash between a deal's end and its update loses nothing:
:meth:`RatingStore.pending` lists every ended rated deal with no event (the server
applies them at start-up).

**Which deals.**  A deal of a match stored ``rated`` whose two seats are held by two
different accounts (``account_seats``): won (by play or because the other seat resigned
it: a resign is a loss), tablas, or — for the deal in play when the match was closed as
abandoned — lost by the seat whose decision was pending (``matches.abandoned_by``).
When a match is resigned, only the deal in play counts (lost by the resigning seat);
deals never dealt count for nothing.  A seat with no account: the deal is not rated.
"""

from __future__ import annotations

from dataclasses import dataclass
from sqlalchemy import and_, exists, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from .glicko import PROVISIONAL_RD, START, Glicko, rate_deal
from .schema import account_seats, accounts, deals, matches, rating_events, ratings
from .times import _iso, _now

HISTORY_POINTS = 200
"""The most rating-history points a profile gives per profile (the newest)."""

RECENT_MATCHES = 10
"""How many of a player's matches a profile lists (newest first)."""


@dataclass(frozen=True)
class Rating:
    """An account's rating in one profile: ``rating`` and ``rd`` in rating points,
    ``deals`` rated, ``won`` / ``tablas`` / ``lost``, ``streak`` (+n won in a row, -n
    lost, 0 after tablas or none yet)."""

    rules: str
    rating: float
    rd: float
    deals: int = 0
    won: int = 0
    tablas: int = 0
    lost: int = 0
    streak: int = 0

    @property
    def provisional(self) -> bool:
        """True while the deviation is above :data:`~.glicko.PROVISIONAL_RD`."""
        return self.rd > PROVISIONAL_RD

    def shown(self) -> dict:
        """What the table and the lobby show beside a name: ``{"rules", "rating",
        "rd", "provisional"}`` (rating and deviation rounded to whole points)."""
        return {"rules": self.rules, "rating": round(self.rating), "rd": round(self.rd),
                "provisional": self.provisional, "ladder": False}


@dataclass(frozen=True)
class DealResult:
    """A rated deal to apply: the profile, the accounts of seats 1 and 2, seat 1's score."""

    rules: str
    account_ids: tuple[int, int]
    score_one: float


class _Applied(Exception):
    """The deal's rating events are there already."""


def _score_one(status: str, winner: int | None, abandoned_by: int | None) -> float | None:
    """Seat 1's score of a deal (1 / 0.5 / 0), or None while it has no result."""
    if status == "won" and winner in (0, 1):
        return 1.0 if winner == 0 else 0.0
    if status == "tablas":
        return 0.5
    if status == "playing" and abandoned_by in (0, 1):
        return 0.0 if abandoned_by == 0 else 1.0
    return None


def _streak(streak: int, score: float) -> int:
    if score == 1.0:
        return streak + 1 if streak > 0 else 1
    if score == 0.0:
        return streak - 1 if streak < 0 else -1
    return 0


class RatingStore:
    """The rating tables of the database behind ``engine`` (the :class:`~.store.Store`'s)."""

    def __init__(self, engine: Engine):
        self.engine = engine

    # ------------------------------------------------------------------ applying
    def result(self, conn: Connection, match_id: str, number: int) -> DealResult | None:
        """The :class:`DealResult` of deal ``number`` of ``match_id``, or None when it is
        not a rated deal with a result between two accounts (see the module)."""
        m = conn.execute(select(matches.c.rated, matches.c.rules, matches.c.abandoned, matches.c.abandoned_by)
                         .where(matches.c.id == match_id)).first()
        if m is None or not m.rated:
            return None
        d = conn.execute(select(deals.c.status, deals.c.winner).where(
            deals.c.match_id == match_id, deals.c.number == number)).first()
        if d is None:
            return None
        score = _score_one(d.status, d.winner, m.abandoned_by if m.abandoned else None)
        held = dict(conn.execute(select(account_seats.c.seat, account_seats.c.account_id)
                                 .where(account_seats.c.match_id == match_id)).all())
        one, two = held.get(1), held.get(2)
        if score is None or one is None or two is None or one == two:
            return None
        return DealResult(m.rules, (int(one), int(two)), score)

    def apply_deal(self, match_id: str, number: int) -> bool:
        """Apply a rated deal's result to both players' ratings, exactly once (see the
        module); True if this call applied it, False if it was applied already or is
        not a rated deal with a result."""
        with self.engine.connect() as conn:
            res = self.result(conn, match_id, number)
        if res is None:
            return False
        for account_id in sorted(set(res.account_ids)):
            self._ensure(account_id, res.rules)
        try:
            with self.engine.begin() as conn:
                return self._apply(conn, match_id, number, res)
        except (IntegrityError, _Applied):  # another writer's events came first
            return False

    def _ensure(self, account_id: int, rules: str) -> None:
        """Give the account its starting rating in ``rules`` if it has none yet (its own
        transaction: two writers creating it at once, one of them fails harmlessly)."""
        with self.engine.connect() as conn:
            have = conn.execute(select(ratings.c.account_id).where(
                ratings.c.account_id == account_id, ratings.c.rules == rules)).first()
        if have is not None:
            return
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(ratings).values(account_id=account_id, rules=rules, rating=START.rating,
                                                    rd=START.rd, vol=START.vol, updated_at=_now()))
        except IntegrityError:
            pass

    def _apply(self, conn: Connection, match_id: str, number: int, res: DealResult) -> bool:
        one, two = res.account_ids
        # write first: both rows are locked (PostgreSQL) and SQLite's write lock is taken
        # before anything is read, so no other writer can slip in between read and write
        conn.execute(update(ratings).where(ratings.c.account_id.in_([one, two]), ratings.c.rules == res.rules)
                     .values(updated_at=_now()))
        rows = {r.account_id: r for r in conn.execute(
            select(ratings).where(ratings.c.account_id.in_([one, two]), ratings.c.rules == res.rules)
            .order_by(ratings.c.account_id).with_for_update()).all()}
        done = conn.execute(select(rating_events.c.account_id).where(
            rating_events.c.match_id == match_id, rating_events.c.deal_number == number)).first()
        if done is not None:
            raise _Applied()  # rolls the transaction back: nothing changes
        before = [Glicko(rows[a].rating, rows[a].rd, rows[a].vol) for a in (one, two)]
        after = rate_deal(before[0], before[1], res.score_one)
        now = _now()
        for seat, (me, other) in enumerate(((one, two), (two, one))):
            score = res.score_one if seat == 0 else 1.0 - res.score_one
            conn.execute(insert(rating_events).values(
                match_id=match_id, deal_number=number, account_id=me, rules=res.rules, seat=seat + 1,
                opponent_id=other, score=score, rating_before=before[seat].rating, rating_after=after[seat].rating,
                rd_after=after[seat].rd, at=now))
            row = rows[me]
            conn.execute(update(ratings).where(ratings.c.account_id == me, ratings.c.rules == res.rules).values(
                rating=after[seat].rating, rd=after[seat].rd, vol=after[seat].vol, deals=row.deals + 1,
                won=row.won + (score == 1.0), tablas=row.tablas + (score == 0.5), lost=row.lost + (score == 0.0),
                streak=_streak(row.streak, score), updated_at=now))
        return True

    def pending(self) -> list[tuple[str, int]]:
        """``(match_id, deal number)`` of every deal of a rated match that has a result,
        both seats held by accounts, and no rating event yet (the start-up sweep)."""
        seat_held = [exists().where(account_seats.c.match_id == matches.c.id, account_seats.c.seat == s)
                     for s in (1, 2)]
        applied = exists().where(rating_events.c.match_id == deals.c.match_id,
                                 rating_events.c.deal_number == deals.c.number)
        ended = (deals.c.status != "playing") | (matches.c.abandoned.is_(True) & matches.c.abandoned_by.is_not(None))
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(deals.c.match_id, deals.c.number).join(matches, matches.c.id == deals.c.match_id)
                .where(matches.c.rated.is_(True), ended, *seat_held, ~applied)
                .order_by(deals.c.created_at, deals.c.number)).all()
        return [(r[0], int(r[1])) for r in rows]

    # ------------------------------------------------------------------ reading
    def of_match(self, match_id: str) -> list[Rating | None]:
        """Per seat (1, 2) the rating in the match's profile of the account holding it
        (the start, 1500 provisional, before its first rated deal there), or None for a
        seat no account holds (:func:`of_match`)."""
        with self.engine.connect() as conn:
            return of_match(conn, match_id)

    def rating_of(self, account_id: int, rules: str) -> float:
        """The account's rating in ``rules`` (rating points), 1500 before its first rated
        deal there: the quick-match queue pairs by it (issue 20, item 3's
        ``rating_of(account_id, rules)``)."""
        with self.engine.connect() as conn:
            got = conn.execute(select(ratings.c.rating).where(
                ratings.c.account_id == account_id, ratings.c.rules == rules, ratings.c.deals > 0)).scalar()
        return float(got) if got is not None else START.rating

    def leaderboard(self, rules: str, limit: int = 100) -> list[tuple[str, Rating]]:
        """``(username, rating)`` of live accounts rated in ``rules``, best first
        (established players before provisional ones, then by rating)."""
        provisional = (ratings.c.rd > PROVISIONAL_RD)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(accounts.c.username, ratings).join(accounts, accounts.c.id == ratings.c.account_id)
                .where(ratings.c.rules == rules, accounts.c.deleted_at.is_(None), ratings.c.deals > 0)
                .order_by(provisional, ratings.c.rating.desc(), accounts.c.username_key).limit(limit)).all()
        return [(r.username, _rating(r)) for r in rows]

    def account_of(self, key: str) -> tuple[int, str] | None:
        """``(id, username)`` of the live account whose username key is ``key``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts.c.id, accounts.c.username).where(
                accounts.c.username_key == key, accounts.c.deleted_at.is_(None))).first()
        return (int(row.id), row.username) if row else None

    def ratings_of(self, account_id: int) -> list[Rating]:
        """Every profile's rating of an account (those with a rated deal)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings).where(ratings.c.account_id == account_id, ratings.c.deals > 0)
                                .order_by(ratings.c.rules)).all()
        return [_rating(r) for r in rows]

    def history(self, account_id: int, rules: str, limit: int = HISTORY_POINTS) -> list[dict]:
        """The account's rating events in profile ``rules``, oldest first (the newest ``limit``):
        ``{"rules", "match_id", "deal", "score", "rating", "rd", "opponent", "at"}``
        (``opponent`` is the other account's name, or None once it was deleted)."""
        other = accounts.alias("other")
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(rating_events, other.c.username.label("opponent"))
                .join(other, other.c.id == rating_events.c.opponent_id)
                .where(rating_events.c.account_id == account_id, rating_events.c.rules == rules)
                .order_by(rating_events.c.at.desc(), rating_events.c.deal_number.desc()).limit(limit)).all()
        return [{"rules": r.rules, "match_id": r.match_id, "deal": r.deal_number, "score": r.score,
                 "rating": round(r.rating_after), "rd": round(r.rd_after), "opponent": r.opponent,
                 "at": _iso(r.at)} for r in reversed(rows)]

    def recent_matches(self, account_id: int, limit: int = RECENT_MATCHES) -> list[dict]:
        """The account's newest matches: ``{"match_id", "seat", "rules", "rated",
        "created_at", "opponent", "deals": [{"number", "status", "winner"}]}`` (a deal's
        status ``playing``, ``won``, ``tablas`` or, in a match closed unfinished,
        ``abandoned``); the
        opponent is the other seat's account name, else its seat name (None for a
        deleted or unnamed one), or the bot's level."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(account_seats.c.seat, matches.c.id, matches.c.rules, matches.c.rated, matches.c.created_at,
                       matches.c.name1, matches.c.name2, matches.c.opponent, matches.c.bot, matches.c.abandoned)
                .join(matches, matches.c.id == account_seats.c.match_id)
                .where(account_seats.c.account_id == account_id)
                .order_by(matches.c.created_at.desc()).limit(limit)).all()
            ids = [r.id for r in rows]
            deal_rows = conn.execute(select(deals.c.match_id, deals.c.number, deals.c.status, deals.c.winner)
                                     .where(deals.c.match_id.in_(ids)).order_by(deals.c.number)).all() if ids else []
            names = dict(((r.match_id, r.seat), r.username) for r in conn.execute(
                select(account_seats.c.match_id, account_seats.c.seat, accounts.c.username)
                .join(accounts, accounts.c.id == account_seats.c.account_id)
                .where(account_seats.c.match_id.in_(ids)))) if ids else {}
        closed = {r.id for r in rows if r.abandoned}
        by_match: dict[str, list[dict]] = {}
        for d in deal_rows:  # a deal left in play when its match was closed is "abandoned", not "playing"
            status = "abandoned" if d.status == "playing" and d.match_id in closed else d.status
            by_match.setdefault(d.match_id, []).append(
                {"number": d.number, "status": status, "winner": d.winner + 1 if d.winner is not None else None})
        out = []
        for r in rows:
            other = 3 - r.seat
            if r.opponent == "bot":
                opponent = r.bot
            else:
                opponent = names.get((r.id, other)) or (r.name2 if other == 2 else r.name1)
            out.append({"match_id": r.id, "seat": r.seat, "rules": r.rules, "rated": bool(r.rated),
                        "created_at": _iso(r.created_at), "opponent": opponent, "bot": r.opponent == "bot",
                        "deals": by_match.get(r.id, [])})
        return out

    def holds_seat(self, account_id: int, match_id: str) -> bool:
        """True if the account holds a seat of ``match_id``."""
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(account_seats).where(
                account_seats.c.account_id == account_id, account_seats.c.match_id == match_id)).scalar() > 0


def of_match(conn: Connection, match_id: str) -> list[Rating | None]:
    """:meth:`RatingStore.of_match` on an open connection (the store loads it with the
    table): per seat, the rating in the match's profile of the account that holds it —
    the start (1500, provisional, no deals) for an account with no rated deal there yet —
    or None for a seat no account holds."""
    rows = conn.execute(
        select(account_seats.c.seat, matches.c.rules.label("match_rules"), ratings)
        .join(matches, matches.c.id == account_seats.c.match_id)
        .outerjoin(ratings, and_(ratings.c.account_id == account_seats.c.account_id, ratings.c.rules == matches.c.rules,
                                 ratings.c.deals > 0))
        .where(account_seats.c.match_id == match_id)).all()
    got: list[Rating | None] = [None, None]
    for r in rows:
        if r.seat in (1, 2):
            got[r.seat - 1] = _rating(r) if r.rating is not None else Rating(r.match_rules, START.rating, START.rd)
    return got


def _rating(r) -> Rating:
    return Rating(r.rules, float(r.rating), float(r.rd), int(r.deals), int(r.won), int(r.tablas), int(r.lost),
                  int(r.streak))


__all__ = ["DealResult", "HISTORY_POINTS", "RECENT_MATCHES", "Rating", "RatingStore"]
