"""Reading a message as an order's text (service/channels/mail/reading.py, docs/mail.md)."""

from __future__ import annotations

import pytest

from service.channels.mail.reading import UnreadableMailError, order_text, read


def test_quotes_their_attribution_the_signature_and_blank_lines_go() -> None:
    body = (
        "\n  A PAR - BUR \n\nF BRE H\nOn Monday, drts wrote:\n\n> A MAR S\n>\n"
        "Thanks: see you\n--\nAlice\nA BUR - MUN\n"
    )
    assert order_text(body) == "A PAR - BUR\nF BRE H\nThanks: see you"


def raw(headers: str, body: bytes) -> bytes:
    return headers.replace("\n", "\r\n").encode() + b"\r\n" + body


def test_a_message_without_message_id_is_known_by_its_content() -> None:
    message = raw("From: a@example.org\nSubject: Re: Movement 12 result\n", b"hold\r\n")

    letter = read(message)

    assert (
        letter.message_id.startswith("<sha256-") and letter.message_id == read(message).message_id
    )
    assert (letter.movement, letter.text) == (12, "hold")


def test_a_charset_nobody_knows_cannot_be_read() -> None:
    message = raw("Content-Type: text/plain; charset=x-martian\n", b"hold\r\n")
    with pytest.raises(UnreadableMailError, match="unknown charset 'x-martian'"):
        read(message)


def test_windows_1252_and_quoted_printable_are_decoded_as_declared() -> None:
    message = raw(
        "Content-Type: text/plain; charset=windows-1252\n"
        "Content-Transfer-Encoding: quoted-printable\n",
        b"A PAR =96 BUR caf=E9\r\n",
    )
    assert read(message).text == "A PAR \u2013 BUR caf\u00e9"
