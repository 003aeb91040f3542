"""SQL statements an order sends (issue 46: at most 5 is the target; the count does not
depend on the load, so it is asserted here and printed by bench/bench_order_cpu.py).

An order that does not close its movement, on a DRTS Team 23 match this process keeps
(service/store/matchcache.py), through the Matches application. Counted as
tests/support/statements.py says: every statement psycopg or SQLite runs, BEGIN and
COMMIT included. The figures are today's; a change that sends fewer lowers them here.

- PostgreSQL, 2: the read of the rows after the kept version with the log guard's
  recorded head (service/store/logguard.py: one statement in autocommit, was BEGIN, SELECT,
  ROLLBACK and psycopg's DEALLOCATE ALL after the rollback: 10 in all before issue 46),
  then the write: one call of `drts_insert_events` in autocommit (service/store/eventwrite.py,
  migration 0017), which takes the table lock, NOTIFYs and INSERTs in its own
  transaction (was eventsourcing's pipelined BEGIN, SET LOCAL lock_timeout, LOCK TABLE,
  NOTIFY, INSERT, COMMIT: 7 in all).
- SQLite, 4: the same read (was BEGIN, SELECT, ROLLBACK: 6 in all), BEGIN, INSERT,
  COMMIT.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from service.matches import Matches
from service.settings import Settings
from tests.support.statements import Statements, counting_postgres, tracing_sqlite

EXPECTED = {"postgres": 2, "sqlite": 4}


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
    writes = [s for s in sent if "INSERT" in s.upper()]
    assert len(writes) == 1, sent  # one event written (on PostgreSQL, the function's call)
    reads = [s for s in sent if s.upper().startswith("SELECT") and s not in writes]
    assert len(reads) == 1, sent  # one read


def test_a_catch_up_moves_a_match_head_once_a_batch(database_url, clock):
    """Issue 46: the match list writes a match's head once a caught-up batch, with its last
    event (was one UPDATE an event), and the head it records is that event's."""
    with counter_for(database_url) as statements:
        app = Matches(env=Settings(database_url).event_store_env(), clock=clock)
        try:
            new = app.create_match("drts_team23", {"close_early": True}, seed="heads")
            tokens = [app.join(new.match_id, f"p{seat}").token for seat in range(1, 9)]
            app.start(new.match_id, str(new.referee_token))
            app.read_models.catch_up()
            for token in tokens[:5]:
                app.submit_order(new.match_id, token, "hold")
            sent = statements.of(lambda: app.read_models.catch_up(["match_list"]))
            rows = app.read_models.view("match_list").query(
                "SELECT head_version, head_chain FROM {match_list} WHERE match_id = :m",
                {"m": new.match_id},
            )
            last = list(app.events.get(new.match_id))[-1]
        finally:
            app.close()
    heads = [s for s in sent if "head_version" in s and s.upper().startswith("UPDATE")]
    assert len(heads) == 1, sent
    assert rows == [{"head_version": last.originator_version, "head_chain": last.chain}]
