"""Stream benchmark (issue 47): viewers of live matches on their public streams, while
orders flow, on PostgreSQL.

Starts, over a throwaway PostgreSQL database at 127.0.0.1:5432 that it creates, migrates
and drops, the API under gunicorn (threaded workers: the orders) and the streams under
gunicorn's gevent worker class (production's layout, docs/operations.md), each on a
loopback port. It sets up DRTS Team 23 matches (8 seats, `close_early`: the eighth `hold`
of a movement resolves it), then for each scenario:

- opens the viewers, spread over the matches, each following its match's stream from the
  head: `--clients` client processes of asyncio connections on 127.0.0.1 (HTTP/1.0, so
  the body is the stream itself);
- every `--interval` seconds makes a movement resolve (the next match in turn: its 8
  seats send `hold`, one after the other, each POST timed), for `--seconds`;
- records, for every viewer and every MovementResolved it receives, the time from the
  event's timestamp (taken in the resolving command) to the moment the viewer read it.

With `--page`, the viewers follow the match page's own stream instead
(`/ui/matches/{id}/live/stream`, api/pages/streams.py), as the page does: it opens with the
live part's HTML, then each update is a patch of it, made once a version by the stream
process, and a viewer's latency is from a MovementResolved event's timestamp to the first
message it reads of that version or a later one (the resolutions are read from the events
feed after the run). With `--orders moves`, each seat sends a random legal order of its
`GET /matches/{id}/legal-orders` (seeded) instead of `hold`: pieces move, so the board's
patch is as large as in a played match (the legal lists are fetched before the timed
POSTs of a movement).

Prints, per scenario: the p50/p99 from resolution to viewer update, how many updates and
viewers missed one (a gap in the ids), order POST p50/p99, and the CPU of the stream
server's and the API's processes (from /proc: their user + system time over the run, in %
of a core, and the stream server's per viewer). The first scenario has no viewers: the
orders' figures without anyone watching. Targets (issue 47): 1,000 viewers of one match,
p99 <= 500 ms and p50 <= 100 ms, order POST p99 within 1.5x of the run without viewers;
100 matches x 10 viewers, the same p99. `--client-nice` runs the viewer clients at a
lower priority, for the order POSTs' figures: on a deployment the viewers are not on the
API's cores. The per-address stream limit is off (every viewer is 127.0.0.1), as
bench_http turns the rate limits off.

Run: .venv/bin/python bench/bench_stream.py [--viewers 0,10,100,1000] [--matches 1]
         [--seconds 60] [--interval 3] [--stream-workers 1] [--spread 100x10]
         [--clients 2] [--page] [--client-nice 0] [--orders hold|moves]
Prints figures and never fails (a missing server is reported and skipped).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import re
import sys
import time
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from service import schema  # noqa: E402
from service.settings import Settings  # noqa: E402
from tests.support.gunicorn import gunicorn  # noqa: E402
from tests.support.http import call  # noqa: E402
from tests.support.postgres import new_pg_database, pg_url  # noqa: E402

TIMEOUT = 60
SEATS = 8
SETTINGS = {
    "DRTS_RATE_LIMIT_PER_ADDRESS": "0",
    "DRTS_RATE_LIMIT_PER_TOKEN": "0",
    "DRTS_MAX_STREAMS_PER_ADDRESS": "0",  # every viewer is 127.0.0.1
    "DRTS_STREAM_MAX_SECONDS": "3600",  # no reconnect within a run
    "DRTS_STREAM_HEARTBEAT_SECONDS": "5",  # a run's viewers are gone within 5 s of its end
}
HEAD = re.compile(rb'^data: \{"type":"(\w+)","version":(\d+),"timestamp":"([^"]+)"')
PART_ID = re.compile(rb"(?m)^id: (\d+)$")  # a page stream's message: its part's version


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", default="0,10,100,1000", help="viewers of one match")
    parser.add_argument("--spread", default="100x10", help="matches x viewers ('' to skip)")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--interval", type=float, default=3.0)
    parser.add_argument("--stream-workers", type=int, default=1)
    parser.add_argument("--clients", type=int, default=2, help="viewer client processes")
    parser.add_argument("--page", action="store_true", help="follow the page's stream")
    parser.add_argument(
        "--orders", choices=("hold", "moves"), default="hold", help="what the seats send"
    )
    parser.add_argument(
        "--client-nice",
        type=int,
        default=0,
        help="the viewer clients' niceness (they share the API's cores)",
    )
    args = parser.parse_args()
    try:
        with new_pg_database("drts_bench_stream") as name:
            url = pg_url(name)
            schema.upgrade(Settings(url))
            run(url, args)
    except psycopg.OperationalError as error:
        print(f"PostgreSQL not reachable: {error}; skipped")


def run(url: str, args: argparse.Namespace) -> None:
    scenarios = [(1, int(n)) for n in args.viewers.split(",") if n]
    if args.spread:
        matches, each = (int(n) for n in args.spread.split("x"))
        scenarios.append((matches, matches * each))
    most = max(n for _, n in scenarios)
    streams = {**SETTINGS, "DRTS_MAX_STREAMS": str(max(1000, most))}
    connections = ["--worker-connections", str(most + 100), "--graceful-timeout", "2"]
    with ExitStack() as stack:
        api = stack.enter_context(gunicorn(url, workers=2, threads=8, settings=SETTINGS))
        feed = stack.enter_context(
            gunicorn(
                url,
                workers=args.stream_workers,
                worker_class="gevent",
                settings=streams,
                options=connections,
            )
        )
        what = "the page's stream" if args.page else "the public stream"
        print(f"load before: {os.getloadavg()}; API {api}, streams {feed}; viewers follow "
              f"{what}, clients at nice {args.client_nice}; "
              f"the seats send {args.orders}")  # fmt: skip
        tables = [new_match(api) for _ in range(max(m for m, _ in scenarios))]
        for matches, viewers in scenarios:
            figures = scenario(api, feed, tables[:matches], viewers, args)
            report(matches, viewers, figures, args.page)
            # the server sees the last run's viewers gone at its second heartbeat to them
            # (the first write to a closed socket still succeeds)
            time.sleep(2 * float(SETTINGS["DRTS_STREAM_HEARTBEAT_SECONDS"]) + 1)
        print(f"load after: {os.getloadavg()}")


def scenario(
    api: str, feed: str, tables: list[tuple[str, list[str]]], viewers: int, args: Any
) -> dict[str, Any]:
    """Runs one scenario; returns its figures."""
    ids = [match_id for match_id, _ in tables]
    heads = {match_id: head(api, match_id) for match_id in ids}
    results: Any = multiprocessing.Queue()
    stop = multiprocessing.Event()
    plan = [(ids[i % len(ids)], heads[ids[i % len(ids)]]) for i in range(viewers)]
    clients = []
    for share in range(args.clients):
        ready = multiprocessing.Event()
        mine = plan[share :: args.clients]
        client = multiprocessing.Process(
            target=watch, args=(feed, mine, ready, stop, results, args.page, args.client_nice)
        )
        client.start()
        clients.append((client, ready))
    for _, ready in clients:
        ready.wait(120)
    time.sleep(1)
    cpu = {"streams": cpu_of(feed), "api": cpu_of(api)}
    began = time.monotonic()
    posts = drive(api, tables, args.seconds, args.interval, args.orders)
    took = time.monotonic() - began
    used = {k: (cpu_of(u) - v) / took for k, v, u in [("streams", cpu["streams"], feed),
                                                      ("api", cpu["api"], api)]}  # fmt: skip
    time.sleep(2)  # the last updates arrive
    stop.set()
    latencies, gaps, connected = [], 0, 0
    for client, _ in clients:
        more, gapped, joined = results.get(timeout=120)
        latencies, gaps, connected = latencies + more, gaps + gapped, connected + joined
        client.join(30)
    if args.page:
        latencies, missed = part_latencies(api, heads, latencies)
        gaps += missed
    return {"latencies": latencies, "gaps": gaps, "connected": connected, "posts": posts,
            "cpu": used, "load": os.getloadavg()[0]}  # fmt: skip


def drive(
    api: str, tables: list[tuple[str, list[str]]], seconds: float, interval: float, sent: str
) -> list[float]:
    """Makes a movement resolve every `interval` seconds, the matches in turn; returns
    every order POST's latency."""
    posts: list[float] = []
    chosen = random.Random(47)
    end, turn, due = time.monotonic() + seconds, 0, time.monotonic()
    while time.monotonic() < end:
        match_id, tokens = tables[turn % len(tables)]
        orders = [orders_of(api, match_id, token, sent, chosen) for token in tokens]
        for token, order in zip(tokens, orders, strict=True):
            began = time.perf_counter()
            status, body = call(api, "POST", f"/matches/{match_id}/orders", {"order": order},
                                token, timeout=TIMEOUT)  # fmt: skip
            posts.append(time.perf_counter() - began)
            if status != 201:
                print(f"order refused: {status} {body}")
        turn += 1
        due += interval
        time.sleep(max(0.0, due - time.monotonic()))
    return posts


def watch(
    feed: str,
    plan: list[tuple[str, int]],
    ready: Any,
    stop: Any,
    results: Any,
    page: bool,
    niceness: int,
) -> None:
    """The client process: one asyncio connection a viewer; puts (latencies, viewers with
    a gap, viewers connected) once `stop` is set (`page`: each viewer's parts instead of
    latencies, (match, [(version, arrival, bytes)]))."""
    os.nice(niceness)
    latencies: list[Any] = []
    gaps = [0]
    connected = [0]
    host, port = feed.removeprefix("http://").split(":")

    async def viewer(match_id: str, after: int) -> None:
        reader, writer = await asyncio.open_connection(host, int(port), limit=2**22)
        path = f"/ui/matches/{match_id}/live/stream" if page else f"/matches/{match_id}/stream"
        writer.write(f"GET {path}?after={after} HTTP/1.0\r\n\r\n".encode())
        status = await reader.readline()
        if b" 200 " not in status:
            print(f"viewer refused: {status!r}")
            return
        connected[0] += 1
        if page:
            await parts(reader, match_id, after)
            return
        last, gap = after, False
        while line := await reader.readline():
            found = HEAD.match(line)
            if not found:
                continue
            got = time.time()
            version = int(found.group(2))
            gap = gap or version != last + 1
            last = version
            if found.group(1) == b"MovementResolved":
                stamp = datetime.fromisoformat(found.group(3).decode()).timestamp()
                latencies.append(((match_id, version), got - stamp, len(line)))
        gaps[0] += gap

    async def parts(reader: Any, match_id: str, after: int) -> None:
        """Reads the page's stream in chunks (a part is many lines): a part is read once
        the blank line ending it is."""
        got: list[tuple[int, float, int]] = []
        latencies.append((match_id, got))
        last, pending = after, b""
        while chunk := await reader.read(2**16):
            pending += chunk
            end = pending.rfind(b"\n\n")
            if end < 0:
                continue
            done, pending = pending[: end + 2], pending[end + 2 :]
            at = time.time()
            for found in PART_ID.finditer(done):
                version = int(found.group(1))
                # messages come in rising versions (the first, the whole part, at `after`)
                gaps[0] += version < last or (version == last and bool(got))
                last = version
                got.append((version, at, len(done)))

    async def everyone() -> None:
        tasks = []
        for match_id, after in plan:
            tasks.append(asyncio.create_task(viewer(match_id, after)))
            if len(tasks) % 100 == 0:
                await asyncio.sleep(0.05)  # a ramp, not a SYN flood
        while connected[0] < len(plan) and any(not t.done() for t in tasks):
            await asyncio.sleep(0.1)
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.2)
        for task in tasks:
            task.cancel()

    if plan:
        asyncio.run(everyone())
    else:
        ready.set()
        stop.wait()
    results.put((latencies, gaps[0], connected[0]))


def part_latencies(api: str, heads: dict[str, int], viewers: list[Any]) -> tuple[list[Any], int]:
    """Returns (resolution, seconds, bytes) for each viewer and each MovementResolved of
    its match in the run: from the event's timestamp to the first part the viewer read of
    its version or a later one; and how many resolutions a viewer read no part of."""
    resolved: dict[str, list[tuple[int, float]]] = {}
    for match_id, after in heads.items():
        status, page = call(api, "GET", f"/matches/{match_id}/events?after={after}"
                            "&type=MovementResolved&limit=1000")  # fmt: skip
        resolved[match_id] = (
            [
                (int(e["version"]), datetime.fromisoformat(e["timestamp"]).timestamp())
                for e in page["items"]
            ]
            if status == 200
            else []
        )
    latencies, missed = [], 0
    for match_id, got in viewers:
        for version, stamp in resolved[match_id]:
            first = next(((at, size) for v, at, size in got if v >= version), None)
            if first is None:
                missed += 1
            else:
                latencies.append(((match_id, version), first[0] - stamp, first[1]))
    return latencies, missed


def orders_of(api: str, match_id: str, token: str, sent: str, chosen: random.Random) -> Any:
    """`hold`, or (`moves`) a legal order of the seat now, drawn by `chosen`: one of the
    listed orders, or one piece's command (DRTS Team 23 lists each piece's commands, each
    a one-command order)."""
    if sent == "hold":
        return "hold"
    status, legal = call(api, "GET", f"/matches/{match_id}/legal-orders", token=token)
    if status != 200:
        return "hold"
    if legal.get("orders"):
        return chosen.choice(legal["orders"])["json"]
    pieces = [piece for piece in legal.get("pieces") or [] if piece["commands"]]
    return chosen.choice(chosen.choice(pieces)["commands"])["json"] if pieces else "hold"


def new_match(base: str) -> tuple[str, list[str]]:
    """Creates, fills and starts a DRTS Team 23 match of 200 movements of a day each."""
    # a day a movement: no deadline falls due while the match waits for its turn
    config = {"close_early": True, "movements": 200, "max_movements": 200,
              "movement_seconds": 86400}  # fmt: skip
    _, created = call(base, "POST", "/matches", {"ruleset": "drts_team23", "config": config})
    match_id = created["match_id"]
    tokens = [call(base, "POST", f"/matches/{match_id}/seats", {"name": f"p{seat}"})[1]["token"]
              for seat in range(1, SEATS + 1)]  # fmt: skip
    call(base, "POST", f"/matches/{match_id}/start", token=created["referee_token"])
    return match_id, tokens


def head(base: str, match_id: str) -> int:
    return int(call(base, "GET", f"/matches/{match_id}/events?limit=1")[1]["version"])


def cpu_of(base: str) -> float:
    """Returns the CPU seconds (user + system) of the gunicorn processes bound to the
    base URL's port: its master and workers, found by their command line."""
    bind = base.removeprefix("http://").encode()
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if bind not in (entry / "cmdline").read_bytes():
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def report(matches: int, viewers: int, figures: dict[str, Any], page: bool = False) -> None:
    posts, cpu = figures["posts"], figures["cpu"]
    lat = [seconds for _, seconds, _ in figures["latencies"]]
    first: dict[Any, float] = {}
    for version, seconds, _ in figures["latencies"]:
        first[version] = min(seconds, first.get(version, seconds))
    line = f"{matches} match(es), {viewers} viewers ({figures['connected']} connected): "
    if lat:
        line += (f"resolution -> viewer p50 {ms(percentile(lat, 50))}, p99 "
                 f"{ms(percentile(lat, 99))}, max {ms(max(lat))} over {len(lat)} updates; "
                 f"viewers with a gap: {figures['gaps']}; the first viewer of each: p50 "
                 f"{ms(percentile(list(first.values()), 50))}; "
                 f"{'a live part' if page else 'MovementResolved'} "
                 f"{figures['latencies'][0][2]} bytes; ")  # fmt: skip
    line += f"order POST p50 {ms(percentile(posts, 50))}, p99 {ms(percentile(posts, 99))} "
    line += f"({len(posts)} orders); CPU: streams {cpu['streams'] * 100:.1f} % of a core"
    if viewers:
        line += f" ({cpu['streams'] * 100 / viewers:.4f} % a viewer)"
    line += f", API {cpu['api'] * 100:.1f} %; load {figures['load']:.2f}"
    print(line, flush=True)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


if __name__ == "__main__":
    main()
