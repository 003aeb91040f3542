"""The pure core of drts: rulesets, the pure referee table and the Match aggregate.

Nothing in this package reads the clock, global randomness or does I/O
(the Match aggregate receives times from its caller).
"""
