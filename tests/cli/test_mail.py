"""`drts match result-address` and `drts match confirm-address`: a seat registers where its answers
by mail go and confirms it with the code mailed there (the maildir outbox, docs/mail.md)."""

from __future__ import annotations

import mailbox
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from service.matches import connect


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


def test_the_referee_address_gets_the_result_of_each_movement_in_the_maildir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`drts match referee-address`, confirmed by a reply; `drts mail send-notices` mails
    the result of a movement once (docs/mail.md), into the maildir without a relay."""
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/cli.sqlite")
    monkeypatch.setenv("DRTS_MAIL_OUTBOX", str(tmp_path / "outbox"))
    runner = CliRunner()
    created = runner.invoke(main, ["match", "create", "dris_et_tessa"]).output.split()
    match_id, referee = created[1], created[-1]
    tokens = [runner.invoke(main, ["match", "join", match_id, n]).output.split()[-1] for n in "ab"]
    registered = runner.invoke(
        main, ["match", "referee-address", match_id, "ref@example.org", "--referee-token", referee]
    )
    [confirmation] = mailbox.Maildir(tmp_path / "outbox")
    code = str(confirmation["Reply-To"]).split("+")[1].split("@")[0]
    service = connect()
    service.mail.confirm(code)  # what replying to the confirmation does (drts mail serve)
    service.close()
    runner.invoke(main, ["match", "start", match_id, "--referee-token", referee])
    ordered = runner.invoke(main, ["match", "order", match_id, "a1", "--token", tokens[0]])

    first = runner.invoke(main, ["mail", "send-notices"])
    again = runner.invoke(main, ["mail", "send-notices"])

    assert registered.exit_code == 0 and ordered.exit_code == 0, registered.output + ordered.output
    assert (first.output, again.output) == (
        "notices: 1 sent, 0 deferred, 0 refused\n",
        "notices: 0 sent, 0 deferred, 0 refused\n",
    )
    subjects = {" ".join(str(m["Subject"]).split()) for m in mailbox.Maildir(tmp_path / "outbox")}
    assert subjects == {
        f"drts: confirm this address for the referee of match {match_id}",
        f"drts: match {match_id} resolved, orders now for movement 2",
    }


def test_the_referee_confirms_its_address_with_the_mailed_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`drts match confirm-referee-address` takes the code mailed to the referee's address
    (as `POST /matches/{id}/referee/result-address/confirm`); a wrong code confirms nothing."""
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/cli.sqlite")
    monkeypatch.setenv("DRTS_MAIL_OUTBOX", str(tmp_path / "outbox"))
    runner = CliRunner()
    created = runner.invoke(main, ["match", "create", "dris_et_tessa"]).output.split()
    match_id, referee = created[1], created[-1]
    runner.invoke(
        main, ["match", "referee-address", match_id, "ref@example.org", "--referee-token", referee]
    )
    [confirmation] = mailbox.Maildir(tmp_path / "outbox")
    code = str(confirmation["Reply-To"]).split("+")[1].split("@")[0]
    confirm = ["match", "confirm-referee-address", match_id]

    wrong = runner.invoke(main, [*confirm, "not-the-code", "--referee-token", referee])
    right = runner.invoke(main, [*confirm, code, "--referee-token", referee])

    assert wrong.exit_code != 0 and "unknown_confirmation_code" in wrong.output
    assert right.exit_code == 0, right.output
    assert right.output == "referee address ref@example.org confirmed\n"
