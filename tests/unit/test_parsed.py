"""A value derived from an object that never changes is made once while the object lives
(domain/memo.py: the parsed forms of a match's JSON, issue 30; a state's outcome, issue 46)."""

from __future__ import annotations

from domain.memo import IdentityMemo


class Maker:
    def __init__(self) -> None:
        self.calls = 0

    def make(self) -> object:
        self.calls += 1
        return object()


def test_the_same_source_and_maker_give_the_value_made_once():
    memo, maker, source = IdentityMemo(4), Maker(), {"state": 1}
    first = memo.get(source, maker, maker.make)
    assert memo.get(source, maker, maker.make) is first
    assert maker.calls == 1


def test_an_equal_but_other_source_or_another_maker_is_made_again():
    memo, maker, other_maker = IdentityMemo(4), Maker(), Maker()
    memo.get({"state": 1}, maker, maker.make)
    memo.get({"state": 1}, maker, maker.make)  # equal, not the same object
    memo.get({"state": 1}, other_maker, other_maker.make)
    assert (maker.calls, other_maker.calls) == (2, 1)


def test_the_oldest_made_is_forgotten_past_the_size():
    memo, maker = IdentityMemo(2), Maker()
    a, b, c = {"a": 1}, {"b": 1}, {"c": 1}
    for source in (a, b, c):  # a goes when c comes
        memo.get(source, maker, maker.make)
    memo.get(c, maker, maker.make)
    memo.get(b, maker, maker.make)
    assert maker.calls == 3
    memo.get(a, maker, maker.make)
    assert maker.calls == 4


def test_a_value_kept_for_a_source_is_what_get_returns_without_making():
    memo, maker, source, value = IdentityMemo(4), Maker(), {"state": 1}, object()
    memo.keep(source, maker, value)
    assert memo.get(source, maker, maker.make) is value
    assert maker.calls == 0
