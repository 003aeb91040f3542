"""DRTS_DATABASE_URL, read in one place, chooses the event store."""

from __future__ import annotations

import pytest

from service.channels.mail.outbox import outbox_for, relay_parts
from service.settings import SettingsError, load_settings


def test_unset_means_an_sqlite_file_in_the_working_directory():
    env = load_settings({}).event_store_env()
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite"
    assert env["SQLITE_DBNAME"] == "drts.sqlite"


def test_sqlite_urls_name_relative_or_absolute_files():
    relative = load_settings({"DRTS_DATABASE_URL": "sqlite:///var/m.sqlite"})
    absolute = load_settings({"DRTS_DATABASE_URL": "sqlite:////srv/drts/m.sqlite"})
    assert relative.event_store_env()["SQLITE_DBNAME"] == "var/m.sqlite"
    assert absolute.event_store_env()["SQLITE_DBNAME"] == "/srv/drts/m.sqlite"


def test_a_postgresql_url_becomes_eventsourcing_postgres_settings():
    url = "postgresql://drts:s%40cret@db.example:6543/matches?schema=prod"
    env = load_settings({"DRTS_DATABASE_URL": url}).event_store_env()
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.postgres"
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"], env["POSTGRES_DBNAME"]) == (
        "db.example",
        "6543",
        "matches",
    )
    assert (env["POSTGRES_USER"], env["POSTGRES_PASSWORD"]) == ("drts", "s@cret")
    assert env["POSTGRES_SCHEMA"] == "prod" and int(env["POSTGRES_LOCK_TIMEOUT"]) > 0
    assert env["COMPRESSOR_TOPIC"].endswith("ZlibCompressor")


def test_an_unknown_scheme_is_refused_by_name():
    with pytest.raises(SettingsError, match="'mysql://x/y'"):
        load_settings({"DRTS_DATABASE_URL": "mysql://x/y"}).event_store_env()


def test_the_operator_token_and_the_body_cap_come_from_the_environment():
    settings = load_settings({"DRTS_OPERATOR_TOKEN": " op-secret ", "DRTS_MAX_BODY_BYTES": "1024"})
    assert settings.operator_token == "op-secret" and settings.max_body_bytes == 1024
    defaults = load_settings({})
    assert defaults.operator_token is None and defaults.max_body_bytes == 64 * 1024


def test_a_body_cap_that_is_not_a_positive_number_is_refused_by_name():
    with pytest.raises(SettingsError, match="DRTS_MAX_BODY_BYTES='64k'"):
        load_settings({"DRTS_MAX_BODY_BYTES": "64k"})


def test_the_mail_settings_have_defaults_and_refuse_what_cannot_work() -> None:
    defaults = load_settings({})
    assert (defaults.mail_domain, defaults.mail_port, defaults.smtp_url) == (
        "drts.localhost",
        2525,
        "",
    )
    given = load_settings({"DRTS_MAIL_DOMAIN": "Mail.Example.ORG", "DRTS_MAIL_PORT": "2626"})
    assert (given.mail_domain, given.mail_port) == ("mail.example.org", 2626)
    for name, value, said in (
        ("DRTS_MAIL_DOMAIN", "not a domain", "give a domain name"),
        ("DRTS_MAIL_PORT", "70000", "give a port number"),
        ("DRTS_MAIL_MAX_BYTES", "0", "give a positive number of bytes"),
    ):
        with pytest.raises(SettingsError, match=said):
            load_settings({name: value})


def test_a_relay_url_is_read_or_refused_at_start() -> None:
    assert relay_parts("smtp+starttls://me:p%40ss@relay.example.org") == (
        "starttls",
        "relay.example.org",
        587,
        "me",
        "p@ss",
    )
    assert relay_parts("smtp://127.0.0.1:2500")[:3] == ("plain", "127.0.0.1", 2500)
    with pytest.raises(SettingsError, match="DRTS_SMTP_URL"):
        outbox_for(load_settings({"DRTS_SMTP_URL": "http://relay.example.org"}))


def test_the_pages_session_settings_default_to_a_drawn_key_and_twelve_hours():
    default = load_settings({})
    assert (default.session_secret, default.session_hours) == (None, 12)
    given = load_settings({"DRTS_SESSION_SECRET": " k3y ", "DRTS_SESSION_HOURS": "2"})
    assert (given.session_secret, given.session_hours) == ("k3y", 2)
    with pytest.raises(SettingsError, match="DRTS_SESSION_HOURS=0"):
        load_settings({"DRTS_SESSION_HOURS": "0"})


def test_the_cache_sizes_go_to_the_application():
    env = load_settings(
        {"DRTS_MATCH_CACHE_SIZE": "5", "DRTS_PAST_CACHE_SIZE": "0"}
    ).event_store_env()
    assert (env["DRTS_MATCH_CACHE_SIZE"], env["DRTS_PAST_CACHE_SIZE"]) == ("5", "0")
    defaults = load_settings({}).event_store_env()
    assert (defaults["DRTS_MATCH_CACHE_SIZE"], defaults["DRTS_PAST_CACHE_SIZE"]) == ("1000", "500")
    with pytest.raises(SettingsError, match="DRTS_MATCH_CACHE_SIZE"):
        load_settings({"DRTS_MATCH_CACHE_SIZE": "-1"})
