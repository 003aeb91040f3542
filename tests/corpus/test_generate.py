"""The corpus generator refuses to overwrite a corpus file (tests/corpus/README.md): a
frozen set is generated once, and a run aimed at a folder holding one writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.corpus import generate
from tests.corpus.store import CORPUS


@pytest.mark.parametrize("name", ["expected.json", "postgres.sql", "matches.sqlite-wal"])
def test_the_generator_refuses_a_folder_holding_a_corpus_file(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text("kept")
    with pytest.raises(SystemExit, match="refusing to overwrite a frozen corpus"):
        generate.main(["--out", str(tmp_path)])
    assert [p.name for p in tmp_path.iterdir()] == [name]
    assert (tmp_path / name).read_text() == "kept"


def test_the_generator_refuses_the_frozen_corpus_itself() -> None:
    before = {p.name: p.stat().st_mtime_ns for p in CORPUS.iterdir() if p.is_file()}
    with pytest.raises(SystemExit, match="refusing to overwrite"):
        generate.main([])
    assert {p.name: p.stat().st_mtime_ns for p in CORPUS.iterdir() if p.is_file()} == before


def test_the_generator_refuses_the_set_2026_12() -> None:
    folder = CORPUS / "2026-12"
    before = {p.name: p.stat().st_mtime_ns for p in folder.iterdir() if p.is_file()}
    with pytest.raises(SystemExit, match="refusing to overwrite"):
        generate.main(["--set", "2026-12"])
    assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir() if p.is_file()} == before
