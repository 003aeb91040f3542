"""The stateful fuzz of the HTTP API (issue 41): for every version of every game, seats
and the referee send random valid and invalid commands in random order through the
Flask app, on a hand-driven clock, and the invariants are checked after every step.

- games.py: the fuzzed games (every registered ruleset version, Shades' contest preset
  too), each with the short configs and seat counts its matches are made with;
- api.py: the checked client: every answer is a success or the one error shape with a
  4xx, and no answer shows a sealed order to anyone but its seat and the referee;
- machine.py: the state machine (its rules and invariants);
- test_stateful_fuzz.py: one test per game and store, its settings read from
  DRTS_FUZZ_EXAMPLES and DRTS_FUZZ_STEPS (docs/contributing.md, "The stateful fuzz").
"""
