"""The Tournament's commands and guards: creating, registering and withdrawing players,
recording a round's pairing, linking matches, recording results, completing rounds,
pausing, finishing and revealing the seed. Each command checks, then records one event;
a `check_...` method raises the domain's error naming what is wrong."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Self
from uuid import UUID

from domain.integrity import chain_link, commitment, genesis, normalized
from domain.rules.registry import get_ruleset
from domain.tournament.base import FORMATS, MAX_REPLAYS, TournamentBase
from domain.tournament.errors import (
    AlreadyRegisteredError,
    InvalidLinkError,
    InvalidPairingError,
    InvalidResultError,
    InvalidTournamentError,
    RegistrationClosedError,
    RoundNotCompleteError,
    SeedRevealError,
    TournamentFinishedError,
    TournamentNotPausedError,
    TournamentPausedError,
    UnknownPlayerError,
    UnknownTableError,
)
from domain.tournament.options import configured, format_options, tie_break_order

MAX_ROUNDS = 100


class TournamentCommands(TournamentBase):
    """The commands of a tournament, from its creation to its seed's reveal."""

    @classmethod
    def create(
        cls,
        tournament_id: UUID,
        name: str,
        format: str,
        ruleset_name: str,
        config: Mapping[str, Any],
        seed: str,
        organiser_token_hash: str,
        pairing_version: int,
        at: datetime,
        rounds: int | None = None,
        tie_breaks: Sequence[str] | None = None,
        rated: bool = True,
        options: Mapping[str, Any] | None = None,
        preset: str | None = None,
        version: int | None = None,
    ) -> Self:
        """Returns a new tournament (Created pending) under `version` of the ruleset (the
        latest for None), its config expanded from `preset` and validated, the format's
        tie-break order (its default for None) and options (domain/tournament/options.py).

        Raises InvalidTournamentError for a bad name, format, rounds, tie-break order,
        option or pairing version; InvalidConfigError for a bad config or preset;
        UnknownRulesetError for a ruleset (version) that is not installed.
        """
        if not name.strip():
            raise InvalidTournamentError("a tournament needs a name, got an empty one")
        if format not in FORMATS:
            raise InvalidTournamentError(f"unknown format {format!r}: one of {', '.join(FORMATS)}")
        if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
            raise InvalidTournamentError(f"rounds must be 1 to {MAX_ROUNDS}, got {rounds}")
        if pairing_version < 1:
            raise InvalidTournamentError(
                f"pairing version must be 1 or more, got {pairing_version}"
            )
        ruleset = get_ruleset(ruleset_name, version)
        data: dict[str, Any] = {
            "name": name,
            "format": format,
            "ruleset": ruleset.info.name,
            "ruleset_version": ruleset.info.version,
            "config": normalized(configured(ruleset_name, version, config, preset)),
            "preset": preset,
            "rounds": rounds,
            "tie_breaks": tie_break_order(format, tie_breaks),
            "rated": rated,
            "options": format_options(format, ruleset.info, options or {}),
            "seed_commitment": commitment(seed),
            "pairing_version": pairing_version,
            "organiser_token_hash": organiser_token_hash,
        }
        data = {key: normalized(value) for key, value in data.items()}
        chain = chain_link(genesis(tournament_id), "Created", 1, at, data)
        return cls._create(
            cls.Created, id=tournament_id, timestamp=at, sealed={"seed": seed}, chain=chain, **data
        )

    def register(self, player_id: str, at: datetime) -> None:
        """Registers a player. Raises RegistrationClosedError once round 1 is paired or the
        tournament is over; AlreadyRegisteredError for a player registered already."""
        if self.finished or self.rounds:
            raise RegistrationClosedError(
                f"tournament {self.id} takes no registration: "
                + ("it has finished" if self.finished else "round 1 is paired")
            )
        if not player_id.strip():
            raise UnknownPlayerError("a player id is needed to register, got an empty one")
        if player_id in self.players:
            raise AlreadyRegisteredError(f"player {player_id} is registered already")
        self._record(self.PlayerRegistered, at, player_id=player_id)

    def withdraw(self, player_id: str, reason: str, at: datetime) -> None:
        """Withdraws a player from the rounds still to pair. Raises TournamentFinishedError
        once finished; UnknownPlayerError for a player not registered or withdrawn."""
        self.check_running()
        self.check_active(player_id)
        self._record(
            self.PlayerWithdrawn,
            at,
            player_id=player_id,
            after_round=len(self.rounds),
            reason=reason,
        )

    def pair_round(
        self, number: int, tables: Sequence[Sequence[str]], byes: Sequence[str], at: datetime
    ) -> None:
        """Records round `number`'s pairing (computed by service/pairing/ under this
        tournament's pairing version). Raises TournamentFinishedError, TournamentPausedError,
        InvalidPairingError (see `check_pairing`)."""
        self.check_running()
        if self.paused is not None:
            raise TournamentPausedError(f"tournament {self.id} is paused: resume it to pair")
        self.check_pairing(number, tables, byes)
        self._record(
            self.RoundPaired,
            at,
            round=number,
            tables=[list(table) for table in tables],
            byes=list(byes),
            pairing_version=self.pairing_version,
        )

    def link_match(self, number: int, table: int, match_id: UUID | str, at: datetime) -> int:
        """Links a match to a table of a round; returns its attempt (1, or 2 and on for the
        replay of a drawn elimination match). Raises UnknownTableError, InvalidLinkError."""
        self.check_running()
        links = self.table_links(number, table)
        match_id = str(match_id)
        if self.is_linked(match_id):
            raise InvalidLinkError(f"match {match_id} is linked already")
        if self.rounds[number - 1]["completed"]:
            raise InvalidLinkError(f"round {number} is complete: no match may be linked to it")
        if links:
            self.check_replay(number, table, links)
        attempt = len(links) + 1  # before the event: `links` is the aggregate's own list
        self._record(
            self.MatchLinked, at, round=number, table=table, match_id=match_id, attempt=attempt
        )
        return attempt

    def record_result(
        self,
        match_id: UUID | str,
        head: Mapping[str, Any],
        placements: Mapping[str, int],
        points: Mapping[str, int],
        scores: Mapping[str, int],
        timeline: int,
        at: datetime,
    ) -> None:
        """Records a linked match's result as of its head on `timeline`. Raises
        InvalidResultError for a match not linked, players other than its table's, or a
        timeline not later than the one recorded (a result changes only by its match's
        own correction)."""
        match_id = str(match_id)
        number, table = self.table_of(match_id)
        players = set(self.rounds[number - 1]["tables"][table - 1])
        for label, values in (("placements", placements), ("points", points), ("scores", scores)):
            if set(values) != players:
                raise InvalidResultError(
                    f"the {label} of match {match_id} name {sorted(values)}, "
                    f"its table seats {sorted(players)}"
                )
        earlier = self.results.get(match_id)
        if earlier is not None and timeline <= earlier["timeline"]:
            raise InvalidResultError(
                f"match {match_id} has its result on timeline {earlier['timeline']}: a new "
                f"one needs a later timeline (a correction), got {timeline}"
            )
        self._record(
            self.ResultRecorded,
            at,
            round=number,
            table=table,
            match_id=match_id,
            head={"version": head["version"], "chain": head["chain"]},
            placements=dict(placements),
            points=dict(points),
            scores=dict(scores),
            timeline=timeline,
        )

    def complete_round(
        self, number: int, advancing: Sequence[Mapping[str, Any]], at: datetime
    ) -> None:
        """Completes round `number` (who advances, for elimination). Raises
        UnknownTableError for a round not paired, RoundNotCompleteError for one complete
        already or a table whose latest match lacks its result."""
        self.check_running()
        record = self._round(number)
        if record["completed"]:
            raise RoundNotCompleteError(f"round {number} is complete already")
        for table in range(1, len(record["tables"]) + 1):
            links = record["links"][table - 1]
            if not links or links[-1] not in self.results:
                raise RoundNotCompleteError(
                    f"table {table} of round {number} has no result for its latest match yet"
                )
        self._record(self.RoundCompleted, at, round=number, advancing=[dict(a) for a in advancing])

    def pause(self, reason: str, at: datetime) -> None:
        """Pauses the pairing of rounds. Raises TournamentPausedError when paused already."""
        self.check_running()
        if self.paused is not None:
            raise TournamentPausedError(f"tournament {self.id} is paused already")
        self._record(self.Paused, at, reason=reason)

    def resume(self, at: datetime) -> None:
        """Resumes a paused tournament. Raises TournamentNotPausedError when not paused."""
        self.check_running()
        if self.paused is None:
            raise TournamentNotPausedError(f"tournament {self.id} is not paused")
        self._record(self.Resumed, at)

    def finish(self, standing: Sequence[Mapping[str, Any]], at: datetime) -> None:
        """Finishes the tournament with its final standing. Raises RoundNotCompleteError
        while a paired round is not complete."""
        self.check_running()
        for record in self.rounds:
            if not record["completed"]:
                raise RoundNotCompleteError(
                    f"round {record['round']} is not complete: the tournament cannot finish"
                )
        self._record(self.Finished, at, standing=[dict(entry) for entry in standing])

    def reveal_seed(self, at: datetime) -> None:
        """Reveals the seed (it must match the commitment). Raises SeedRevealError before
        the finish, or when revealed already."""
        if not self.finished:
            raise SeedRevealError(f"tournament {self.id} reveals its seed once finished")
        if self.seed_revealed:
            raise SeedRevealError(f"tournament {self.id} has revealed its seed already")
        if commitment(self.seed) != self.seed_commitment:
            raise SeedRevealError(f"the seed of tournament {self.id} does not match its commitment")
        self._record(self.SeedRevealed, at, seed=self.seed)

    # queries and guards

    def active_players(self) -> list[str]:
        """Returns the registered players who have not withdrawn, in registration order."""
        return [player for player in self.players if player not in self.withdrawn]

    def is_linked(self, match_id: str) -> bool:
        """Returns whether a match is linked to a table of this tournament."""
        return any(match_id in links for record in self.rounds for links in record["links"])

    def table_of(self, match_id: str) -> tuple[int, int]:
        """Returns the (round, table) a match is linked to. Raises InvalidResultError."""
        for record in self.rounds:
            for table, links in enumerate(record["links"], 1):
                if match_id in links:
                    return record["round"], table
        raise InvalidResultError(f"match {match_id} is not linked to tournament {self.id}")

    def table_links(self, number: int, table: int) -> list[str]:
        """Returns the match ids linked to a table, in attempt order. Raises
        UnknownTableError."""
        record = self._round(number)
        if not 1 <= table <= len(record["tables"]):
            raise UnknownTableError(
                f"round {number} has tables 1 to {len(record['tables'])}, not {table}"
            )
        links: list[str] = record["links"][table - 1]
        return links

    def check_running(self) -> None:
        """Raises TournamentFinishedError once the tournament has finished."""
        if self.finished:
            raise TournamentFinishedError(f"tournament {self.id} has finished")

    def check_active(self, player_id: str) -> None:
        """Raises UnknownPlayerError for a player not registered, or withdrawn."""
        if player_id not in self.players:
            raise UnknownPlayerError(f"player {player_id} is not registered")
        if player_id in self.withdrawn:
            raise UnknownPlayerError(f"player {player_id} has withdrawn")

    def check_pairing(
        self, number: int, tables: Sequence[Sequence[str]], byes: Sequence[str]
    ) -> None:
        """Raises InvalidPairingError unless round `number` is the next, the one before is
        complete, the rounds planned allow it, it pairs someone (a round of byes alone is a
        round robin's after withdrawals: every scheduled opponent withdrew), and each
        active player sits at most once."""
        if number != len(self.rounds) + 1:
            raise InvalidPairingError(f"the next round is {len(self.rounds) + 1}, not {number}")
        if self.rounds and not self.rounds[-1]["completed"]:
            raise InvalidPairingError(f"round {number - 1} is not complete yet")
        if self.rounds_planned is not None and number > self.rounds_planned:
            raise InvalidPairingError(f"the tournament plays {self.rounds_planned} rounds")
        if not tables and not byes:
            raise InvalidPairingError(f"round {number} pairs no table and no bye")
        seen: set[str] = set()
        for player in [p for table in tables for p in table] + list(byes):
            self.check_active_for_pairing(player)
            if player in seen:
                raise InvalidPairingError(f"player {player} is paired twice in round {number}")
            seen.add(player)
        low, high = self.options["seats"]
        for index, table in enumerate(tables, 1):
            if not low <= len(table) <= high:
                raise InvalidPairingError(
                    f"table {index} seats {len(table)} players: tables take {low} to {high}"
                )

    def check_active_for_pairing(self, player: str) -> None:
        """Raises InvalidPairingError for a player not registered, or withdrawn."""
        if player not in self.players or player in self.withdrawn:
            state = "withdrawn" if player in self.withdrawn else "not registered"
            raise InvalidPairingError(f"player {player} is {state}")

    def check_replay(self, number: int, table: int, links: list[str]) -> None:
        """Raises InvalidLinkError unless the table's latest match ended drawn in an
        elimination tournament with replays left."""
        latest = self.results.get(links[-1])
        if self.format != "elimination" or latest is None:
            raise InvalidLinkError(
                f"table {table} of round {number} has match {links[-1]}: another may be "
                "linked only to replay a drawn elimination match"
            )
        if len(set(latest["points"].values())) != 1:
            raise InvalidLinkError(f"match {links[-1]} was not drawn: it needs no replay")
        replays = self.options.get("max_replays", MAX_REPLAYS)
        if len(links) > replays:
            raise InvalidLinkError(
                f"table {table} of round {number} was replayed {replays} times: "
                "the higher seed advances"
            )

    def _round(self, number: int) -> dict[str, Any]:
        if not 1 <= number <= len(self.rounds):
            raise UnknownTableError(f"tournament {self.id} has no round {number} paired")
        return self.rounds[number - 1]
