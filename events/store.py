"""The event store: one Redis stream per game, appended atomically.

Keys (every key of a game shares the hash tag ``{<game id>}``):

- ``game:{id}:events`` — the stream; entry id ``0-<version>`` so a version
  range is an ``XRANGE`` and the ids themselves refuse a duplicate version;
- ``game:{id}:head`` — hash of ``version`` and ``hash`` (the chain's tip);
- ``game:{id}:idem:<key>`` — an idempotent append's fingerprint and result;
- ``game:{id}:snapshots`` — ``events.snapshot_store``'s, written here too
  when an append brings the snapshot its batch leaves (``snapshot``).

One Lua script makes every check (idempotency, expected version, chain tip)
before its first write, so an append is all or nothing and two writers racing
at one version cannot both win. The same script adds each event to the game's
feed partition (``events.feed``), which shares the game's hash slot, so the
feed holds every event once, in commit order within the partition. The same
code runs on a standalone server (one partition, ``holotape:feed``) and on a
Redis Cluster (``FeedPartitions(n, cluster=True)``), where an append also
waits for ``replicas`` replicas to hold it before it is acknowledged.

Nothing here ever trims or deletes entries of a game stream.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any

import redis
from redis.commands.core import Script
from redis.exceptions import NoScriptError

from events.encoding import FeedRef, Rows, decode_rows, decoded, encode, feed_entry, feed_fields, flattened
from events.envelope import GENESIS, Envelope, NewEvent, canonical_json, derived_event_id, now_utc, seal
from events.feed import START, FeedPartitions, Row, merge, split_position
from events.log import (
    Allowances,
    AllowanceSpent,
    AppendResult,
    ChainReport,
    ConcurrencyError,
    FeedEntry,
    IdempotencyConflict,
    NotDurable,
    SnapshotWrite,
    StoreError,
    walk_chain,
)
from events.schemas import SchemaRegistry
from events.snapshot_store import SAVE_FUNCTION, member, snapshots_key
from events.wire import sender

#: Feed partitions on a cluster unless told otherwise: a few per master of a
#: small cluster, so games spread while a reader merges few streams.
CLUSTER_PARTITIONS = 16
#: How long an append on a cluster with replicas waits for them before it is
#: refused as not durable (``NotDurable``): longer than a replica's usual lag,
#: far shorter than a client's patience.
DURABLE_WITHIN_MS = 1000
#: How often a blocking feed read looks again (the partitions cannot be
#: watched in one XREAD: on a cluster they live on different shards).
FEED_POLL_SECONDS = 0.02
#: What XRANGE and XREAD answer with through redis-py: (entry id, field map)
#: pairs. redis-py's own annotation is a union of every way a command may
#: answer; ours is the one this client (bytes, no RESP3) gets.
FieldRows = list[tuple[bytes, dict[bytes, bytes]]]
IDEMPOTENCY_TTL = 2 * 24 * 3600  # at least the 24 h a client may retry for


def stream_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:events"


def head_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:head"


def idempotency_key(game_id: str, key: str) -> str:
    return f"game:{{{game_id}}}:idem:{key}"


_APPEND = SAVE_FUNCTION + """
local allowances = tonumber(ARGV[10])
local probes = tonumber(ARGV[11])
local snapshot = 12 + 3 * allowances
local first = snapshot + 3
-- Allowances (rate limits) first: a spent one refuses the append before it
-- writes anything but the counts a request always costs.
local counts = {}
for i = 1, allowances do
  local key, mode = KEYS[4 + i], ARGV[9 + 3 * i]
  if mode == 'hit' then
    counts[i] = redis.call('INCR', key)
    redis.call('EXPIRE', key, ARGV[11 + 3 * i], 'NX')
  else
    counts[i] = tonumber(redis.call('GET', key) or '0')
  end
end
for i = 1, allowances do
  local limit = tonumber(ARGV[10 + 3 * i])
  local spent = counts[i] >= limit
  if ARGV[9 + 3 * i] == 'hit' then spent = counts[i] > limit end
  if spent then
    return {'spent', tostring(i - 1), tostring(redis.call('TTL', KEYS[4 + i]))}
  end
end
for i = 1, allowances do
  if ARGV[9 + 3 * i] == 'count' then
    redis.call('INCR', KEYS[4 + i])
    redis.call('EXPIRE', KEYS[4 + i], ARGV[11 + 3 * i], 'NX')
  end
end
local idem = ARGV[4]
if idem ~= '' then
  local prior = redis.call('GET', KEYS[3])
  if prior then
    local cut = string.find(prior, '\\n', 1, true)
    if string.sub(prior, 1, cut - 1) == idem then
      return {'duplicate', string.sub(prior, cut + 1)}
    end
    return {'idempotency_conflict', ''}
  end
end
local current = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
if current ~= tonumber(ARGV[1]) then
  return {'conflict', tostring(current)}
end
local tip = redis.call('HGET', KEYS[2], 'hash') or ARGV[7]
if tip ~= ARGV[2] then
  return {'conflict', tostring(current)}
end
local count = #ARGV - first + 1
for i = 1, count do
  local version = current + i
  redis.call('XADD', KEYS[1], '0-' .. version, 'c', ARGV[first - 1 + i])
end
redis.call('XADD', KEYS[4], '*', ARGV[8], ARGV[9], 'v', current + 1, 'n', count)
redis.call('HSET', KEYS[2], 'version', current + count, 'hash', ARGV[3])
if idem ~= '' then
  redis.call('SET', KEYS[3], idem .. '\\n' .. ARGV[6], 'EX', tonumber(ARGV[5]))
end
if ARGV[snapshot] ~= '' then
  save_snapshot(KEYS[5 + allowances + probes], ARGV[snapshot], current + count,
                tonumber(ARGV[snapshot + 1]), tonumber(ARGV[snapshot + 2]))
end
local answer = {'ok', ARGV[6]}
for i = 1, probes do
  answer[2 + i] = redis.call('EXISTS', KEYS[4 + allowances + i])
end
return answer
"""

# The newest snapshot at or below ARGV[1] (KEYS[1], scored by version) and the stream's entries (KEYS[2])
# from its version (the entry whose hash the next one chains to) up to ARGV[2]; from the first without one.
_NEWEST_AND_AFTER = """
local found = redis.call('ZREVRANGEBYSCORE', KEYS[1], ARGV[1], '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
local low = '0-1'
if found[2] then low = '0-' .. found[2] end
return {found[1] or false, redis.call('XRANGE', KEYS[2], low, ARGV[2])}
"""


class EventStore:
    def __init__(
        self,
        client: redis.Redis | redis.RedisCluster,
        registry: SchemaRegistry | None = None,
        idempotency_ttl: int = IDEMPOTENCY_TTL,
        *,
        partitions: FeedPartitions | None = None,
        replicas: int = 0,
        durable_within_ms: int = DURABLE_WITHIN_MS,
    ):
        self.redis = client
        self.registry = registry or SchemaRegistry()
        self.idempotency_ttl = idempotency_ttl
        self.cluster = isinstance(client, redis.RedisCluster)
        self.partitions = partitions or FeedPartitions(CLUSTER_PARTITIONS if self.cluster else 1, self.cluster)
        self.replicas = replicas
        self.durable_within_ms = durable_within_ms
        self._append = client.register_script(_APPEND)
        self._newest_and_after = client.register_script(_NEWEST_AND_AFTER)
        self._flat = _flat_reader(client)
        self._send = sender(client)

    def new_game_id(self) -> str:
        """An id for a new game, placed beside a feed partition (``events.feed``)."""
        return self.partitions.new_game_id()

    # -- writing -----------------------------------------------------------

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        actor: str = "system",
        causation_id: str | None = None,
        correlation_id: str | None = None,
        idempotency_key: str | None = None,
        prev_hash: str | None = None,
        allowances: Allowances | None = None,
        probe: Sequence[str] = (),
        stamped_at: str | None = None,
        snapshot: SnapshotWrite | None = None,
    ) -> AppendResult:
        """Append ``events`` on top of ``expected_version``, all or nothing.

        ``prev_hash`` is the chain tip the caller saw at ``expected_version``;
        when omitted it is read here (the script still refuses the append if
        the stream moves in between, because version and tip move together).
        The result holds the sealed envelopes, so a caller answers from them
        instead of reading back what it just wrote.

        In the same round trip, so that an action costs one: ``allowances``
        (rate limits) are judged first, and a spent one refuses the append
        (``AllowanceSpent``); ``probe`` names keys whose existence a
        successful append reports (``AppendResult.probed``). On a cluster
        every key of one script must share the game's hash slot: probes then
        must carry the game's hash tag, and allowances are refused.

        ``stamped_at``: the moment the events carry (default: now), for a
        caller that built what the batch leaves before appending it; and
        ``snapshot``, that state, kept as the game's snapshot at the last
        version by the same script once the events are in.
        """
        if not events:
            raise StoreError("append needs at least one event")
        partition = self.partitions.partition_of(game_id)
        if partition is None:
            raise StoreError(f"game id {game_id!r} was not drawn by new_game_id: it has no feed partition here")
        if prev_hash is None:
            prev_hash = self.head(game_id)[1] if expected_version else GENESIS
        stamped = self._seal(
            game_id, expected_version, events, actor, causation_id, correlation_id, prev_hash, stamped_at or now_utc()
        )
        result = AppendResult(
            game_id=game_id,
            first_version=expected_version + 1,
            last_version=expected_version + len(stamped),
            event_ids=tuple(e.event_id for e in stamped),
            last_hash=stamped[-1].hash,
            envelopes=tuple(stamped),
        )
        fingerprint = self._fingerprint(expected_version, events) if idempotency_key else ""
        limits = allowances.items if allowances is not None else ()
        if limits and self.cluster:
            raise StoreError("allowances live outside a game's hash slot: on a cluster, judge them apart")
        keys = [
            stream_key(game_id),
            head_key(game_id),
            idempotency_key_for(game_id, idempotency_key),
            self.partitions.keys[partition],
            *(a.key for a in limits),
            *probe,
            *([snapshots_key(game_id)] if snapshot is not None else []),
        ]
        args: list[Any] = [
            expected_version,
            prev_hash,
            stamped[-1].hash,
            fingerprint,
            self.idempotency_ttl,
            result.as_json() if idempotency_key else "",  # kept only with a key
            GENESIS,
            *feed_fields(game_id),
            len(limits),
            len(probe),
            *[field for a in limits for field in (a.mode, a.limit, a.window)],
            *(
                (member(result.last_version, snapshot.format, result.last_hash, snapshot.state), snapshot.keep, snapshot.sparse)
                if snapshot is not None
                else ("", 0, 0)
            ),
            *[encode(e) for e in stamped],
        ]
        status, payload, *rest = self._run(self._append, keys, args)
        status = _text(status)
        if allowances is not None:
            allowances.judged = True
        if status == "ok":
            self._made_durable(game_id, result)
            return replace(result, probed=tuple(bool(p) for p in rest)) if probe else result
        if status == "spent":
            raise AllowanceSpent(int(_text(payload)), max(1, int(_text(rest[0]))))
        if status == "duplicate":
            return AppendResult.from_json(_text(payload), duplicate=True)
        if status == "idempotency_conflict":
            raise IdempotencyConflict(
                f"idempotency key {idempotency_key!r} was used for different events"
            )
        raise ConcurrencyError(game_id, expected_version, int(_text(payload)))

    def _run(self, script: Script, keys: list[str], args: list[Any]) -> Any:
        """``script(keys=keys, args=args)`` in one EVALSHA without redis-py's ``Script`` and ``evalsha``
        around it (a tenth of an append's CPU: the keys and arguments copied twice, an import and a
        check per call), sent without its per-call hooks either (``events.wire``); on a server that has
        not seen the script yet, ``Script`` loads it and runs it."""
        try:
            return self._send("EVALSHA", script.sha, len(keys), *keys, *args)
        except NoScriptError:
            return script(keys=keys, args=args)

    def _seal(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        actor: str,
        causation_id: str | None,
        correlation_id: str | None,
        prev_hash: str,
        timestamp: str,
    ) -> list[Envelope]:
        sealed: list[Envelope] = []
        for offset, event in enumerate(events, start=1):
            version = event.schema_version or self.registry.current_version(event.type)
            data = event.data
            if event.schema_version is None:
                data = self.registry.validate(event.type, data)
            envelope = seal(
                event_id=derived_event_id(game_id, expected_version + offset),
                game_id=game_id,
                version=expected_version + offset,
                type=event.type,
                schema_version=version,
                data=data,
                timestamp=timestamp,
                actor=actor,
                causation_id=causation_id,
                correlation_id=correlation_id,
                prev_hash=prev_hash,
            )
            sealed.append(envelope)
            prev_hash = envelope.hash
        return sealed

    @staticmethod
    def _fingerprint(expected_version: int, events: Sequence[NewEvent]) -> str:
        body = [expected_version, [[e.type, e.schema_version, e.data] for e in events]]
        return hashlib.sha256(canonical_json(body).encode()).hexdigest()

    def recall(self, game_id: str, key: str) -> AppendResult | None:
        """What an earlier append with idempotency ``key`` did, if it happened."""
        prior = self.redis.get(idempotency_key(game_id, key))
        if prior is None:
            return None
        return AppendResult.from_json(_text(prior).split("\n", 1)[1], duplicate=True)

    # -- reading -----------------------------------------------------------

    def head(self, game_id: str) -> tuple[int, str]:
        """The current version and chain tip (0 and the genesis hash for no game)."""
        version, tip = self.redis.hmget(head_key(game_id), ["version", "hash"])
        if version is None:
            return 0, GENESIS
        return int(version), _text(tip)

    def version(self, game_id: str) -> int:
        return self.head(game_id)[0]

    def versions(self, game_ids: Sequence[str]) -> list[int]:
        """The current version of each game (0 for none), in one round trip however many there are: a
        player's inbox polls every game the player holds a seat in."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hget(head_key(game_id), "version")
        return [int(found) if found is not None else 0 for found in pipe.execute()]

    def exists(self, game_id: str) -> bool:
        return self.version(game_id) > 0

    def read(
        self,
        game_id: str,
        from_version: int = 1,
        to_version: int | None = None,
        *,
        upcast: bool = True,
    ) -> list[Envelope]:
        """Events ``from_version``..``to_version`` inclusive, oldest first."""
        envelopes = self._decoded(game_id, from_version, to_version)
        return list(self._current(envelopes) if upcast else envelopes)

    def each(self, game_id: str, from_version: int = 1, to_version: int | None = None) -> Iterator[Envelope]:
        """``read``'s events one at a time, each decoded (and upcast) when the caller comes to it: for a fold,
        which keeps none of them (``events.encoding.decoded``)."""
        return self._current(self._decoded(game_id, from_version, to_version))

    def _decoded(self, game_id: str, from_version: int, to_version: int | None) -> Iterator[Envelope]:
        high = f"0-{to_version}" if to_version is not None else "+"
        # One entry more in front: its hash is the first wanted one's prev_hash.
        lead = from_version > 1
        low = f"0-{from_version - 1}" if lead else "0-1"
        return decoded(game_id, self._entries(game_id, low, high), lead=lead)

    def _entries(self, game_id: str, low: str, high: str) -> Rows:
        """The game stream's entries ``low``..``high`` (XRANGE ids), each one's fields as the server sent them."""
        if self._flat is None:  # a cluster's client: its field maps, flattened back
            return flattened(self.redis.xrange(stream_key(game_id), low, high))  # type: ignore[arg-type]
        return self._flat.xrange(stream_key(game_id), low, high)  # type: ignore[return-value]

    def newest_snapshot_and_after(self, game_id: str, at: int | None) -> tuple[bytes | None, Iterator[Envelope]]:
        """The game's newest snapshot at or below ``at`` as kept (``events.snapshot_store``; None: none) and
        the events after it up to ``at`` (all of them without one), in one round trip; the events decoded
        one at a time as ``each`` does, for the fold."""
        member, rows = self._run(
            self._newest_and_after,
            [snapshots_key(game_id), stream_key(game_id)],
            ["+inf" if at is None else at, "+" if at is None else f"0-{at}"],
        )
        # The script hands XRANGE's entries back as the server sends them, as decode_rows reads them.
        return member or None, self._current(decoded(game_id, rows, lead=member is not None))

    def wait(self, game_id: str, after_version: int, block_ms: int, count: int = 100) -> list[Envelope]:
        """Events after ``after_version``, waiting up to ``block_ms`` for the first one."""
        answer: list[tuple[bytes, FieldRows]] = self.redis.xread(  # type: ignore[assignment]
            {stream_key(game_id): f"0-{after_version}"}, count=count, block=max(block_ms, 1)
        )
        rows = flattened(answer[0][1]) if answer else []
        if rows and after_version > 0:
            # The entry waited after, for its hash (the first new one's prev_hash).
            rows = [*self._entries(game_id, f"0-{after_version}", f"0-{after_version}"), *rows]
        return [self._upcast(e) for e in decode_rows(game_id, rows, lead=after_version > 0 and bool(rows))]

    def _current(self, envelopes: Iterable[Envelope]) -> Iterator[Envelope]:
        """``envelopes`` in their types' current versions: an event already there (nearly every one a fold
        reads) is left as it is, found in a dict rather than by a call per event."""
        versions = self.registry.versions
        return (e if e.schema_version >= versions.get(e.type, 1) else self._upcast(e) for e in envelopes)

    def _upcast(self, envelope: Envelope) -> Envelope:
        version, data = self.registry.upcast(envelope.type, envelope.schema_version, envelope.data)
        if version == envelope.schema_version:
            return envelope
        return replace(envelope, schema_version=version, data=data)

    def feed(self, after: str = START, count: int = 500, block_ms: int | None = None) -> list[FeedEntry]:
        """Every game's events strictly after checkpoint ``after``, the partitions
        merged (``events.feed.merge``: each game and partition in commit order).

        ``block_ms``: wait up to that long for the first entry when none is there yet.
        """
        waited = 0.0
        while True:
            merged = merge(self._partition_after, self.partitions.count, after, count)
            if merged or not block_ms or waited * 1000 >= block_ms:
                break
            time.sleep(FEED_POLL_SECONDS)
            waited += FEED_POLL_SECONDS
        found = self._referenced([m.held for m in merged if isinstance(m.held, FeedRef)])
        envelopes = [found[(m.held.game_id, m.held.version)] if isinstance(m.held, FeedRef) else m.held for m in merged]
        return [FeedEntry(m.checkpoint, self._upcast(e)) for m, e in zip(merged, envelopes, strict=True)]

    def _referenced(self, refs: list[FeedRef]) -> dict[tuple[str, int], Envelope]:
        """The envelopes compact feed entries point at: one XRANGE per game, all in one pipeline."""
        spans: dict[str, tuple[int, int]] = {}
        for ref in refs:
            low, high = spans.get(ref.game_id, (ref.version, ref.version))
            spans[ref.game_id] = (min(low, ref.version), max(high, ref.version))
        if not spans:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for game_id, (low, high) in spans.items():
            pipe.xrange(stream_key(game_id), f"0-{max(low - 1, 1)}", f"0-{high}")
        found: dict[tuple[str, int], Envelope] = {}
        for (game_id, (low, _)), rows in zip(spans.items(), pipe.execute(), strict=True):
            for envelope in decode_rows(game_id, flattened(rows), lead=low > 1):
                found[(game_id, envelope.version)] = envelope
        return found

    def _partition_after(self, partition: int, position: str, count: int) -> list[Row]:
        """The events of ``count`` entries of a partition after ``position``, each entry's one by one."""
        entry_id, consumed = split_position(position)
        low = entry_id if consumed else f"({entry_id}" if entry_id != START else "-"
        rows: FieldRows = self.redis.xrange(self.partitions.keys[partition], low, "+", count)  # type: ignore[assignment]
        events: list[Row] = []
        for n, (raw_id, fields) in enumerate(rows):
            held = feed_entry(fields)
            size = held.count if isinstance(held, FeedRef) else 1
            for k in range(consumed if n == 0 else 0, size):
                item = FeedRef(held.game_id, held.version + k) if isinstance(held, FeedRef) else held
                events.append((_text(raw_id), k, size, item))
        return events

    def _made_durable(self, game_id: str, result: AppendResult) -> None:
        """Wait until ``replicas`` replicas hold the append, or refuse to acknowledge it.

        A master that dies before its replicas copy an append takes the append
        with it when a replica is promoted; an append is acknowledged only
        once enough replicas have it (WAIT). If they do not within
        ``durable_within_ms``, the append may still survive, but no one was
        told it did: ``NotDurable`` says so, and the caller reads the game
        again to learn where it stands.
        """
        if not self.replicas:
            return
        if self.cluster:
            node = self.redis.get_node_from_key(stream_key(game_id))  # type: ignore[union-attr]
            copied = self.redis.execute_command("WAIT", self.replicas, self.durable_within_ms, target_nodes=node)
        else:
            copied = self.redis.execute_command("WAIT", self.replicas, self.durable_within_ms)
        if int(copied) < self.replicas:
            raise NotDurable(game_id, result.last_version, int(copied), self.replicas)

    def game_ids(self) -> list[str]:
        """Every game with at least one event (read from the heads, not a projection)."""
        ids = []
        for key in self.redis.scan_iter(match="game:{*}:head", count=1000):
            text = _text(key)
            ids.append(text[text.index("{") + 1 : text.index("}")])
        return sorted(ids)

    # -- auditing ----------------------------------------------------------

    def verify(self, game_id: str) -> ChainReport:
        """Walk the hash chain as stored and name the first broken link."""
        envelopes = self.read(game_id, upcast=False)
        report = walk_chain(game_id, envelopes)
        version, tip = self.head(game_id)
        if report.ok and (version != report.checked or (envelopes and tip != envelopes[-1].hash)):
            return ChainReport(game_id, False, report.checked, report.checked + 1, "head does not match stream")
        return report


def _flat_reader(client: redis.Redis | redis.RedisCluster) -> redis.Redis | None:
    """A client on ``client``'s connections whose XRANGE answers each entry's fields as the server sends
    them, names and values alternating: redis-py's dict per entry, which decoding throws away, was a tenth
    of a fold's time. None for a cluster, whose nodes' clients parse each answer themselves."""
    if isinstance(client, redis.RedisCluster):
        return None
    flat = redis.Redis(connection_pool=client.connection_pool)
    flat.set_response_callback("XRANGE", _as_sent)
    return flat


def _as_sent(response: Any, **options: Any) -> Any:
    return response


def idempotency_key_for(game_id: str, key: str | None) -> str:
    # A key must be named even when unused, and on the game's own slot.
    return idempotency_key(game_id, key or "-")


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
