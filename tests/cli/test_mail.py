"""`drts match result-address` and `drts match confirm-address`: a seat registers where its answers
by mail go and confirms it with the code mailed there (the maildir outbox, docs/mail.md)."""

from __future__ import annotations

import mailbox
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main


def test_a_seat_registers_and_confirms_its_result_address_from_the_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/cli.sqlite")
    monkeypatch.setenv("DRTS_MAIL_OUTBOX", str(tmp_path / "outbox"))
    runner = CliRunner()
    created = runner.invoke(main, ["match", "create", "district_war"]).output
    match_id = created.split()[1]
    joined = runner.invoke(main, ["match", "join", match_id, "alice"]).output.split()
    assert joined[:2] == ["order", "address"] and joined[2].startswith("orders+")
    token = joined[-1]

    registered = runner.invoke(
        main, ["match", "result-address", match_id, "alice@example.org", "--token", token]
    )
    [confirmation] = mailbox.Maildir(tmp_path / "outbox")
    code = str(confirmation["Reply-To"]).split("+")[1].split("@")[0]
    wrong = runner.invoke(main, ["match", "confirm-address", match_id, "x" * 32, "--token", token])
    right = runner.invoke(main, ["match", "confirm-address", match_id, code, "--token", token])

    assert registered.exit_code == 0, registered.output
    assert wrong.exit_code == 1
    assert "unknown_confirmation_code" in wrong.output
    assert right.output == "result address alice@example.org confirmed\n"
