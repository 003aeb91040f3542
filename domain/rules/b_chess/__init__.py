"""B-Chess, the Field Match of B Nomic (shared/rules/b_chess.txt; rulings BC-1..BC-11).

Modules: config (the torus option BC-1, the Turn of the Field's period BC-2,
the refund option BC-6, the starting macks BC-7), field (squares, adjacency and
every piece's moves, BC-1, BC-8), state (the Field, the Priority List BC-4 and
the seats' macks), orders (the lines of a forum post, BC-11), purchase (BC-6),
resolve (the Turn of the Field, BC-3, BC-9, BC-10), display (the Public
Display), ruleset (Initialize BC-5, a seat joining later BC-5, the referee's
grant of macks BC-7, and `RULESET`).
"""

from domain.rules.b_chess.ruleset import RULESET

__all__ = ["RULESET"]
