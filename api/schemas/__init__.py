"""marshmallow 4 schemas of the API's requests and responses, one module per blueprint.

Request schemas refuse unknown fields (marshmallow's default), so a typo in a
field name is a 422 rather than a silently ignored option. Integers in a body
are strict (a JSON integer: not "1", 1.5 or true) and in a query string written
in digits only; names, orders, configs and movements are held to the limits of
service/limits.py, the same checks the use cases make (the field types that do so
are in api/fields.py, the one place for them). Response schemas dump the service's
dicts and dataclasses as they are. A shape is written once: a shape more than one
module uses lives in `common.py` or in the module of the resource it belongs to,
and the others import it from there.

Each module is named after the blueprint it serves (api/<name>.py):

- `common.py`: the shapes several resources use (outcome, seat, step, head of the log,
  the Idempotency-Key header, the `timeline` parameter, the page cursor's pattern)
- `rulesets.py`: GET /rulesets, a game's config fields, presets, actions and maps
- `matches.py`: create, list, start, extend; a match, a page of matches
- `seats.py`: join, reissue, a seat's result address (also api/referee_address.py)
- `orders.py`: an order, its receipt and closing, the pending orders (also the pages' desk)
- `actions.py`: the referee's actions
- `state.py`: the state, the Public Display, the scores
- `events.py`: the event log and its long poll
- `audit.py`: replay, chain report, verify, archive, audit, seed (docs/integrity.md)
- `movements.py`: a movement's record and the check of a receipt
- `standings.py`, `scoreboard.py`, `protocol.py`, `health.py`: one read each
- `corrections.py`: corrections of orders (issue 19)
- `disputes.py`: disputes and rulings
- `forum.py`: forum play (docs/forum.md)
- `legal.py`: GET /matches/{id}/legal-orders
"""
