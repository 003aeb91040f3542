"""The Tournaments facade (issue 45), beside Matches: creating a tournament, registering
and withdrawing players (proven by their keys), pausing, the running steps
(service/tournaments/running.py), standings, seat tokens, the audit and the export.

A tournament is an aggregate saved in the same event store as the matches and players,
through the store's `save`; every write is optimistic: a step that loses a race to
another writer of the same tournament is dropped and decided again from the store."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import get_topic

from domain.errors import DrtsError, InvalidTokenError
from domain.integrity import commitment
from domain.tournament import Tournament
from domain.tournament.chain import public_item
from service import limits
from service.errors import ConcurrentWriteError, MissingTokenError
from service.maps import expand_map
from service.pairing import PAIRING_VERSIONS, standings_of
from service.pairing.tiebreaks import Standing
from service.results import Document
from service.tournaments import export, running
from service.tournaments.audit import Verification, verify
from service.tournaments.cache import cache_of, replayed

if TYPE_CHECKING:
    from service.matches import Matches

logger = logging.getLogger(__name__)
MAX_ATTEMPTS = 8
CREATED_TOPIC = get_topic(Tournament.Created)
LINKED_TOPIC = get_topic(Tournament.MatchLinked)
# the worker's task that advances one tournament; the service sends tasks by name and
# never imports workers/ (service/scheduling.py)
ADVANCE_TOURNAMENT = "workers.advance_tournament"
MAX_STEPS = 1000  # a tournament of 100 rounds of 50 tables takes far fewer per advance


class TournamentNotFoundError(DrtsError, LookupError):
    """Raised when no tournament has the given id."""

    code = "tournament_not_found"


class NoTournamentMatchError(DrtsError, LookupError):
    """Raised when a player has no match in the tournament yet (or never had one)."""

    code = "no_tournament_match"


class NotOrganiserError(InvalidTokenError):
    """Raised when a token is not the tournament organiser's (nor the operator's)."""

    code = "not_organiser"


@dataclass(frozen=True)
class NewTournament:
    """A tournament just created: its id and the organiser's token (shown once)."""

    tournament_id: UUID
    organiser_token: str


class Tournaments:
    """Creates and runs tournaments on the store of matches (a Matches application)."""

    def __init__(self, matches: Matches) -> None:
        self.matches, self.store = matches, matches.store

    def create(
        self,
        name: str,
        format: str,
        ruleset: str,
        config: Mapping[str, Any] | None = None,
        preset: str | None = None,
        version: int | None = None,
        rounds: int | None = None,
        tie_breaks: Sequence[str] | None = None,
        rated: bool = True,
        options: Mapping[str, Any] | None = None,
    ) -> NewTournament:
        """Creates a tournament (its seed drawn with `secrets` and committed), a map named by
        the config expanded to its content as for a match; returns its id and the
        organiser's token. Raises what `Tournament.create` raises."""
        token = secrets.token_urlsafe(32)
        tournament = Tournament.create(
            uuid4(),
            name,
            format,
            ruleset,
            expand_map(ruleset, config),  # a map named by the config becomes its content (SH-2)
            secrets.token_hex(32),
            commitment(token),
            PAIRING_VERSIONS.get(format, 1),
            self.store.clock(),
            rounds,
            tie_breaks,
            rated,
            options,
            preset,
            version,
        )
        self.store.save(tournament)
        return NewTournament(tournament.id, token)

    def get(self, tournament_id: UUID | str) -> Tournament:
        """Returns the tournament; raises TournamentNotFoundError."""
        try:
            ident = UUID(str(tournament_id))
            found: object = cache_of(self.store, LINKED_TOPIC).get(self.store, ident)
        except (ValueError, KeyError, LookupError):
            found = None  # a malformed id
        if not isinstance(found, Tournament):
            raise TournamentNotFoundError(f"no tournament with id {str(tournament_id)!r}")
        return found

    def register(self, tournament_id: UUID | str, player: str, player_key: str | None) -> str:
        """Registers the player (id or name) proven by its key; returns its id."""
        ident = str(self.matches.players.authenticate(player, player_key).id)
        self._write(tournament_id, lambda t: t.register(ident, self.store.clock()))
        return ident

    def withdraw(
        self, tournament_id: UUID | str, player: str, token: str | None, reason: str = ""
    ) -> str:
        """Withdraws a player: `token` is the player's key, or the organiser's (or the
        operator's) token. Returns the player's id. Raises TournamentNotFoundError,
        PlayerNotFoundError, MissingTokenError, NotOrganiserError, LimitError (the reason),
        and what `Tournament.withdraw` raises (finished, not registered, withdrawn)."""
        limits.check_reason(reason or None)  # none given: recorded as ""
        self.get(tournament_id)  # an unknown tournament is named before the player
        found = self.matches.players.get(player)
        ident = str(found.id)
        if token is None:
            raise MissingTokenError("withdrawing needs the player's key or the organiser's token")
        if commitment(token) != found.key_hash:
            self._check_organiser(self.get(tournament_id), token)
        self._write(tournament_id, lambda t: t.withdraw(ident, reason, self.store.clock()))
        return ident

    def pause(self, tournament_id: UUID | str, token: str | None, reason: str = "") -> None:
        """Pauses the pairing of rounds (organiser's or operator's token). Raises
        TournamentPausedError when paused already, TournamentFinishedError once finished."""
        limits.check_reason(reason or None)  # none given: recorded as ""
        self._check_organiser(self.get(tournament_id), token)
        self._write(tournament_id, lambda t: t.pause(reason, self.store.clock()))

    def resume(self, tournament_id: UUID | str, token: str | None) -> None:
        """Resumes a paused tournament (organiser's or operator's token). Raises
        TournamentNotPausedError when running, TournamentFinishedError once finished."""
        self._check_organiser(self.get(tournament_id), token)
        self._write(tournament_id, lambda t: t.resume(self.store.clock()))

    def advance(self, tournament_id: UUID | str) -> list[str]:
        """Takes every step due (results, matches, rounds, the finish): idempotent, safe to
        call any number of times from any number of processes; returns the steps taken."""
        taken: list[str] = []
        for _ in range(MAX_STEPS):
            step = self._write(tournament_id, self._step)
            if step is None:
                return taken
            taken.append(step)
        return taken

    pair_next_round = advance  # the CLI's `pair`: the same step by hand

    def pair(self, tournament_id: UUID | str, token: str | None) -> list[str]:
        """The organiser's `pair` over HTTP (organiser's or operator's token): `advance`,
        refused with TournamentFinishedError once the tournament has finished (the
        workers, or `drts tournament pair`, still record a later correction's result)."""
        tournament = self.get(tournament_id)
        self._check_organiser(tournament, token)
        tournament.check_running()
        return self.advance(tournament.id)

    def record_results(self, tournament_id: UUID | str) -> list[str]:
        """Records the result of every linked match that has finished (or was corrected);
        returns the steps taken."""
        taken: list[str] = []
        while (step := self._write(tournament_id, self._result_step)) is not None:
            taken.append(step)
        return taken

    def advance_all(self) -> dict[str, list[str]]:
        """Advances every tournament not finished (the sweep's backstop); returns the
        steps taken by tournament. A tournament that refuses its step (a Swiss whose
        field is too small) is logged and the others go on."""
        taken: dict[str, list[str]] = {}
        for ident in self.unfinished():
            try:
                steps = self.advance(ident)
            except DrtsError as error:
                logger.error("tournament %s cannot advance: %s: %s", ident, error.code, error)
                continue
            if steps:
                taken[str(ident)] = steps
        return taken

    def unfinished(self) -> list[UUID]:
        """Returns the ids of the tournaments that have not revealed their seed yet."""
        return [t for t in self.ids() if not self.get(t).seed_revealed]

    def ids(self) -> list[UUID]:
        """Returns the ids of every tournament, in the order they were created."""
        return [note.originator_id for note in _notifications(self.store, CREATED_TOPIC)]

    def tournament_of(self, match_id: UUID | str) -> UUID | None:
        """Returns the id of the tournament a match is linked to, or None (a match of no
        tournament). Reads the store's log of links past the last one this process saw."""
        return cache_of(self.store, LINKED_TOPIC).tournament_of(self.store, str(match_id))

    def standings(self, tournament_id: UUID | str) -> list[Standing]:
        """Returns the standing now (the final one once finished), from the results."""
        tournament = self.get(tournament_id)
        history = running.history_of(tournament, self.items(tournament.id))
        return standings_of(tournament.format, history, tournament.tie_breaks, tournament.options)

    def seat_token(
        self, tournament_id: UUID | str, player: str, player_key: str | None
    ) -> dict[str, Any]:
        """Gives the player (proven by its key) a new token for its seat in its latest
        tournament match; returns the match id, seat and token (the old token stops)."""
        found = self.matches.players.authenticate(player, player_key)
        tournament, ident = self.get(tournament_id), str(found.id)
        for record in reversed(tournament.rounds):
            for table, links in enumerate(record["links"], 1):
                if links and ident in record["tables"][table - 1]:
                    return self._reissue(links[-1], ident)
        raise NoTournamentMatchError(
            f"player {found.name!r} has no match in tournament {tournament.id} yet"
        )

    def items(self, tournament_id: UUID) -> list[dict[str, Any]]:
        """Returns the tournament's events in their public form, as stored."""
        return [public_item(event) for event in self.store.events.get(tournament_id)]

    def verify(self, tournament_id: UUID | str) -> Verification:
        """Audits the tournament (service/tournaments/audit.py) from its events as stored
        now, never through the process's cache."""
        ident = self.get(tournament_id).id
        stored = list(self.store.events.get(ident))
        return verify(self.matches, replayed(None, stored), stored)

    def export_archive(self, tournament_id: UUID | str) -> Document:
        """Returns the tournament's archive (service/tournaments/export.py): its events and
        each finished linked match's public archive; to anyone, nothing recorded."""
        tournament = self.get(tournament_id)
        stored = list(self.store.events.get(tournament.id))
        return export.document(self.matches, tournament, stored, self.store.clock())

    # -- private ----------------------------------------------------------------------------

    def _step(self, tournament: Tournament) -> str | None:
        return running.next_step(self.matches, tournament, self.items(tournament.id), self._name)

    def _result_step(self, tournament: Tournament) -> str | None:
        for record in tournament.rounds:
            for links in record["links"]:
                for match_id in links:
                    if running.record_result(self.matches, tournament, match_id):
                        return f"result of match {match_id} recorded"
        return None

    def _name(self, player_id: str) -> str:
        return str(self.matches.players.get(player_id).name)

    def _write(self, tournament_id: UUID | str, command: Callable[[Tournament], Any]) -> Any:
        """Loads the tournament, runs the command, saves; on a lost race decides again."""
        for _ in range(MAX_ATTEMPTS):
            tournament = self.get(tournament_id)
            result = command(tournament)
            if not tournament.pending_events:
                return result
            try:
                self.store.save(tournament)
            except IntegrityError:
                continue
            return result
        raise ConcurrentWriteError(f"tournament {tournament_id} kept changing")

    def _check_organiser(self, tournament: Tournament, token: str | None) -> None:
        if token is None:
            raise MissingTokenError("this needs the organiser's token")
        if commitment(token) != tournament.organiser_token_hash and not (
            self.store.tokens.is_operator(token)
        ):
            raise NotOrganiserError(
                f"the token is not the organiser's of tournament {tournament.id}"
            )

    def _reissue(self, match_id: str, player_id: str) -> dict[str, Any]:
        token = secrets.token_urlsafe(32)
        for _ in range(MAX_ATTEMPTS):
            match = self.store.get_match(match_id)
            seat = next(s.number for s in match.seats if s.player_id == player_id)
            match.reissue_seat_token(
                match.referee_token_hash,
                seat,
                commitment(token),
                self.store.clock(),
                "the tournament gave the player a token",
            )
            try:
                self.store.save(match)
            except IntegrityError:
                continue
            return {"match_id": match_id, "seat": seat, "token": token}
        raise ConcurrentWriteError(f"match {match_id} kept changing")


def _notifications(store: Any, topic: str) -> list[Any]:
    """Returns the store's notifications of `topic`, in the log's order."""
    found, start = [], 1
    while notes := store.recorder.select_notifications(start=start, limit=500, topics=[topic]):
        found.extend(notes)
        start = notes[-1].id + 1
    return found
