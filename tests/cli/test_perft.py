"""`drts perft`: the counts depth by depth, from the start or from a position in notation."""

from click.testing import CliRunner

from cli.main import main


def run(*args: str):
    return CliRunner().invoke(main, ["perft", *args])


def test_perft_from_the_start_prints_each_depth():
    result = run("dris_et_tessa", "4")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "perft dris_et_tessa from .../.../.../....../.../.../... 1 9 9"
    assert lines[1:5] == ["depth 1: 24", "depth 2: 552", "depth 3: 12144", "depth 4: 255024"]
    assert lines[5].startswith(f"{24 + 552 + 12144 + 255024} sequences counted in ")


def test_perft_from_a_position_counts_a_removal_as_a_ply_of_its_own():
    """The fallback removal of test_engine.py: 6 removals (DT-4), then seat 2's 33 steps."""
    result = run("dris_et_tessa", "2", "--position", "222/.../.../....../.../111/222 1 0 0 x")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1:3] == ["depth 1: 6", "depth 2: 33"]


def test_a_bad_position_or_a_game_without_perft_is_refused_saying_why():
    bad = run("dris_et_tessa", "2", "-p", "111/.../.../....../.../.../... 1 7 9")
    assert bad.exit_code == 2 and "seat 1 owns 10 pieces" in bad.output
    other = run("district_war", "2")
    assert other.exit_code == 2
    assert "no perft for 'district_war' (games with perft: dris_et_tessa)" in other.output
