"""The replay scrubber's positions (api/pages/positions.py)."""

from api.pages.positions import scrubber


def test_a_phase_steps_within_its_movement():
    at = scrubber((1, 2, 3), 2, 1, 4, 3)
    assert (at.previous, at.next) == ((2, 0), (2, 2))
    assert (at.previous_movement, at.next_movement) == ((1, 0), (3, 0))


def test_the_start_of_a_movement_steps_back_to_the_end_of_the_one_before():
    assert scrubber((1, 2, 3), 2, 0, 4, 3).previous == (1, 3)


def test_the_end_of_a_movement_steps_on_to_the_start_of_the_next():
    assert scrubber((1, 2, 3), 2, 4, 4, 3).next == (3, 0)


def test_the_ends_of_the_replay_lead_nowhere():
    first, last = scrubber((5, 6), 5, 0, 2, 0), scrubber((5, 6), 6, 2, 2, 2)
    assert first.previous is None and first.previous_movement is None
    assert last.next is None and last.next_movement is None
