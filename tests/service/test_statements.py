"""SQL statements an order sends (issue 46: at most 5 is the target; the count does not
depend on the load, so it is asserted here and printed by bench/bench_order_cpu.py).

An order that does not close its movement, on a DRTS Team 23 match this process keeps
(service/store/matchcache.py), through the Matches application. Counted as
tests/support/statements.py says: every statement psycopg or SQLite runs, BEGIN and
COMMIT included. The figures are today's; a change that sends fewer lowers them here.

- PostgreSQL, 7: the read of the rows after the kept version with the log guard's
  recorded head (service/store/logguard.py: one statement in autocommit, was BEGIN, SELECT,
  ROLLBACK and psycopg's DEALLOCATE ALL after the rollback: 10 in all before issue 46),
  then eventsourcing's pipelined write: BEGIN, SET LOCAL lock_timeout, LOCK TABLE,
  NOTIFY, INSERT, COMMIT.
- SQLite, 4: the same read (was BEGIN, SELECT, ROLLBACK: 6 in all), BEGIN, INSERT,
  COMMIT.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from service.matches import Matches
from service.settings import Settings
from tests.support.statements import Statements, counting_postgres, tracing_sqlite

EXPECTED = {"postgres": 7, "sqlite": 4}


def counter_for(url: str) -> AbstractContextManager[Statements]:
    return tracing_sqlite() if url.startswith("sqlite") else counting_postgres()


def one_order(url: str, statements: Statements, clock: object) -> list[str]:
    """Returns the statements of the second order of a started DRTS Team 23 match."""
    app = Matches(env=Settings(url).event_store_env(), clock=clock)  # type: ignore[arg-type]
    try:
        new = app.create_match("drts_team23", {"close_early": True}, seed="count")
        tokens = [app.join(new.match_id, f"p{seat}").token for seat in range(1, 9)]
        app.start(new.match_id, str(new.referee_token))
        app.read_models.catch_up()
        app.submit_order(new.match_id, tokens[0], "hold")  # the match is now kept
        sent = statements.of(lambda: app.submit_order(new.match_id, tokens[1], "hold"))
        assert app.kept.holds(new.match_id)
        return sent
    finally:
        app.close()


def test_an_order_sends_a_known_number_of_statements(database_url, clock):
    with counter_for(database_url) as statements:
        sent = one_order(database_url, statements, clock)
    backend = "sqlite" if database_url.startswith("sqlite") else "postgres"
    assert len(sent) == EXPECTED[backend], "\n".join(sent)
    assert sum(s.upper().startswith("SELECT") for s in sent) == 1, sent  # one read
    assert sum("INSERT" in s.upper() for s in sent) == 1, sent  # one event written
