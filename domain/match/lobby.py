"""The commands around play: creating a match, seating players, reissuing a seat token,
starting; and, once a drawn match asks for it, its rematch (DW-5)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Self
from uuid import UUID

from domain.errors import (
    InvalidConfigError,
    MatchAlreadyStartedError,
    NotEnoughSeatsError,
    SeatTakenError,
    UnknownSeatError,
)
from domain.integrity import chain_link, commitment, genesis, normalized
from domain.match.play import MAX_DEADLINE_SECONDS
from domain.match.referee import MatchReferee
from domain.rules.contract import JSON, state_hash
from domain.rules.registry import get_ruleset
from domain.rules.rng import Rng
from domain.table import Table


class MatchLobby(MatchReferee):
    """The commands before a match starts, and its rematch after it ends."""

    @classmethod
    def create(
        cls,
        match_id: UUID,
        ruleset_name: str,
        config: dict[str, JSON],
        seed: str,
        referee_token_hash: str,
        at: datetime,
        seats: int | None = None,
        deadline_seconds: int | None = None,
        preset: str | None = None,
        version: int | None = None,
        rated: bool = False,
    ) -> Self:
        """Returns a new match (Created pending) under `version` of the ruleset (the latest
        for None), its config expanded from `preset` and validated; a `rated` match's
        result counts for its players' ratings (issue 45).

        Raises InvalidConfigError on a bad config, seat count, deadline or
        preset; UnknownRulesetError (UnknownRulesetVersionError) for a ruleset
        (version) that is not installed.
        """
        ruleset = get_ruleset(ruleset_name, version)
        info = ruleset.info
        limits = {"min": info.min_seats, "max": info.max_seats}
        if seats is not None:
            if not info.min_seats <= seats <= info.max_seats:
                raise InvalidConfigError(
                    f"{seats} seats for {info.name}: it takes {info.min_seats} to {info.max_seats}"
                )
            limits = {"min": seats, "max": seats}
        if deadline_seconds is not None and not 0 < deadline_seconds <= MAX_DEADLINE_SECONDS:
            raise InvalidConfigError(
                f"deadline_seconds must be 1 to {MAX_DEADLINE_SECONDS}, got {deadline_seconds}"
            )
        data: dict[str, Any] = {
            "ruleset": info.name,
            "ruleset_version": info.version,
            "config": normalized(ruleset.configure(config, preset)),
            "seats": limits,
            "schedule": {"deadline_seconds": deadline_seconds},
            "seed_commitment": commitment(seed),
            "referee_token_hash": referee_token_hash,
            "rated": rated,
        }
        chain = chain_link(genesis(match_id), "Created", 1, at, data)
        return cls._create(
            cls.Created, id=match_id, timestamp=at, sealed={"seed": seed}, chain=chain, **data
        )

    def join(self, name: str, token_hash: str, at: datetime, player_id: str | None = None) -> int:
        """Seats a player; returns the seat number (1..N in join order). Before the start
        for every game; after it, while the match runs, for a game with `add_seat` (B-Chess,
        BC-5), whose state takes the seat in at once (`SeatAdded`). The seat names the
        player identity `player_id` if given (the service has checked its key: issue 45).

        Raises MatchAlreadyStartedError once started for other games, and once finished;
        SeatTakenError for an empty or taken name, a player who holds a seat already, or a
        full match; what `add_seat` raises.
        """
        self._check_may_join()
        if not name.strip():
            raise SeatTakenError("a player name is needed to join, got an empty name")
        for holder in self.seats:
            if holder.name == name:
                raise SeatTakenError(
                    f"player name {name!r} already holds seat {holder.number} of match {self.id}"
                )
            if player_id is not None and holder.player_id == player_id:
                raise SeatTakenError(
                    f"player {player_id} already holds seat {holder.number} of match {self.id}"
                )
        if len(self.seats) >= self.seat_limits["max"]:
            raise SeatTakenError(
                f"match {self.id} has no free seat: all {self.seat_limits['max']} seats are taken"
            )
        seat = len(self.seats) + 1
        if self.started:
            self._add_seat(seat, name, token_hash, at, player_id)
        else:
            self._record(
                self.SeatJoined,
                at,
                seat=seat,
                name=name,
                token_hash=token_hash,
                player_id=player_id,
            )
        return seat

    def _check_may_join(self) -> None:
        if not self.started:
            return
        if self.rules().add_seat is None:
            self.check_not_started()
        if self.finished:
            raise MatchAlreadyStartedError(f"match {self.id} has finished: no seat can join")
        self.check_not_quarantined()

    def _add_seat(
        self, seat: int, name: str, token_hash: str, at: datetime, player_id: str | None
    ) -> None:
        """Records a seat joining the running match, with the state `add_seat` gives (a
        deadline already due passes first, as for a late order)."""
        table = self.table()
        if self._deadline_passed(at):
            self._close(table, at)
            if self.finished:
                raise MatchAlreadyStartedError(f"match {self.id} has finished: no seat can join")
        ruleset = table.ruleset
        assert ruleset.add_seat is not None  # _check_may_join
        rng = Rng(self.seed, self.movement, f"add_seat {seat}")
        table.state = ruleset.add_seat(table.state, seat, rng)
        dumped = normalized(ruleset.dump_state(table.state))
        self._record(
            self.SeatAdded,
            at,
            seat=seat,
            name=name,
            token_hash=token_hash,
            movement=self.movement,
            steps=[step.to_json() for step in ruleset.seat_steps(table.state, seat)],
            state=dumped,
            state_hash=state_hash(dumped),
            outcome=table.outcome().to_json(),
            player_id=player_id,
        )

    def reissue_seat_token(
        self,
        referee_token_hash: str,
        seat: int,
        token_hash: str,
        at: datetime,
        reason: str | None = None,
    ) -> None:
        """Gives a seat a new token (the referee's act, with its reason if given); the old
        token stops working."""
        self.check_referee(referee_token_hash)
        if not 1 <= seat <= len(self.seats):
            raise UnknownSeatError(
                f"match {self.id} has no seat {seat} ({len(self.seats)} seat(s) joined)"
            )
        self._record(self.SeatTokenReissued, at, seat=seat, token_hash=token_hash, reason=reason)

    def start(
        self,
        referee_token_hash: str,
        at: datetime,
        state: JSON = None,
        movement: int = 1,
        strikes: Mapping[int, int] | None = None,
    ) -> None:
        """Starts the match (optionally from a given state, movement and strikes by seat)
        and opens a movement."""
        self.check_referee(referee_token_hash)
        self.check_not_started()
        if len(self.seats) < self.seat_limits["min"]:
            raise NotEnoughSeatsError(
                f"match {self.id} needs {self.seat_limits['min']} seats "
                f"to start, {len(self.seats)} joined"
            )
        table = Table.start(self.rules(), self.config, len(self.seats), self.seed)
        drawn = table.ruleset.initial_steps(table.state)
        if state is not None:  # a state given by the referee: the start drew nothing
            table.state, drawn = table.ruleset.load_state(state), ()
        table.movement = movement
        table.strikes = dict(strikes or {})
        dumped = normalized(table.ruleset.dump_state(table.state))
        self._record(
            self.Started,
            at,
            movement=movement,
            seats=len(self.seats),
            state=dumped,
            state_hash=state_hash(dumped),
            outcome=table.outcome().to_json(),
            steps=[step.to_json() for step in drawn],  # passed always: the chain covers it
            strikes={str(seat): n for seat, n in table.strikes.items()} or None,
        )
        self._open(table, at, at)

    def link_rematch(self, rematch_id: UUID, at: datetime) -> UUID | None:
        """Records (once) the id of this match's rematch if its outcome asks for one (DW-5);
        returns the rematch's id (the one recorded first), or None when none is due."""
        if self.rematch_id is not None:
            return UUID(self.rematch_id)
        if not self.wants_rematch():
            return None
        self._record(self.ReplayLinked, at, replay_id=str(rematch_id))
        return rematch_id

    @classmethod
    def rematch(cls, original: Self, rematch_id: UUID, seed: str, at: datetime) -> Self:
        """Returns the started rematch of a drawn match: same ruleset version, config,
        referee and seats (names and token hashes, so every token still works), a new
        seed (DW-5)."""
        rematch = cls.create(
            rematch_id,
            original.ruleset,
            original.config,
            seed,
            original.referee_token_hash,
            at,
            len(original.seats),
            original.schedule.get("deadline_seconds"),
            version=original.ruleset_version,
            rated=original.rated,
        )
        rematch._record(cls.ReplayOf, at, original_id=str(original.id))
        for holder in original.seats:
            rematch.join(holder.name, holder.token_hash, at, holder.player_id)
        rematch.start(original.referee_token_hash, at)
        return rematch
