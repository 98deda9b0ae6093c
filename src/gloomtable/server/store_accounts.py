"""Accounts, their sessions and the seats they sit at, in the tables' store.

The SQL is written once, with ``?`` placeholders, and run by both backends
(:class:`~gloomtable.server.store_sqlite.SqliteStore` and
:class:`~gloomtable.server.store_postgres.PostgresStore` mix :class:`AccountRows`
in): each backend's ``_tx()`` yields a connection whose ``execute`` returns a
cursor, and PostgreSQL's placeholders are ``%s``. Every method is one
transaction, as every other store call (so a PostgreSQL store's guard bounds it
in time like the rest). A session is stored by the SHA-256 of its cookie value,
so a copy of the database holds no usable session.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from gloomtable.server.ratings import RatingPlan

FORMER_PLAYER = "a former player"
"""The name a deleted account's seats carry from then on (its games stay)."""


@dataclass
class AccountRow:
    id: str
    name: str
    password_hash: str
    created: float


@dataclass
class SessionRow:
    account: AccountRow
    csrf: str
    expires: float


@dataclass
class AccountSeat:
    """One seat an account sits at, as "My games" lists it."""

    table_id: str
    seat: int
    game: str
    over: bool
    created: float
    seat_name: str


class AccountStore(Protocol):
    """The account half of the store contract (both backends)."""

    def create_account(self, account_id: str, name: str, key: str, password_hash: str) -> bool:
        """A new account; False (nothing written) if ``key`` (the folded name) is taken."""

    def account_by_key(self, key: str) -> AccountRow | None: ...

    def set_password(self, account_id: str, password_hash: str) -> None: ...

    def delete_account(self, account_id: str) -> list[tuple[str, int]]:
        """Forget the account, its sessions and seat links; its seats keep their games
        under :data:`FORMER_PLAYER`. The (table, seat) pairs it sat at."""

    def create_session(self, digest: str, account_id: str, csrf: str, expires: float) -> None: ...

    def session(self, digest: str) -> SessionRow | None:
        """The unexpired session stored under ``digest``, with its account."""

    def delete_session(self, digest: str) -> None: ...

    def delete_sessions(self, account_id: str, but: str | None = None) -> None:
        """Every session of the account (but the one under ``but``)."""

    def link_seat(self, table_id: str, seat: int, account_id: str) -> bool:
        """Record the account at the seat, if nobody is recorded there yet (first one stays)."""

    def account_seats(self, account_id: str, limit: int) -> list[AccountSeat]:
        """The account's seats, unfinished tables first, newest first."""

    def account_seat_token(self, account_id: str, table_id: str) -> tuple[int, str] | None:
        """The account's seat at the table and that seat's token (None: not its table)."""

    def seat_accounts(self, table_id: str) -> dict[int, str]:
        """Seat -> account recorded there."""

    def seat_ratings(self, table_ids: Sequence[str]) -> dict[str, dict[int, tuple[float, float]]]:
        """Table -> seat -> (mu, sigma) of the account recorded there, in the table's
        game, for the seats whose account has a rating in it (one query: the lobby's page)."""

    def ratings_of(self, account_id: str) -> list[tuple[str, float, float, int, int]]:
        """(game, mu, sigma, played, won) of every game the account has a rating in."""

    def rating_history(self, account_id: str) -> list[tuple[str, str, float, float, float]]:
        """(game, table, at, mu, sigma) after each rated game, oldest first."""

    def leaderboard(self, game: str, limit: int) -> list[tuple[str, float, float, int, int]]:
        """(name, mu, sigma, played, won) of the game's rated accounts, best first
        (by mu - 3 sigma)."""

    def account_name(self, account_id: str) -> str | None: ...

    def export_accounts(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of the account tables (for ``gloom db copy``)."""

    def import_accounts(self, rows: dict[str, list[tuple[Any, ...]]]) -> int:
        """Write rows from :meth:`export_accounts`, leaving those already stored (by key)
        as they are; the number written. A seat link to a table not stored is left out."""


class AccountRows:
    """:class:`AccountStore` for a backend with ``_tx()`` and placeholder ``_ph``."""

    _ph = "?"
    _tx: Callable[[], Any]
    """The backend's own transaction (a context manager giving its connection)."""

    def _notify(self, conn: Any, table_id: str) -> None:
        """Tell other processes the table changed (PostgreSQL's own; SQLite has no others)."""

    @contextlib.contextmanager
    def _run(self) -> Iterator[Any]:
        with self._tx() as conn:
            yield _Runner(conn, self._ph)

    def create_account(self, account_id: str, name: str, key: str, password_hash: str) -> bool:
        with self._run() as db:
            if db.execute("SELECT 1 FROM accounts WHERE name_key=?", (key,)).fetchone():
                return False
            db.execute("INSERT INTO accounts (id, name, name_key, password_hash, created) VALUES (?,?,?,?,?)",
                       (account_id, name, key, password_hash, time.time()))
            return True

    def account_by_key(self, key: str) -> AccountRow | None:
        with self._run() as db:
            row = db.execute("SELECT id, name, password_hash, created FROM accounts WHERE name_key=?",
                             (key,)).fetchone()
        return None if row is None else AccountRow(row[0], row[1], row[2], float(row[3]))

    def set_password(self, account_id: str, password_hash: str) -> None:
        with self._run() as db:
            db.execute("UPDATE accounts SET password_hash=? WHERE id=?", (password_hash, account_id))

    def delete_account(self, account_id: str) -> list[tuple[str, int]]:
        with self._run() as db:
            seats = [(r[0], int(r[1])) for r in db.execute(
                "SELECT table_id, seat FROM seat_accounts WHERE account_id=?", (account_id,)).fetchall()]
            db.execute("UPDATE seats SET name=? WHERE EXISTS (SELECT 1 FROM seat_accounts a WHERE"
                       " a.table_id=seats.table_id AND a.seat=seats.seat AND a.account_id=?)",
                       (FORMER_PLAYER, account_id))
            db.execute("DELETE FROM seat_accounts WHERE account_id=?", (account_id,))
            db.execute("DELETE FROM ratings WHERE account_id=?", (account_id,))
            db.execute("DELETE FROM rating_history WHERE account_id=?", (account_id,))
            db.execute("DELETE FROM sessions WHERE account_id=?", (account_id,))
            db.execute("DELETE FROM accounts WHERE id=?", (account_id,))
            for table_id in {t for t, _ in seats}:
                self._notify(db.conn, table_id)
        return seats

    def create_session(self, digest: str, account_id: str, csrf: str, expires: float) -> None:
        with self._run() as db:
            db.execute("DELETE FROM sessions WHERE expires<?", (time.time(),))  # the old ones go as new come
            db.execute("INSERT INTO sessions (digest, account_id, csrf, created, expires) VALUES (?,?,?,?,?)",
                       (digest, account_id, csrf, time.time(), expires))

    def session(self, digest: str) -> SessionRow | None:
        with self._run() as db:
            row = db.execute(
                "SELECT a.id, a.name, a.password_hash, a.created, s.csrf, s.expires FROM sessions s"
                " JOIN accounts a ON a.id=s.account_id WHERE s.digest=? AND s.expires>?",
                (digest, time.time())).fetchone()
        if row is None:
            return None
        return SessionRow(AccountRow(row[0], row[1], row[2], float(row[3])), row[4], float(row[5]))

    def delete_session(self, digest: str) -> None:
        with self._run() as db:
            db.execute("DELETE FROM sessions WHERE digest=?", (digest,))

    def delete_sessions(self, account_id: str, but: str | None = None) -> None:
        with self._run() as db:
            db.execute("DELETE FROM sessions WHERE account_id=? AND digest<>?", (account_id, but or ""))

    def link_seat(self, table_id: str, seat: int, account_id: str) -> bool:
        with self._run() as db:
            if db.execute("SELECT 1 FROM seat_accounts WHERE table_id=? AND seat=?",
                          (table_id, seat)).fetchone():
                return False
            if not db.execute("SELECT 1 FROM seats WHERE table_id=? AND seat=?", (table_id, seat)).fetchone():
                return False  # deleted meanwhile
            db.execute("INSERT INTO seat_accounts (table_id, seat, account_id, at) VALUES (?,?,?,?)",
                       (table_id, seat, account_id, time.time()))
            return True

    def account_seats(self, account_id: str, limit: int) -> list[AccountSeat]:
        with self._run() as db:
            rows = db.execute(
                "SELECT t.id, a.seat, t.game, t.over, t.created, s.name FROM seat_accounts a"
                " JOIN tables t ON t.id=a.table_id JOIN seats s ON s.table_id=a.table_id AND s.seat=a.seat"
                " WHERE a.account_id=? ORDER BY t.over, t.created DESC, t.id LIMIT ?",
                (account_id, limit)).fetchall()
        return [AccountSeat(r[0], int(r[1]), r[2], bool(r[3]), float(r[4]), r[5]) for r in rows]

    def account_seat_token(self, account_id: str, table_id: str) -> tuple[int, str] | None:
        with self._run() as db:
            row = db.execute("SELECT s.seat, s.token FROM seat_accounts a JOIN seats s ON"
                             " s.table_id=a.table_id AND s.seat=a.seat WHERE a.account_id=? AND"
                             " a.table_id=? ORDER BY s.seat", (account_id, table_id)).fetchone()
        return None if row is None else (int(row[0]), row[1])


    _for_update = ""
    """PostgreSQL locks the rows it reads to move them (SQLite's write lock is whole)."""
    _for_share = ""
    """... and the accounts it reads, so none is deleted before the ratings are written."""

    def seat_accounts(self, table_id: str) -> dict[int, str]:
        with self._run() as db:
            return {int(r[0]): r[1] for r in db.execute(
                "SELECT seat, account_id FROM seat_accounts WHERE table_id=?", (table_id,)).fetchall()}

    def _rate_finished(self, conn: Any, table_id: str, plan: RatingPlan) -> bool:
        """Rate a table in the transaction of its last move (``conn``), once: False,
        and nothing written, if it was rated already or its seats' accounts do not fit
        the plan (:func:`~gloomtable.server.ratings.accounts_fit`). Each seat's rating
        (a bot's fixed one, else the account's for the game, new if none) goes through
        openskill; the accounts' new ratings, games and wins are stored with one history
        row each."""
        from gloomtable.server.ratings import NEW, Rating, accounts_fit

        db, game = _Runner(conn, self._ph), plan.game
        accounts = {int(r[0]): r[1] for r in db.execute(
            "SELECT a.seat, a.account_id FROM seat_accounts a JOIN accounts c ON c.id=a.account_id"
            " WHERE a.table_id=?" + self._for_share, (table_id,)).fetchall()}
        if not accounts_fit(plan, accounts):
            return False
        if db.execute("INSERT INTO rated_tables (table_id, game, at) VALUES (?,?,?)"
                      " ON CONFLICT DO NOTHING", (table_id, game, time.time())).rowcount != 1:
            return False
        before: dict[str, Rating] = {}
        for account in sorted(accounts[p] for p in plan.people):  # one order: two tables never deadlock
            db.execute("INSERT INTO ratings (account_id, game, mu, sigma, played, won) VALUES (?,?,?,?,0,0)"
                       " ON CONFLICT DO NOTHING", (account, game, NEW.mu, NEW.sigma))
            row = db.execute("SELECT mu, sigma FROM ratings WHERE account_id=? AND game=?" + self._for_update,
                             (account, game)).fetchone()
            before[account] = Rating(float(row[0]), float(row[1]))
        now = time.time()  # read once the rows are ours: the history's order is the order of the updates
        seats = range(len(plan.places))
        after = plan.rate([plan.fixed[s] if s not in plan.people else before[accounts[s]] for s in seats])
        for seat in plan.people:
            new, account = after[seat], accounts[seat]
            db.execute("UPDATE ratings SET mu=?, sigma=?, played=played+1, won=won+? WHERE account_id=?"
                       " AND game=?", (new.mu, new.sigma, int(plan.won[seat]), account, game))
            db.execute("INSERT INTO rating_history (account_id, game, table_id, at, mu, sigma, place)"
                       " VALUES (?,?,?,?,?,?,?)", (account, game, table_id, now, new.mu, new.sigma,
                                                   plan.places[seat]))
        return True

    def seat_ratings(self, table_ids: Sequence[str]) -> dict[str, dict[int, tuple[float, float]]]:
        out: dict[str, dict[int, tuple[float, float]]] = {}
        if not table_ids:
            return out
        with self._run() as db:
            for tid, seat, mu, sigma in db.execute(
                    "SELECT a.table_id, a.seat, r.mu, r.sigma FROM seat_accounts a JOIN tables t ON"
                    " t.id=a.table_id JOIN ratings r ON r.account_id=a.account_id AND r.game=t.game"
                    f" WHERE a.table_id IN ({','.join('?' * len(table_ids))})", tuple(table_ids)).fetchall():
                out.setdefault(tid, {})[int(seat)] = (float(mu), float(sigma))
        return out

    def ratings_of(self, account_id: str) -> list[tuple[str, float, float, int, int]]:
        with self._run() as db:
            return [(r[0], float(r[1]), float(r[2]), int(r[3]), int(r[4])) for r in db.execute(
                "SELECT game, mu, sigma, played, won FROM ratings WHERE account_id=? ORDER BY game",
                (account_id,)).fetchall()]

    def rating_history(self, account_id: str) -> list[tuple[str, str, float, float, float]]:
        with self._run() as db:
            return [(r[0], r[1], float(r[2]), float(r[3]), float(r[4])) for r in db.execute(
                "SELECT game, table_id, at, mu, sigma FROM rating_history WHERE account_id=?"
                " ORDER BY at, table_id", (account_id,)).fetchall()]

    def leaderboard(self, game: str, limit: int) -> list[tuple[str, float, float, int, int]]:
        with self._run() as db:
            return [(r[0], float(r[1]), float(r[2]), int(r[3]), int(r[4])) for r in db.execute(
                "SELECT a.name, r.mu, r.sigma, r.played, r.won FROM ratings r JOIN accounts a ON"
                " a.id=r.account_id WHERE r.game=? ORDER BY r.mu - 3 * r.sigma DESC, a.name LIMIT ?",
                (game, limit)).fetchall()]

    def account_name(self, account_id: str) -> str | None:
        with self._run() as db:
            row = db.execute("SELECT name FROM accounts WHERE id=?", (account_id,)).fetchone()
        return None if row is None else str(row[0])

    def export_accounts(self) -> dict[str, list[tuple[Any, ...]]]:
        with self._run() as db:
            return {name: [tuple(r) for r in db.execute(f"SELECT {cols} FROM {name} ORDER BY 1, 2")
                           .fetchall()] for name, cols in COPIED.items()}

    def import_accounts(self, rows: dict[str, list[tuple[Any, ...]]]) -> int:
        written = 0
        with self._run() as db:
            for name, cols in COPIED.items():  # accounts first: the others refer to them
                marks = ",".join("?" * len(cols.split(",")))
                for row in rows.get(name, []):
                    if name == "seat_accounts" and not db.execute(
                            "SELECT 1 FROM seats WHERE table_id=? AND seat=?", row[:2]).fetchone():
                        continue
                    owner = {"sessions": 1, "seat_accounts": 2, "ratings": 0, "rating_history": 0}.get(name)
                    if owner is not None and not db.execute(
                            "SELECT 1 FROM accounts WHERE id=?", (row[owner],)).fetchone():
                        continue
                    written += db.execute(f"INSERT INTO {name} ({cols}) VALUES ({marks})"
                                          " ON CONFLICT DO NOTHING", row).rowcount
        return written


COPIED = {
    "accounts": "id, name, name_key, password_hash, created",
    "sessions": "digest, account_id, csrf, created, expires",
    "seat_accounts": "table_id, seat, account_id, at",
    "rated_tables": "table_id, game, at",
    "ratings": "account_id, game, mu, sigma, played, won",
    "rating_history": "account_id, game, table_id, at, mu, sigma, place",
}
"""The account tables ``gloom db copy`` carries, in the order they are written."""


class _Runner:
    """A connection whose ``execute`` takes the ``?`` placeholders of this module."""

    def __init__(self, conn: Any, ph: str) -> None:
        self.conn = conn
        self.ph = ph

    def execute(self, query: str, params: tuple[Any, ...] = ()) -> Any:
        return self.conn.execute(query if self.ph == "?" else query.replace("?", self.ph), params)


MIGRATION = (6, "accounts, their sessions and the seats they sit at (issue 31)", [
    """CREATE TABLE IF NOT EXISTS accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL
    )""",
    # digest: SHA-256 of the cookie's value; the cookie itself is never stored
    """CREATE TABLE IF NOT EXISTS sessions (
        digest TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        csrf TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        expires DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account_id)",
    "CREATE INDEX IF NOT EXISTS sessions_expires ON sessions(expires)",
    """CREATE TABLE IF NOT EXISTS seat_accounts (
        table_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, seat)
    )""",
    "CREATE INDEX IF NOT EXISTS seat_accounts_account ON seat_accounts(account_id)",
])
"""The store's migration for accounts (listed in :mod:`gloomtable.server.migrations`)."""


RATINGS_MIGRATION = (7, "ratings per account and game, their history, and which tables were rated", [
    # a finished table is rated once, whichever process ends it
    """CREATE TABLE IF NOT EXISTS rated_tables (
        table_id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS ratings (
        account_id TEXT NOT NULL REFERENCES accounts(id),
        game TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        played INTEGER NOT NULL,
        won INTEGER NOT NULL,
        PRIMARY KEY (account_id, game)
    )""",
    "CREATE INDEX IF NOT EXISTS ratings_game ON ratings(game)",
    """CREATE TABLE IF NOT EXISTS rating_history (
        account_id TEXT NOT NULL REFERENCES accounts(id),
        game TEXT NOT NULL,
        table_id TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        place INTEGER NOT NULL,
        PRIMARY KEY (account_id, table_id)
    )""",
])
"""The store's migration for ratings (after :data:`MIGRATION`)."""
