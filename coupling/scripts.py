"""The coupling facility's atomic primitives: one Lua script each.

Every script is a named constant headed by its KEYS, ARGV and return value. They share
a prelude of helpers (``_PRELUDE``): each script carries, in front of it, the prelude's
definitions it uses (and only those), so that it is still one self-contained EVALSHA.
Times are the simulator's, passed in ``ARGV`` as decimal text (Python's ``repr`` of a
float reads back exactly); nothing here calls Redis TIME or sets a TTL.

Message keys are integers (``qsg.core.geometry.message_key``: priority first on a
priority queue, then arrival; below 2^53, so a Lua number and a sorted-set score hold
them exactly); they travel as decimal strings. The structure's geometry (element and
control bytes, entries and elements per KB of SIZE, the key's layout) is
``qsg.core.geometry``'s, substituted into the scripts' text when they are built: no
script types one of its numbers. Key names are built inside the scripts from
the prefixes in ``KEYS`` (the layout is in ``coupling.keys``): a unit of work can span
queues, and a scan walks them, so not every key can be named in advance. That is fine
on one server; the QSG hash tag keeps a group in one slot on a cluster.

Reason codes come back as negative status values (``coupling.status``: ``FULL``,
``STORAGE_FULL``, ``CF_LEVEL``) for the store to raise as MQ errors; a script never
raises them itself, so a refused call changes nothing.

What a script costs the server, in instructions (``./dev bench cf_instructions``, on
Valkey 9, whose Lua reaches commands through its module API): a plain put+get pair is
about 273,000, of which the 12 ``redis.call``s take about 73,000 (some 6,000 each: the
arguments made into server strings and freed, the call, the reply turned back into Lua
values; the commands themselves are 46,000 of it), the Lua around them about 117,000,
the two script calls' own set-up and replies about 32,000 and Lua's garbage collector
about 15,000. Every argument and every field an ``HMGET`` names costs 1,500 to 2,500,
and every number Lua prints (``string.format``) a ``sprintf`` of about 2,300, so the
scripts read only the fields they use, hand numbers to ``redis.call`` as numbers (the
server prints an integral one as an integer) and keep a message's attributes in its
record's field and a structure's usage in one counter (``coupling.keys`` has the
layout). docs/speed.md says what was tried and what would cut it further.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from string import Template

from coupling.codec import FIELD_TAGS
from coupling.status import Status, lua_constants
from qsg import CMQC
from qsg.core import geometry, offload


@dataclass(frozen=True)
class Script:
    """A Lua script and its SHA1, under which it is registered once per connection."""

    name: str
    source: str
    sha: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sha", hashlib.sha1(self.source.encode()).hexdigest())


#: A structure's usage is kept as one counter, entries x USAGE_BASE + elements: the
#: server's 64-bit integer holds it exactly while entries stay under 9 x 10^8, hence a
#: structure's largest SIZE, ``geometry.MAX_SIZE_KB`` (whose elements are fewer than
#: USAGE_BASE).
USAGE_BASE = 10**10
#: How many expired keys the scan script reads from the expiry index at a time.
SCAN_CHUNK = 256

#: Status values the scripts return first (``coupling.status``), under their old names.
OK, FULL, STORAGE_FULL, CF_LEVEL = Status.OK, Status.FULL, Status.STORAGE_FULL, Status.CF_LEVEL
STALE_TOKEN, NO_QUEUE = Status.STALE_TOKEN, Status.NO_QUEUE
BACKED_OUT = Status.BACKED_OUT

#: The prelude's text: named placeholders (``$SHIFT``...) where a number or name of
#: another module goes, filled from ``_SUBSTITUTIONS`` when the scripts are built.
_PRELUDE_TEMPLATE = Template(r"""$STATUS
local T_MSGID, T_CORRELID, T_GROUPID = $T_MSGID, $T_CORRELID, $T_GROUPID
local T_SEQ, T_OFFSET, T_FLAGS, T_PERSISTENCE = $T_SEQ, $T_OFFSET, $T_FLAGS, $T_PERSISTENCE
local IN_GROUP, LAST_IN_GROUP = $IN_GROUP, $LAST_IN_GROUP
local SEGMENT, LAST_SEGMENT = $SEGMENT, $LAST_SEGMENT
-- (Constants written out: the script's constants are made once, when it is loaded.)
local NONE24 = '$NONE24'
-- The structure's geometry (qsg.core.geometry): a message key's priority unit; the bytes
-- of an element and of a message's control storage; entries and elements per KB of SIZE.
local SHIFT = $SHIFT
local ELEMENT, CONTROL = $ELEMENT_BYTES, $CONTROL_BYTES
local ENTRIES_PER_KB, ELEMENTS_PER_KB = $ENTRIES_PER_KB, $ELEMENTS_PER_KB
-- The lowest CFLEVEL that takes a message over 63 KB (qsg.core.offload).
local LARGE_MESSAGE_CF_LEVEL = $LARGE_MESSAGE_CF_LEVEL
local SCAN_CHUNK = $SCAN_CHUNK

local function fmt(n) return string.format('%.0f', n) end
local function hex(s)
  return (string.gsub(s, '.', function(c) return string.format('%02x', string.byte(c)) end))
end
-- A field of a decoded record's descriptor, or its MQMD default when not stored.
local function dfield(rec, tag, default)
  local v = rec[2][tag]
  if v == nil then return default end
  return v
end
-- A message's entry in the m hash: its record alone (most messages), or, for a message
-- with fixed attributes, '#', their length, ':', the attributes and the record (a record
-- is a msgpack array, which never starts with '#'). The attributes are its expiry time,
-- group-index field, whether its body is offloaded and, for an expiring message that
-- asks for no expiration report, its MsgId (what a scan hands back instead of the
-- record). One read gives both: a get makes one call where a hash of its own made two.
-- Answers the record and the attributes (false for none).
local function unwrap(v)
  if string.byte(v, 1) ~= 35 then return v, false end
  local n, from = string.match(v, '^#(%d+):()')
  local stop = from + tonumber(n)
  local expires, group, off, id = string.match(string.sub(v, from, stop - 1),
    '^([^;]*);([^;]*);([^;]*);(.*)$$')
  return string.sub(v, stop), {expires = tonumber(expires), group = group ~= '' and group or nil,
    off = off == '1', id = id ~= '' and id or nil}
end
local function record_of(P, key)
  return cmsgpack.unpack((unwrap(redis.call('HGET', P .. 'm', key))))
end
-- A message's attributes (false for none) and record (nil if there is no such message).
local function attrs_of(P, key)
  local v = redis.call('HGET', P .. 'm', key)
  if not v then return false, nil end
  local record, at = unwrap(v)
  return at, record
end
-- The length of the data a record holds, and the length of its msgpack head: a record is
-- [data, descriptor, ...] (coupling.codec), so both are read from its first bytes, not
-- decoded. The data is a raw string (0xa0..0xbf fixraw, 0xd9 str8, 0xda raw16, 0xdb
-- raw32) or nil (0xc0: the data is offloaded).
local function data_of(record)
  local b = string.byte(record, 2)
  if b < 192 then return b - 160, 1 end
  if b == 192 then return 0, 1 end
  if b == 218 then
    local x, y = string.byte(record, 3, 4)
    return x * 0x100 + y, 3
  end
  if b == 217 then return string.byte(record, 3), 2 end
  local w, x, y, z = string.byte(record, 3, 6)
  return ((w * 0x100 + x) * 0x100 + y) * 0x100 + z, 5
end
-- The elements a message takes in its structure: its data there and its control storage
-- (qsg.core.geometry.elements).
local function elements(record) return math.ceil((data_of(record) + CONTROL) / ELEMENT) end
-- How full a structure is, in per cent: of its entries or of its elements, the fuller
-- (qsg.core.geometry.percent_full; a structure's maxima are never 0).
local function percent_full(entries, used, max_entries, max_elements)
  return 100 * math.max(entries / max_entries, used / max_elements)
end
-- Whether a structure with entries and used elements in use takes one more message of
-- more elements: an entry and more elements free (qsg.core.geometry.has_room).
local function has_room(entries, used, more, max_entries, max_elements)
  return entries < max_entries and used + more <= max_elements
end
-- The queue's state in one read: nil if there is no such queue. k is its ordering
-- ('0' priority, '1' FIFO) followed by its structure's accounting key (none: empty).
-- nlock and nback count the entries of the l and b hashes, so that the common paths skip
-- them when empty. (Only what the scripts after a put need: each field read costs the
-- server a string made, looked up and handed to Lua. A put reads its own.)
local function state_of(P)
  local h = redis.call('HMGET', P .. 'h', 'k', 'nlock', 'nback')
  if not h[1] then return nil end
  local nlock, nback = h[2], h[3]
  return {k = h[1], s = string.sub(h[1], 2),
          nlock = (nlock == '0' or not nlock) and 0 or tonumber(nlock),
          nback = (nback == '0' or not nback) and 0 or tonumber(nback)}
end
-- A structure's usage is one counter, entries x 10^10 + elements (exact in the server's
-- 64-bit integers and, read as text, in Lua): a put counts both in one HINCRBY, a get
-- frees both in one. (A number handed to redis.call is printed by the server, as an
-- integer when it is one, which costs less than Lua's own string.format.)
local USE = $USAGE_BASE
local function free(S, entries, used) redis.call('HINCRBY', S, 'use', -(entries * USE + used)) end
-- The usage counter's text for entries and elements, and back (elements < 10^10).
local function usage(entries, used)
  if entries == 0 then return string.format('%.0f', used) end
  return string.format('%.0f%010.0f', entries, used)
end
local function usage_of(text)
  return tonumber(string.sub(text, 1, -11)) or 0, tonumber(string.sub(text, -10))
end
local function body_length(P, key, rec)
  if rec[1] then return string.len(rec[1]) end
  return redis.call('HSTRLEN', P .. 'f', key)
end
-- What a get or browse returns for one message: key, record, offloaded body, BackoutCount.
-- record and at: the message's (nil: read them). Answers the record and at.
local function export(P, st, key, at, out, record)
  if record == nil then at, record = attrs_of(P, key) end
  out[#out + 1] = key
  out[#out + 1] = record
  out[#out + 1] = at and at.off and redis.call('HGET', P .. 'f', key) or false
  out[#out + 1] = st.nback > 0 and tonumber(redis.call('HGET', P .. 'b', key) or '0') or 0
  return record, at
end
-- The members' logs of the structure whose key is S (qsg.core.cflog, whose rules these
-- mirror; coupling.keys.log_key): outside the structure's namespace, so that its failure
-- leaves them whole. 'p' hash: place (queue prefix .. key, as in the backup) -> put
-- record, msgpack {m entry, offloaded body or false, BackoutCount 0, member}; 'g' hash:
-- place -> the member that got that backed-up message; 'n' hash: member -> records it
-- wrote since the backup (netted ones included: LOGRECS).
local function log_of(S) return string.sub(S, 1, -2) .. '#log:' end
local function log_put(S, member, place, entry, body)
  local L = log_of(S)
  redis.call('HSET', L .. 'p', place, cmsgpack.pack({entry, body or false, 0, member}))
  redis.call('HINCRBY', L .. 'n', member, 1)
end
-- member committed a get of the message at place (false: it expired): its put record
-- goes (netted), or a backed-up message's get is recorded. A nonpersistent message has
-- neither a put record nor a place in the backup.
local function log_got(S, member, place)
  local L = log_of(S)
  if redis.call('HDEL', L .. 'p', place) == 0 then
    if not member or redis.call('HEXISTS', S .. 'bk', place) == 0 then return end
    redis.call('HSET', L .. 'g', place, member)
  elseif not member then
    return
  end
  redis.call('HINCRBY', L .. 'n', member, 1)
end
-- The member a unit-of-work token belongs to (coupling.keys.owner_of).
local function member_of(token) return string.match(token, '^[^/]*') end
-- Remove a message for good; it is already out of the visible order. used is the
-- elements it takes; at its attributes (both nil: look them up). member: the member
-- whose committed get it is (false: it expired; nil: an uncommitted put or a queue
-- deleted, which no log records).
local function forget(P, st, key, used, at, member)
  if member ~= nil and st.s ~= '' then log_got(st.s, member, P .. key) end
  if at == nil then
    local record
    at, record = attrs_of(P, key)
    if not record then return end  -- no such message: nothing to free
    used = elements(record)
  end
  redis.call('HDEL', P .. 'm', key)
  if at then
    if at.expires then redis.call('ZREM', P .. 'x', key) end
    if at.off then redis.call('HDEL', P .. 'f', key) end
    if at.group then redis.call('HDEL', P .. 'g', at.group) end
  end
  if st.nback > 0 and redis.call('HDEL', P .. 'b', key) == 1 then
    st.nback = st.nback - 1
    redis.call('HINCRBY', P .. 'h', 'nback', -1)
  end
  if st.nlock > 0 and redis.call('HDEL', P .. 'l', key) == 1 then
    st.nlock = st.nlock - 1
    redis.call('HINCRBY', P .. 'h', 'nlock', -1)
  end
  if st.s ~= '' then free(st.s, 1, used) end
end
-- Remove a visible message (an expired one): out of the order, the depth and the store.
local function discard(P, st, key, at, out)
  local record
  record, at = export(P, st, key, at, out)
  redis.call('ZREM', P .. 'o', key)
  redis.call('HINCRBY', P .. 'h', 'depth', -1)
  forget(P, st, key, elements(record), at, false)
end
local function visible(P, st, key, handle)
  if not redis.call('ZSCORE', P .. 'o', key) then return false end
  if st.nlock == 0 then return true end
  local owner = redis.call('HGET', P .. 'l', key)
  return (not owner) or owner == handle
end
-- The keys of every segment of rec's logical message in offset order, or nil if one
-- is missing or not visible to handle.
local function segments(P, st, rec, handle)
  local gid = hex(dfield(rec, T_GROUPID, NONE24))
  local seq, offset, keys = dfield(rec, T_SEQ, 1), 0, {}
  while true do
    local key = redis.call('HGET', P .. 'g', gid .. ':' .. fmt(seq) .. ':' .. fmt(offset))
    if not key or not visible(P, st, key, handle) then return nil end
    keys[#keys + 1] = key
    local part = record_of(P, key)
    if bit.band(dfield(part, T_FLAGS, 0), LAST_SEGMENT) ~= 0 then return keys end
    offset = offset + body_length(P, key, part)
  end
end
-- Whether every logical message of rec's group is visible (by its first segment).
local function whole_group(P, st, rec, handle)
  if bit.band(dfield(rec, T_FLAGS, 0), IN_GROUP + LAST_IN_GROUP) == 0 then return true end
  local gid = hex(dfield(rec, T_GROUPID, NONE24))
  local seq = 1
  while true do
    local key = redis.call('HGET', P .. 'g', gid .. ':' .. fmt(seq) .. ':0')
    if not key or not visible(P, st, key, handle) then return false end
    local part = record_of(P, key)
    if bit.band(dfield(part, T_FLAGS, 0), LAST_IN_GROUP) ~= 0 then return true end
    seq = seq + 1
  end
end
local function parse_entry(entry) return string.match(entry, '^(%a)|(.*)|(%d+)$$') end
-- The state of each queue a unit of work touched, read once per script.
local function states()
  local cache = {}
  return function(P)
    local st = cache[P]
    if st == nil then
      st = state_of(P) or false
      cache[P] = st
    end
    return st
  end
end
local function commit_entry(kind, P, st, key, member)
  if not st or redis.call('HDEL', P .. 'u', key) == 0 then return end
  if kind == 'P' then
    redis.call('ZADD', P .. 'o', key, key)
    if st.s ~= '' then  -- a persistent put goes into the member's log
      local entry = redis.call('HGET', P .. 'm', key)
      local record, at = unwrap(entry)
      if dfield(cmsgpack.unpack(record), T_PERSISTENCE, 0) == 1 then
        log_put(st.s, member, P .. key, entry, at and at.off and redis.call('HGET', P .. 'f', key))
      end
    end
  else
    forget(P, st, key, nil, nil, member)
  end
end
local function backout_entry(kind, P, st, key)
  if not st or redis.call('HDEL', P .. 'u', key) == 0 then return end
  if kind == 'P' then
    forget(P, st, key)
    redis.call('HINCRBY', P .. 'h', 'depth', -1)
  else
    if redis.call('HINCRBY', P .. 'b', key, 1) == 1 then
      st.nback = st.nback + 1
      redis.call('HINCRBY', P .. 'h', 'nback', 1)
    end
    redis.call('ZADD', P .. 'o', key, key)  -- back at its own place: the key keeps arrival order
    redis.call('HINCRBY', P .. 'h', 'depth', 1)
  end
end
-- Back out every entry of a unit of work, newest first; answers how many there were.
local function backout_uow(U, uows, token)
  local entries = redis.call('LRANGE', U, 0, -1)
  local state = states()
  for i = #entries, 1, -1 do
    local kind, P, key = parse_entry(entries[i])
    backout_entry(kind, P, state(P), key)
  end
  redis.call('DEL', U)
  redis.call('SREM', uows, token)
  return #entries
end
-- Every unit of work of the members members[first..] loses its entries on the queues
-- of the structure whose key is S (their prefixes start with it) and is marked in the
-- QSG's lostuow hash (G: the QSG's prefix) with the structure's name.
local function lose_uows(S, G, name, members, first)
  local n = string.len(S)
  for i = first, #members do
    local uows = G .. 'uows:' .. members[i]
    for _, token in ipairs(redis.call('SMEMBERS', uows)) do
      local U = G .. 'uow:' .. token
      local kept, hit = {}, false
      for _, entry in ipairs(redis.call('LRANGE', U, 0, -1)) do
        local _, P = parse_entry(entry)
        if string.sub(P, 1, n) == S then hit = true else kept[#kept + 1] = entry end
      end
      if hit then
        redis.call('DEL', U)
        if #kept > 0 then redis.call('RPUSH', U, unpack(kept))
        else redis.call('SREM', uows, token) end
        redis.call('HSET', G .. 'lostuow', token, name)
      end
    end
  end
end
-- Release the locks held by owner (a handle, or every handle of a queue manager).
local function release_locks(P, owner)
  local held = redis.call('HGETALL', P .. 'l')
  local n = 0
  for i = 1, #held, 2 do
    local who = held[i + 1]
    if who == owner or string.sub(who, 1, string.len(owner) + 1) == owner .. '/' then
      redis.call('HDEL', P .. 'l', held[i])
      n = n + 1
    end
  end
  if n > 0 then redis.call('HINCRBY', P .. 'h', 'nlock', -n) end
  return n
end
""")
#: What fills the prelude's placeholders: the status codes (``coupling.status``), the
#: record's field tags (``coupling.codec``), MQMF flags, and the structure's geometry
#: (``qsg.core.geometry``).
_SUBSTITUTIONS: dict[str, object] = dict(
    STATUS=lua_constants().rstrip("\n"),
    T_MSGID=FIELD_TAGS["MsgId"],
    T_CORRELID=FIELD_TAGS["CorrelId"],
    T_GROUPID=FIELD_TAGS["GroupId"],
    T_SEQ=FIELD_TAGS["MsgSeqNumber"],
    T_OFFSET=FIELD_TAGS["Offset"],
    T_FLAGS=FIELD_TAGS["MsgFlags"],
    T_PERSISTENCE=FIELD_TAGS["Persistence"],
    IN_GROUP=CMQC.MQMF_MSG_IN_GROUP,
    LAST_IN_GROUP=CMQC.MQMF_LAST_MSG_IN_GROUP,
    SEGMENT=CMQC.MQMF_SEGMENT,
    LAST_SEGMENT=CMQC.MQMF_LAST_SEGMENT,
    NONE24="\\0" * 24,
    SHIFT=2**geometry.SEQ_BITS,
    ELEMENT_BYTES=geometry.ELEMENT_BYTES,
    CONTROL_BYTES=geometry.CONTROL_BYTES,
    ENTRIES_PER_KB=geometry.ENTRIES_PER_KB,
    ELEMENTS_PER_KB=geometry.ELEMENTS_PER_KB,
    LARGE_MESSAGE_CF_LEVEL=offload.LARGE_MESSAGE_CF_LEVEL,
    SCAN_CHUNK=SCAN_CHUNK,
    USAGE_BASE=USAGE_BASE,
)
_PRELUDE = _PRELUDE_TEMPLATE.substitute(_SUBSTITUTIONS)


#: What a top-level line of the prelude defines: ``local function name`` or ``local a, b =``.
_DEFINES = re.compile(r"local (?:function (\w+)|([\w, ]+?) =)")


def _definitions(prelude: str) -> list[tuple[frozenset[str], str]]:
    """The prelude's top-level definitions in order, each with the names it defines and
    its text (the comment lines just above it included)."""
    chunks: list[list[str]] = []
    above: list[str] = []  # comment lines waiting for the definition they describe
    for line in prelude.splitlines(keepends=True):
        if line.startswith("--"):
            above.append(line)
        elif line.startswith("local "):
            chunks.append([*above, line])
            above = []
        elif chunks:  # a function's body, its ``end`` or a blank line
            chunks[-1] += [*above, line]
            above = []
    definitions = []
    for chunk in chunks:
        head = next(line for line in chunk if line.startswith("local "))
        match = _DEFINES.match(head)
        assert match is not None, head
        names = [match[1]] if match[1] else [n.strip() for n in match[2].split(",")]
        definitions.append((frozenset(names), "".join(chunk)))
    return definitions


_HELPERS = _definitions(_PRELUDE)
_WORD = re.compile(r"\w+")


def _script(name: str, body: str, *, grows: bool = False) -> Script:
    """The script ``body`` behind the prelude's definitions it uses, directly or through
    another: Lua builds every ``local function`` each time a script runs, and the whole
    prelude cost the server about 9 us a call, a fifth of a put.

    The first line declares the script's flags (a Lua shebang): a script that ``grows``
    what the facility holds (a put, a new queue or structure) is refused whole by a
    server at its ``maxmemory`` (OOM, which the store reports as a full facility),
    before it writes anything; every other one may run there (``allow-oom``), so that
    getters, commits and scans can still free what a full facility holds. Without a
    shebang the server would refuse only the script's first write that needs memory,
    after the writes before it: half a call."""
    needed: set[str] = set()
    words = set(_WORD.findall(body))
    for names, text in reversed(_HELPERS):  # a definition uses only those before it
        if names & words:
            needed |= names
            words |= set(_WORD.findall(text))
    used = "".join(text for names, text in _HELPERS if names & needed)
    shebang = "#!lua\n" if grows else "#!lua flags=allow-oom\n"
    return Script(name, shebang + used + body)


DEFINE_STRUCTURE = _script(
    "DEFINE_STRUCTURE",
    r"""
-- A CF structure: SIZE KB hold ENTRIES_PER_KB x SIZE entries and ELEMENTS_PER_KB x SIZE
-- elements; redefining keeps what it holds and its usage. use and max are the usage and
-- the maxima as one number each, entries x 10^10 + elements (see free): a put reads both
-- in one HMGET.
-- KEYS[1] the structure's key; ARGV[1] name; ARGV[2] CFLEVEL; ARGV[3] SIZE in KB;
-- ARGV[4] its offload rules, 'threshold:bytes,...' lowest threshold first ('' = none)
-- returns {OK}
local size = tonumber(ARGV[3])
local most, room = ENTRIES_PER_KB * size, ELEMENTS_PER_KB * size
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'cflevel', ARGV[2], 'size_kb', size,
           'max_entries', most, 'max_elements', room, 'max', usage(most, room))
if (ARGV[4] or '') ~= '' then redis.call('HSET', KEYS[1], 'offld', ARGV[4])
else redis.call('HDEL', KEYS[1], 'offld') end
redis.call('HSETNX', KEYS[1], 'use', 0)
return {OK}
""",
    grows=True,
)

CREATE_QUEUE = _script(
    "CREATE_QUEUE",
    r"""
-- KEYS[1] the queue's prefix; KEYS[2] the QSG's set of queue prefixes
-- ARGV[1] ordering (0 priority, 1 FIFO); ARGV[2] the structure's accounting key or ''
-- returns {OK, 1 if created / 0 if it was there} or {NO_QUEUE, ordering it has}
local P = KEYS[1]
local have = redis.call('HGET', P .. 'h', 'k')
if have then
  have = string.sub(have, 1, 1)
  if have ~= ARGV[1] then return {NO_QUEUE, tonumber(have)} end
  return {OK, 0}
end
redis.call('HSET', P .. 'h', 'seq', 0, 'depth', 0, 'k', ARGV[1] .. ARGV[2], 'nlock', 0, 'nback', 0)
redis.call('SADD', KEYS[2], P)
return {OK, 1}
""",
    grows=True,
)

DELETE_QUEUE = _script(
    "DELETE_QUEUE",
    r"""
-- KEYS[1] the queue's prefix; KEYS[2] the QSG's set of queue prefixes
-- returns {OK, how many messages went with it}
local P = KEYS[1]
local st = state_of(P)
if not st then return {NO_QUEUE} end
local keys = redis.call('HKEYS', P .. 'm')
for _, key in ipairs(keys) do forget(P, st, key, nil, nil, false) end  -- put records go too
for _, s in ipairs({'h', 'o', 'm', 'f', 'x', 'u', 'b', 'l', 'g'}) do
  redis.call('DEL', P .. s)
end
redis.call('SREM', KEYS[2], P)
return {OK, #keys}
""",
)

PUT = _script(
    "PUT",
    r"""
-- KEYS[1] the queue's prefix; KEYS[2] the unit of work's entry list and KEYS[3] its
-- queue manager's set of units of work (both only with a unit-of-work token)
-- ARGV[1] record; ARGV[2] unit-of-work token ('' = outside syncpoint); ARGV[3] MAXDEPTH;
-- ARGV[4] expiry time ('' = unlimited); ARGV[5] priority (0..9); ARGV[6] group-index
-- field ('' = not in a group or segmented); ARGV[7] offloaded body ('' = none);
-- ARGV[8] the MsgId of an expiring message that asks for no expiration report ('' = the
-- scan reads the record back); ARGV[9] 'L' and the member putting a persistent message
-- ('' = nonpersistent: no log record); trailing empty ARGVs may be left out
-- returns {OK, key} ({OK, key, 1} when its data is offloaded) | {FULL}
-- | {STORAGE_FULL, structure} | {CF_LEVEL, level, structure} | {NO_QUEUE}
local P = KEYS[1]
local PH = P .. 'h'
local h = redis.call('HMGET', PH, 'k', 'depth', 'seq')
if not h[1] then return {NO_QUEUE} end
local depth, S = tonumber(h[2]), string.sub(h[1], 2)
if depth >= tonumber(ARGV[3]) then return {FULL} end
local expiry, group, body, scan_id = ARGV[4], ARGV[6] or '', ARGV[7] or '', ARGV[8] or ''
local record, offloaded = ARGV[1], body ~= ''
if S ~= '' then
  if offloaded then  -- read the level only when it matters
    local c = redis.call('HMGET', S, 'cflevel', 'name')
    local level = tonumber(c[1])
    if level < LARGE_MESSAGE_CF_LEVEL then return {CF_LEVEL, level, c[2]} end
  end
  local c = redis.call('HMGET', S, 'use', 'max', 'offld')
  local entries, used = usage_of(c[1])
  local max_entries, max_elements = usage_of(c[2])
  -- The structure's offload rules (qsg.core.offload): looked at only once it is as full
  -- as the lowest threshold; an offloaded message keeps its control information here
  -- and its data goes where any offloaded body goes (the f hash, flagged in its head).
  if c[3] and not offloaded then
    local full = percent_full(entries, used, max_entries, max_elements)
    if full >= tonumber(string.match(c[3], '^%d+')) then
      local n, head = data_of(record)  -- the data: after the record's array head and its own
      for th, size in string.gmatch(c[3], '(%d+):(%d+)') do
        if full >= tonumber(th) and n > tonumber(size) then
          body, offloaded = string.sub(record, head + 2, head + 1 + n), true
          record = string.sub(record, 1, 1) .. '\192' .. string.sub(record, head + 2 + n)
          break
        end
      end
    end
  end
  -- Full for this message: refused before anything changed (qsg.core.geometry).
  local more = elements(record)
  if not has_room(entries, used, more, max_entries, max_elements) then
    return {STORAGE_FULL, redis.call('HGET', S, 'name')}
  end
  redis.call('HINCRBY', S, 'use', USE + more)
end
-- The key stays a number (below 2^53, exact): redis.call prints it, and the reply
-- carries it as an integer.
local seq = tonumber(h[3]) + 1
local key
if string.byte(h[1], 1) == 49 then key = seq else key = (9 - tonumber(ARGV[5])) * SHIFT + seq end
redis.call('HSET', PH, 'seq', seq, 'depth', depth + 1)
local entry = record
if expiry ~= '' or group ~= '' or offloaded then
  local a = expiry .. ';' .. group .. ';' .. (offloaded and '1' or '') .. ';' .. scan_id
  entry = '#' .. #a .. ':' .. a .. record
  redis.call('HSET', P .. 'm', key, entry)
  if offloaded then redis.call('HSET', P .. 'f', key, body) end
  if expiry ~= '' then redis.call('ZADD', P .. 'x', expiry, key) end
  if group ~= '' then redis.call('HSET', P .. 'g', group, key) end
else
  redis.call('HSET', P .. 'm', key, record)
end
if ARGV[2] == '' then
  redis.call('ZADD', P .. 'o', key, key)
  local logged = ARGV[9] or ''
  if logged ~= '' and S ~= '' then
    log_put(S, string.sub(logged, 2), P .. key, entry, offloaded and body)
  end
else
  redis.call('HSET', P .. 'u', key, 'P:' .. ARGV[2])
  redis.call('RPUSH', KEYS[2], 'P|' .. P .. '|' .. fmt(key))
  redis.call('SADD', KEYS[3], ARGV[2])
end
if offloaded then return {OK, key, 1} end
return {OK, key}
""",
    grows=True,
)

GET = _script(
    "GET",
    r"""
-- The first visible selected live message, discarding the expired selected ones passed
-- on the way (a get discards exactly what it would have returned: IBM's "Expiry (MQLONG)").
-- KEYS[1] the queue's prefix; KEYS[2] the unit of work's entry list and KEYS[3] its
-- queue manager's set of units of work (both only with a unit-of-work token)
-- ARGV[1] now; ARGV[2] unit-of-work token or ''; ARGV[3] syncpoint (0 no, 1 yes,
-- 2 if persistent); ARGV[4] longest body accepted (-1 = any); ARGV[5] '1' to accept a
-- truncated message; ARGV[6] '1' to browse (take nothing); ARGV[7] browse cursor ('' =
-- from the start; exclusive); ARGV[8] selection, msgpack [MsgId, CorrelId, GroupId,
-- group hex, MsgSeqNumber, Offset, first_items, whole_group, whole_message, complete,
-- key], nil for any ('' = the common get: the head); ARGV[9] the asking handle ('' none);
-- ARGV[10] the member getting (its log records a committed get of a persistent message);
-- trailing empty ARGVs may be left out
-- returns {OK, key or false, too_long 0/1, {parts...}, {discarded...}} where each part
-- and discard is four items: key, record, offloaded body or false, BackoutCount
local P = KEYS[1]
-- (ARGV[1], now, is read as a number only for a message with an expiry: every tonumber
-- is a strtod, and most messages have none.)
local uow, syncpoint = ARGV[2], ARGV[3]
local max_length, accept_truncated = ARGV[4] == '-1' and -1 or tonumber(ARGV[4]), ARGV[5] == '1'
local browse, after, handle = ARGV[6] == '1', ARGV[7] or '', ARGV[9] or ''
local member = ARGV[10] or ''
local selection = ARGV[8] or ''
local sel = selection ~= '' and cmsgpack.unpack(selection) or nil
local st = state_of(P)
if not st then return {NO_QUEUE} end
local gone, found, rec, at, raw = {}, nil, nil, nil, nil  -- raw: found's record, read
local popped = false  -- the found message is already out of the visible order

if selection == '' and after == '' and st.nlock == 0 then
  -- The common get: the head of the queue, discarding expired heads.
  while true do
    local top
    if browse then top = redis.call('ZRANGE', P .. 'o', 0, 0)
    else top = redis.call('ZPOPMIN', P .. 'o') end
    if #top == 0 then break end
    local key = top[1]
    local a, record = attrs_of(P, key)
    if a and a.expires and a.expires <= tonumber(ARGV[1]) then
      export(P, st, key, a, gone, record)
      if browse then redis.call('ZREM', P .. 'o', key) end
      redis.call('HINCRBY', P .. 'h', 'depth', -1)
      forget(P, st, key, elements(record), a, false)
    else
      found, at, raw, popped = key, a, record, not browse
      break
    end
  end
else
  -- Expired candidates are discarded after the search, as the in-process store does,
  -- so that they still count while later candidates' groups are checked.
  sel = sel or {}
  local expired = {}
  local function consider(key)
    if not visible(P, st, key, handle) then return nil end
    local a, record = attrs_of(P, key)
    local r = cmsgpack.unpack(record)
    local d = r[2]
    if sel[1] and (d[T_MSGID] or NONE24) ~= sel[1] then return nil end
    if sel[2] and (d[T_CORRELID] or NONE24) ~= sel[2] then return nil end
    if sel[3] and (d[T_GROUPID] or NONE24) ~= sel[3] then return nil end
    if sel[5] and dfield(r, T_SEQ, 1) ~= sel[5] then return nil end
    if sel[6] and dfield(r, T_OFFSET, 0) ~= sel[6] then return nil end
    if sel[7] and (dfield(r, T_SEQ, 1) ~= 1 or dfield(r, T_OFFSET, 0) ~= 0) then return nil end
    if sel[8] and not whole_group(P, st, r, handle) then return nil end
    local flags = dfield(r, T_FLAGS, 0)
    if (sel[9] or sel[10]) and bit.band(flags, SEGMENT + LAST_SEGMENT) ~= 0 then
      if sel[10] and dfield(r, T_OFFSET, 0) ~= 0 then return nil end
      if not segments(P, st, r, handle) then return nil end
    end
    if r[4] and r[4] <= tonumber(ARGV[1]) then
      expired[#expired + 1] = key
      return nil
    end
    at, raw = a, record
    return r
  end
  if sel[11] then
    if redis.call('ZSCORE', P .. 'o', sel[11]) then
      rec = consider(sel[11])
      if rec then found = sel[11] end
    end
  elseif sel[3] and sel[5] and sel[6] then
    local key = redis.call('HGET', P .. 'g', sel[4] .. ':' .. fmt(sel[5]) .. ':' .. fmt(sel[6]))
    if key and redis.call('ZSCORE', P .. 'o', key) then
      rec = consider(key)
      if rec then found = key end
    end
  else
    local cursor = after == '' and '-inf' or ('(' .. after)
    while not found do
      local chunk = redis.call('ZRANGEBYSCORE', P .. 'o', cursor, '+inf', 'LIMIT', 0, 64)
      if #chunk == 0 then break end
      for _, key in ipairs(chunk) do
        rec = consider(key)
        if rec then
          found = key
          break
        end
      end
      cursor = '(' .. chunk[#chunk]
    end
  end
  for _, key in ipairs(expired) do discard(P, st, key, nil, gone) end
end
if not found then return {OK, false, 0, {}, gone} end

-- The record is decoded only when an option needs it: the common get never does.
local function found_record()
  if not rec then rec = cmsgpack.unpack(raw) end
  return rec
end
-- keys: every segment of a whole logical message (MQGMO_COMPLETE_MSG), in offset order;
-- nil for the one message found (no tables for the common get).
local keys = nil
if sel and sel[10]
    and bit.band(dfield(found_record(), T_FLAGS, 0), SEGMENT + LAST_SEGMENT) ~= 0 then
  keys = segments(P, st, rec, handle)
  if keys and #keys == 1 then keys = nil end
end
local parts, records, ats = {}, nil, nil
local _, at1 = export(P, st, found, at, parts, raw)
if keys then
  records, ats = {raw}, {at1}
  for i = 2, #keys do records[i], ats[i] = export(P, st, keys[i], nil, parts) end
end
if max_length >= 0 and not accept_truncated then
  local total = 0
  if keys then
    for i, key in ipairs(keys) do
      total = total + body_length(P, key, i == 1 and found_record() or record_of(P, key))
    end
  elseif (at1 and at1.off) or string.len(raw) > max_length then
    total = body_length(P, found, found_record())
  end
  if total > max_length then
    if popped then redis.call('ZADD', P .. 'o', found, found) end
    return {OK, found, 1, parts, gone}
  end
end
if browse then return {OK, found, 0, parts, gone} end
local in_uow = uow ~= '' and (syncpoint == '1' or
  (syncpoint == '2' and dfield(found_record(), T_PERSISTENCE, 2) == 1))
local function take(key, visible, record, at)
  if visible then redis.call('ZREM', P .. 'o', key) end
  if st.nlock > 0 and redis.call('HDEL', P .. 'l', key) == 1 then
    st.nlock = st.nlock - 1
    redis.call('HINCRBY', P .. 'h', 'nlock', -1)
  end
  if in_uow then
    redis.call('HSET', P .. 'u', key, 'G:' .. uow)
    redis.call('RPUSH', KEYS[2], 'G|' .. P .. '|' .. key)
    redis.call('SADD', KEYS[3], uow)
  else
    forget(P, st, key, elements(record), at, member)
  end
end
if keys then
  for i, key in ipairs(keys) do take(key, not (popped and i == 1), records[i], ats[i]) end
  redis.call('HINCRBY', P .. 'h', 'depth', -#keys)
else
  take(found, not popped, raw, at1)
  redis.call('HINCRBY', P .. 'h', 'depth', -1)
end
return {OK, found, 0, parts, gone}
""",
)

LOCK = _script(
    "LOCK",
    r"""
-- MQGMO_LOCK: hide a message from every handle but one (releasing what it held before).
-- KEYS[1] the queue's prefix; ARGV[1] message key ('' = only release); ARGV[2] handle
-- returns {OK, 1 if locked}
local P = KEYS[1]
release_locks(P, ARGV[2])
if ARGV[1] ~= '' and redis.call('HEXISTS', P .. 'm', ARGV[1]) == 1 then
  if redis.call('HSET', P .. 'l', ARGV[1], ARGV[2]) == 1 then
    redis.call('HINCRBY', P .. 'h', 'nlock', 1)
  end
  return {OK, 1}
end
return {OK, 0}
""",
)

COUNT = _script(
    "COUNT",
    r"""
-- The messages of a priority or more on a queue, expired ones not yet discarded
-- included: committed ones, and uncommitted puts unless only committed ones are asked
-- for (a shared queue's trigger count).
-- KEYS[1] the queue's prefix; ARGV[1] the lowest priority counted (0..9);
-- ARGV[2] '1' to count committed messages only
-- returns {OK, count} | {NO_QUEUE}
local P = KEYS[1]
local st = state_of(P)
if not st then return {NO_QUEUE} end
local lowest = tonumber(ARGV[1])
local function priority(key)
  if string.byte(st.k, 1) ~= 49 then return 9 - math.floor(tonumber(key) / SHIFT) end
  return record_of(P, key)[5]
end
local n
if lowest == 0 then
  n = redis.call('ZCARD', P .. 'o')
elseif string.byte(st.k, 1) ~= 49 then  -- the key orders by priority first
  n = redis.call('ZCOUNT', P .. 'o', '-inf', '(' .. fmt((10 - lowest) * SHIFT))
else
  n = 0
  for _, key in ipairs(redis.call('ZRANGE', P .. 'o', 0, -1)) do
    if priority(key) >= lowest then n = n + 1 end
  end
end
if ARGV[2] ~= '1' then
  local held = redis.call('HGETALL', P .. 'u')
  for i = 1, #held, 2 do
    if string.sub(held[i + 1], 1, 1) == 'P' and priority(held[i]) >= lowest then n = n + 1 end
  end
end
return {OK, n}
""",
)

CONTENTS = _script(
    "CONTENTS",
    r"""
-- The MsgIds of a queue's messages that backing out every unit of work would leave
-- there: committed ones (visible, locked, or expired and not yet discarded) and those an
-- uncommitted get holds; not uncommitted puts. Reads only (a run's final state).
-- KEYS[1] the queue's prefix
-- returns {OK, MsgId...} | {NO_QUEUE}
local P = KEYS[1]
if not state_of(P) then return {NO_QUEUE} end
local puts = {}
local held = redis.call('HGETALL', P .. 'u')
for i = 1, #held, 2 do
  if string.byte(held[i + 1], 1) == 80 then puts[held[i]] = true end  -- 'P:': a put
end
local out = {OK}
local stored = redis.call('HGETALL', P .. 'm')
for i = 1, #stored, 2 do
  if not puts[stored[i]] then
    out[#out + 1] = dfield(cmsgpack.unpack((unwrap(stored[i + 1]))), T_MSGID, NONE24)
  end
end
return out
""",
)

COMMIT = _script(
    "COMMIT",
    r"""
-- KEYS[1] the unit of work's entry list; KEYS[2] its queue manager's set of units;
-- KEYS[3] the QSG's lostuow hash (STRUCTURE_FAIL marks there the units it took work from)
-- ARGV[1] the unit-of-work token
-- returns {OK, how many entries were committed} or, for a unit a structure's failure
-- took work from, {BACKED_OUT, the structure}: the rest of it backed out, none committed
local structure = redis.call('HGET', KEYS[3], ARGV[1])
if structure then
  redis.call('HDEL', KEYS[3], ARGV[1])
  backout_uow(KEYS[1], KEYS[2], ARGV[1])
  return {BACKED_OUT, structure}
end
local entries = redis.call('LRANGE', KEYS[1], 0, -1)
local state = states()
local member = member_of(ARGV[1])
for _, entry in ipairs(entries) do
  local kind, P, key = parse_entry(entry)
  commit_entry(kind, P, state(P), key, member)
end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
return {OK, #entries}
""",
)

BACKOUT = _script(
    "BACKOUT",
    r"""
-- Uncommitted puts vanish; uncommitted gets come back with BackoutCount + 1. A mark
-- of a structure's failure goes too: the connection's next unit of work is a new one.
-- KEYS[1] the unit of work's entry list; KEYS[2] its queue manager's set of units;
-- KEYS[3] the QSG's lostuow hash
-- ARGV[1] the unit-of-work token
-- returns {OK, how many entries were backed out}
redis.call('HDEL', KEYS[3], ARGV[1])
return {OK, backout_uow(KEYS[1], KEYS[2], ARGV[1])}
""",
)

SCAN = _script(
    "SCAN",
    r"""
-- The expiry scan of one queue: discard committed, visible messages whose expiry has
-- passed, through the expiry index (a scan costs what expired, not the depth). Messages
-- in a unit of work stay for later, as in the in-process store.
-- KEYS[1] the queue's prefix; KEYS[2] the scan lease ('' = unfenced)
-- ARGV[1] now; ARGV[2] the fencing token ('' = unfenced); ARGV[3] most to discard;
-- ARGV[4] the holder's clock when it checked the fence (the lease's expiry is judged by
-- it, as the holder's own check was: qsg.core.lease.Fence.at)
-- returns {OK, 1 if more may be left, {discarded...}, {MsgIds...}} or {STALE_TOKEN, the
-- current token or false}: the discarded messages that ask for an expiration report come
-- back whole (four items each, as GET), the others by their MsgId alone, so that a scan
-- does not read, send and decode records that nothing needs.
local P = KEYS[1]
local now = tonumber(ARGV[1])
if KEYS[2] ~= '' then
  local lease = redis.call('HMGET', KEYS[2], 'token', 'expires')
  if lease[1] ~= ARGV[2] or not lease[2] or tonumber(lease[2]) <= tonumber(ARGV[4]) then
    return {STALE_TOKEN, lease[1]}
  end
end
local st = state_of(P)
if not st then return {NO_QUEUE} end
local limit, skipped, gone, ids, n = tonumber(ARGV[3]), 0, {}, {}, 0
local pending = redis.call('HLEN', P .. 'u') > 0  -- nothing below changes it
local entries, used = 0, 0
-- Each batch of expired keys is removed with one command per hash or set, not one per
-- message: a scan's cost is then mostly reading what it hands back for the reports.
local function remove(keys, groups, offloaded)
  if #keys == 0 then return end
  redis.call('ZREM', P .. 'o', unpack(keys))
  redis.call('ZREM', P .. 'x', unpack(keys))
  redis.call('HDEL', P .. 'm', unpack(keys))
  if #groups > 0 then redis.call('HDEL', P .. 'g', unpack(groups)) end
  if #offloaded > 0 then redis.call('HDEL', P .. 'f', unpack(offloaded)) end
  if st.nback > 0 then
    local d = redis.call('HDEL', P .. 'b', unpack(keys))
    if d > 0 then redis.call('HINCRBY', P .. 'h', 'nback', -d); st.nback = st.nback - d end
  end
  if st.nlock > 0 then
    local d = redis.call('HDEL', P .. 'l', unpack(keys))
    if d > 0 then redis.call('HINCRBY', P .. 'h', 'nlock', -d); st.nlock = st.nlock - d end
  end
  redis.call('HINCRBY', P .. 'h', 'depth', -#keys)
  if st.s ~= '' then  -- their put records leave the members' logs (cflog: expired)
    local places = {}
    for i, key in ipairs(keys) do places[i] = P .. key end
    redis.call('HDEL', log_of(st.s) .. 'p', unpack(places))
  end
end
while n < limit do
  local chunk = redis.call('ZRANGEBYSCORE', P .. 'x', '-inf', ARGV[1],
                           'LIMIT', skipped, SCAN_CHUNK)
  if #chunk == 0 then break end
  local keys, groups, offloaded = {}, {}, {}
  for _, key in ipairs(chunk) do
    if pending and redis.call('HEXISTS', P .. 'u', key) == 1 then
      skipped = skipped + 1
    elseif n < limit then
      local at, record = attrs_of(P, key)
      if at and at.id then
        ids[#ids + 1] = at.id
      else
        export(P, st, key, at, gone, record)
      end
      entries, used = entries + 1, used + elements(record)
      keys[#keys + 1] = key
      if at and at.group then groups[#groups + 1] = at.group end
      if at and at.off then offloaded[#offloaded + 1] = key end
      n = n + 1
    end
  end
  remove(keys, groups, offloaded)
end
if st.s ~= '' and entries > 0 then free(st.s, entries, used) end
if n < limit then return {OK, 0, gone, ids} end
return {OK, 1, gone, ids}
""",
)

RECOVER = _script(
    "RECOVER",
    r"""
-- Peer recovery of one life of a failed queue manager: back out every unit of work it
-- left in flight and release its handles' locks. Exactly one caller runs it.
-- KEYS[1] the recovery claim; KEYS[2] the failed member's set of units of work;
-- KEYS[3] the QSG's set of queue prefixes; KEYS[4] the QSG's prefix
-- ARGV[1] the failed queue manager; ARGV[2] the recovering queue manager
-- returns {1, units backed out, entries backed out, locks released} when this caller
-- recovered, or {0, who did}
if not redis.call('SET', KEYS[1], ARGV[2], 'NX') then
  return {0, redis.call('GET', KEYS[1])}
end
local units, entries, locks = 0, 0, 0
for _, token in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  entries = entries + backout_uow(KEYS[4] .. 'uow:' .. token, KEYS[2], token)
  units = units + 1
end
for _, P in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  locks = locks + release_locks(P, ARGV[1])
end
return {1, units, entries, locks}
""",
)

CF_RECOVER = _script(
    "CF_RECOVER",
    r"""
-- The coupling facility is back after a failure (RECOVER CFSTRUCT). Every unit of work
-- in flight at the failure is backed out and every browse lock released (the
-- connections that held them are gone); then each queue keeps what its structure can
-- recover: its persistent messages (a RECOVER(YES) structure), or nothing. Each lease's
-- fencing token is raised to at least its floor, so tokens still only increase if the
-- facility lost its state.
-- KEYS[1] the QSG's prefix; KEYS[2] the QSG's set of queue prefixes
-- ARGV[1] n, the number of members; ARGV[2..n+1] the members; then m, the number of
-- queues, and m pairs (queue prefix, '1' to keep persistent messages or '' to keep
-- none); then pairs (lease key, lowest token) to the end
-- returns {units backed out, messages lost on each of the m queues in order...}
local n = tonumber(ARGV[1])
local units = 0
for i = 2, n + 1 do
  local uows = KEYS[1] .. 'uows:' .. ARGV[i]
  for _, token in ipairs(redis.call('SMEMBERS', uows)) do
    backout_uow(KEYS[1] .. 'uow:' .. token, uows, token)
    units = units + 1
  end
end
for _, P in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if redis.call('EXISTS', P .. 'l') == 1 then
    redis.call('DEL', P .. 'l')
    redis.call('HSET', P .. 'h', 'nlock', 0)
  end
end
local out = {units}
local m = tonumber(ARGV[n + 2])
local at = n + 3
for _ = 1, m do
  local P, keep = ARGV[at], ARGV[at + 1] == '1'
  at = at + 2
  local st, lost = state_of(P), 0
  if st then
    for _, key in ipairs(redis.call('HKEYS', P .. 'm')) do
      if not keep or dfield(record_of(P, key), T_PERSISTENCE, 0) ~= 1 then
        redis.call('ZREM', P .. 'o', key)
        redis.call('HINCRBY', P .. 'h', 'depth', -1)
        forget(P, st, key)
        lost = lost + 1
      end
    end
  end
  out[#out + 1] = lost
end
while at < #ARGV do
  local floor = tonumber(ARGV[at + 1])
  if tonumber(redis.call('HGET', ARGV[at], 'token') or '0') < floor then
    redis.call('HSET', ARGV[at], 'token', floor)
  end
  at = at + 2
end
return out
""",
)

LEASE_ACQUIRE = _script(
    "LEASE_ACQUIRE",
    r"""
-- Take or renew a lease. A holder renewing before expiry keeps its token; any other
-- acquisition (a new holder, or the old one after its lease ran out) gets a new one.
-- KEYS[1] the lease; ARGV[1] member; ARGV[2] now; ARGV[3] lease length (seconds)
-- returns {1, token, 'renewed'|'acquired', previous holder or false} or
-- {0, current token, holder, expiry as text}
local now = tonumber(ARGV[2])
local lease = redis.call('HMGET', KEYS[1], 'holder', 'expires', 'token')
local holder, expires = lease[1], tonumber(lease[2] or '0')
local until_ = string.format('%.17g', now + tonumber(ARGV[3]))
if holder and holder ~= '' and expires > now then
  if holder ~= ARGV[1] then return {0, lease[3], holder, lease[2]} end
  redis.call('HSET', KEYS[1], 'expires', until_)
  return {1, lease[3], 'renewed', holder}
end
local token = redis.call('HINCRBY', KEYS[1], 'token', 1)
redis.call('HSET', KEYS[1], 'holder', ARGV[1], 'expires', until_)
return {1, tostring(token), 'acquired', holder or false}
""",
)

LEASE_RELEASE = _script(
    "LEASE_RELEASE",
    r"""
-- Give a lease up on a clean stop, if this member still holds it with this token.
-- KEYS[1] the lease; ARGV[1] member; ARGV[2] token
-- returns {1} when released, {0} when it was not held so
local lease = redis.call('HMGET', KEYS[1], 'holder', 'token')
if lease[1] ~= ARGV[1] or lease[2] ~= ARGV[2] then return {0} end
redis.call('HDEL', KEYS[1], 'holder', 'expires')
return {1}
""",
)

AUDIT = _script(
    "AUDIT",
    r"""
-- What is wrong with the QSG's derived state, recounted from the messages in one atomic
-- look (RedisStore.audit): each queue's depth, its nlock and nback counts, its arrival
-- counter, its messages each visible or held for a unit of work and not both, its u
-- entries against the units of work, its x, f and g indexes against the messages'
-- attributes, its locks and backout counts against its messages; each structure's usage
-- and maxima. Reads every message: for tests and the end of a world.
-- KEYS[1] the QSG's set of queue prefixes; KEYS[2] the QSG's prefix
-- ARGV the keys of structures to audit besides those the queues are on
-- returns {where, problem, ...}: the queue's prefix ('' for a structure) and a line
local wrong = {}
local function say(P, ...) wrong[#wrong + 1] = P; wrong[#wrong + 1] = table.concat({...}) end
local counted = {}  -- structure key -> {entries, elements} its queues' messages take
for _, S in ipairs(ARGV) do counted[S] = {0, 0} end
local lists = {}  -- unit-of-work token -> its entries, as a set
local function entries_of(token)
  local set = lists[token]
  if set == nil then
    set = {}
    for _, e in ipairs(redis.call('LRANGE', KEYS[2] .. 'uow:' .. token, 0, -1)) do
      set[e] = true
    end
    lists[token] = set
  end
  return set
end
local function count(set)
  local n = 0
  for _ in pairs(set) do n = n + 1 end
  return n
end
-- A hash of the queue keyed by message against the messages: each field a stored
-- message's key, and (want) one the messages' attributes name. Answers how many fields
-- it has.
local function against(P, what, hash, stored, want)
  local fields = redis.call('HKEYS', P .. hash)
  for _, field in ipairs(fields) do
    if not stored[field] then
      say(P, what, ' names message ', field, ', which is not stored')
    elseif want and not want[field] then
      say(P, what, ' has message ', field, ', which it does not say')
    end
  end
  return #fields
end
for _, P in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local h = redis.call('HMGET', P .. 'h', 'k', 'depth', 'seq', 'nlock', 'nback')
  for i = 2, 5 do h[i] = h[i] or 'none' end
  if not h[1] then
    say(P, 'is listed in the group but has no state')
  else
    local S, by_priority = string.sub(h[1], 2), string.byte(h[1], 1) ~= 49
    local shown, nshown = {}, 0
    local o = redis.call('ZRANGE', P .. 'o', 0, -1, 'WITHSCORES')
    for i = 1, #o, 2 do
      shown[o[i]], nshown = true, nshown + 1
      if tonumber(o[i + 1]) ~= tonumber(o[i]) then
        say(P, 'message ', o[i], ' is ordered at ', o[i + 1], ', not at its key')
      end
    end
    local held, puts = {}, 0
    local u = redis.call('HGETALL', P .. 'u')
    for i = 1, #u, 2 do
      local key, kind, token = u[i], string.sub(u[i + 1], 1, 1), string.sub(u[i + 1], 3)
      held[key] = true
      if kind == 'P' then puts = puts + 1 end
      if shown[key] then say(P, 'message ', key, ' is visible and held for ', token) end
      if not entries_of(token)[kind .. '|' .. P .. '|' .. key] then
        say(P, 'message ', key, ' is held for unit of work ', token, ', which has no entry for it')
      end
      local owner = string.match(token, '^[^/]*')
      if redis.call('SISMEMBER', KEYS[2] .. 'uows:' .. owner, token) == 0 then
        say(P, 'unit of work ', token, ' holds message ', key, ' but ', owner, ' does not list it')
      end
    end
    if tonumber(h[2]) ~= nshown + puts then
      say(P, 'depth ', h[2], ', but ', nshown, ' visible messages and ', puts,
          ' uncommitted puts')
    end
    local stored, entries, used = {}, 0, 0
    local expiring, offloaded, grouped = {}, {}, {}
    local m = redis.call('HGETALL', P .. 'm')
    for i = 1, #m, 2 do
      local key = m[i]
      local record, at = unwrap(m[i + 1])
      stored[key], entries, used = true, entries + 1, used + elements(record)
      if not shown[key] and not held[key] then
        say(P, 'message ', key, ' is neither visible nor in a unit of work')
      end
      local n = tonumber(key)
      local number = by_priority and n % SHIFT or n
      if number > (tonumber(h[3]) or -1) then
        say(P, 'message ', key, ' is numbered ', fmt(number), ', past the last number ', h[3])
      end
      if by_priority then
        local priority = cmsgpack.unpack(record)[5]
        if 9 - math.floor(n / SHIFT) ~= priority then
          say(P, 'message ', key, ' is keyed apart from its priority ', priority)
        end
      end
      if at then
        if at.expires then expiring[key] = at.expires end
        if at.off then offloaded[key] = true end
        if at.group then grouped[at.group] = key end
      end
    end
    for key in pairs(shown) do
      if not stored[key] then say(P, 'visible message ', key, ' is not stored') end
    end
    for key in pairs(held) do
      if not stored[key] then say(P, 'message ', key, ' is held but not stored') end
    end
    local x, indexed = redis.call('ZRANGE', P .. 'x', 0, -1, 'WITHSCORES'), {}
    for i = 1, #x, 2 do
      indexed[x[i]] = tonumber(x[i + 1])
      if expiring[x[i]] ~= indexed[x[i]] then
        say(P, 'the expiry index has message ', x[i], ' at ', x[i + 1], ', which it does not say')
      end
    end
    for key, at in pairs(expiring) do
      if indexed[key] == nil then
        say(P, 'message ', key, ' expires at ', at, ', which the expiry index lacks')
      end
    end
    local nf = against(P, 'the offloaded data', 'f', stored, offloaded)
    if nf ~= count(offloaded) then
      say(P, count(offloaded), ' messages are offloaded, and ', nf, ' have their data apart')
    end
    local g = redis.call('HGETALL', P .. 'g')
    local index = {}
    for i = 1, #g, 2 do
      index[g[i]] = g[i + 1]
      if grouped[g[i]] ~= g[i + 1] then
        say(P, 'the group index has ', g[i], ' at message ', g[i + 1], ', not of it')
      end
    end
    for field, key in pairs(grouped) do
      if index[field] ~= key then
        say(P, 'message ', key, ' of a group is not in the group index')
      end
    end
    local nlock = against(P, 'a lock', 'l', stored)
    if nlock ~= tonumber(h[4]) then say(P, 'nlock ', h[4], ', but ', nlock, ' locks') end
    local nback = against(P, 'a backout count', 'b', stored)
    if nback ~= tonumber(h[5]) then
      say(P, 'nback ', h[5], ', but ', nback, ' backout counts')
    end
    if S ~= '' then
      local c = counted[S] or {0, 0}
      counted[S] = {c[1] + entries, c[2] + used}
    end
  end
end
for S, c in pairs(counted) do
  local s = redis.call('HMGET', S, 'use', 'max', 'size_kb', 'name')
  if not s[1] then
    if c[1] > 0 then say('', 'the CF structure ', S, ' of ', c[1], ' messages is not defined') end
  else
    local entries, used = usage_of(s[1])
    if entries ~= c[1] or used ~= c[2] then
      say('', 'CF structure ', s[4], ': ', fmt(entries), ' entries and ', fmt(used),
          ' elements in use, but its queues\' messages take ', c[1], ' and ', c[2])
    end
    local size = tonumber(s[3])
    local most, room = ENTRIES_PER_KB * size, ELEMENTS_PER_KB * size
    if s[2] ~= usage(most, room) then
      say('', 'CF structure ', s[4], ': maxima ', s[2], ', but SIZE ', s[3], ' holds ',
          fmt(most), ' entries and ', fmt(room), ' elements')
    end
  end
end
return wrong
""",
)

# ---- one structure's failure, backup and recovery (qsg.core.cfstate) -----------------
# A structure's key S holds, beside its definition: failed (when it failed; absent while
# active), lost, backup_at, backup_n, backup_bytes. S .. 'bk' is its backup (by queue
# prefix .. key) and S .. 'qs' keeps its queues' orderings and arrival counters while it
# is failed. A kept message is msgpack {its m-hash entry, its offloaded body or false,
# its BackoutCount}. The members' logs since the backup are outside S's namespace
# (log_of(S), written by the put, get and commit scripts: see the prelude).

STRUCTURE_LOSE_UOWS = _script(
    "STRUCTURE_LOSE_UOWS",
    r"""
-- An instance of a structure is about to be replaced by another's image (a rebuild):
-- every unit of work loses its entries on it, as in the structure's failure.
-- KEYS[1] the structure's key; KEYS[2] the QSG's prefix
-- ARGV[1] the structure's name; ARGV[2..] the QSG's members
-- returns {OK}
lose_uows(KEYS[1], KEYS[2], ARGV[1], ARGV, 2)
return {OK}
""",
)

STRUCTURE_FAIL = _script(
    "STRUCTURE_FAIL",
    r"""
-- RESET CFSTRUCT ACTION(FAIL): the structure's nonpersistent messages are lost (its
-- persistent ones are in its backup and the members' logs, which stay), its queues are gone
-- (every call on them finds NO_QUEUE, which the store answers 2373) and every unit of
-- work loses its entries on them and is marked in the QSG's lostuow hash.
-- KEYS[1] the structure's key; KEYS[2] the QSG's set of queue prefixes; KEYS[3] the
-- QSG's prefix; ARGV[1] now; ARGV[2..] the QSG's members
-- returns {OK, nonpersistent messages lost} | {STRUCTURE_STATE}
local S, n = KEYS[1], string.len(KEYS[1])
if redis.call('HEXISTS', S, 'failed') == 1 then return {STRUCTURE_STATE} end
local mine = {}
for _, P in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if string.sub(P, 1, n) == S then mine[P] = true end
end
lose_uows(S, KEYS[3], redis.call('HGET', S, 'name'), ARGV, 2)
local lost = 0
for P in pairs(mine) do
  local puts = {}
  local held = redis.call('HGETALL', P .. 'u')
  for i = 1, #held, 2 do
    if string.byte(held[i + 1], 1) == 80 then puts[held[i]] = true end  -- 'P:': a put
  end
  local stored = redis.call('HGETALL', P .. 'm')
  for i = 1, #stored, 2 do
    if not puts[stored[i]] then
      local record = unwrap(stored[i + 1])
      if dfield(cmsgpack.unpack(record), T_PERSISTENCE, 0) ~= 1 then lost = lost + 1 end
    end
  end
  local h = redis.call('HMGET', P .. 'h', 'k', 'seq')
  redis.call('HSET', S .. 'qs', P, h[1] .. '|' .. h[2])
  for _, s in ipairs({'h', 'o', 'm', 'f', 'x', 'u', 'b', 'l', 'g'}) do
    redis.call('DEL', P .. s)
  end
  redis.call('SREM', KEYS[2], P)
end
redis.call('HSET', S, 'failed', ARGV[1], 'lost', lost, 'use', 0)
return {OK, lost}
""",
)

STRUCTURE_DISCONNECT = _script(
    "STRUCTURE_DISCONNECT",
    r"""
-- A member lost connectivity to the structure and tolerates it (CFCONLOS TOLERATE): as
-- its peers' recovery of its connection to the structure, each of its units of work
-- gives back its entries on the structure's queues (newest first: puts vanish, gets
-- come back) and is marked in the QSG's lostuow hash ('structure/member': its commit
-- then backs out the rest); its handles' locks on those queues are released.
-- KEYS[1] the structure's key; KEYS[2] the QSG's set of queue prefixes; KEYS[3] the
-- QSG's prefix; ARGV[1] the member
-- returns {OK, units backed out there, entries backed out}
local S, n = KEYS[1], string.len(KEYS[1])
local mine = {}
for _, P in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if string.sub(P, 1, n) == S then mine[P] = true end
end
local uows = KEYS[3] .. 'uows:' .. ARGV[1]
local state = states()
local units, backed = 0, 0
for _, token in ipairs(redis.call('SMEMBERS', uows)) do
  local U = KEYS[3] .. 'uow:' .. token
  local entries = redis.call('LRANGE', U, 0, -1)
  local kept = {}
  for _, entry in ipairs(entries) do
    local _, P = parse_entry(entry)
    if not mine[P] then kept[#kept + 1] = entry end
  end
  if #kept < #entries then
    for i = #entries, 1, -1 do
      local kind, P, key = parse_entry(entries[i])
      if mine[P] then backout_entry(kind, P, state(P), key) end
    end
    redis.call('DEL', U)
    if #kept > 0 then redis.call('RPUSH', U, unpack(kept))
    else redis.call('SREM', uows, token) end
    redis.call('HSET', KEYS[3] .. 'lostuow', token,
               redis.call('HGET', S, 'name') .. '/' .. ARGV[1])
    units, backed = units + 1, backed + #entries - #kept
  end
end
for P in pairs(mine) do release_locks(P, ARGV[1]) end
return {OK, units, backed}
""",
)

STRUCTURE_BACKUP = _script(
    "STRUCTURE_BACKUP",
    r"""
-- BACKUP CFSTRUCT: the structure's committed persistent messages put at least EXCLINT
-- seconds ago (the younger ones the log covers), replacing the last backup; every
-- member's log is truncated to the records after it.
-- KEYS[1] the structure's key; KEYS[2] the QSG's set of queue prefixes
-- ARGV[1] now; ARGV[2] EXCLINT in seconds
-- returns {OK} | {STRUCTURE_STATE} (failed)
local S, n = KEYS[1], string.len(KEYS[1])
if redis.call('HEXISTS', S, 'failed') == 1 then return {STRUCTURE_STATE} end
local before = tonumber(ARGV[1]) - tonumber(ARGV[2])
redis.call('DEL', S .. 'bk')
local count, bytes = 0, 0
for _, P in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if string.sub(P, 1, n) == S then
    local puts = {}
    local held = redis.call('HGETALL', P .. 'u')
    for i = 1, #held, 2 do
      if string.byte(held[i + 1], 1) == 80 then puts[held[i]] = true end
    end
    local stored = redis.call('HGETALL', P .. 'm')
    for i = 1, #stored, 2 do
      local key, v = stored[i], stored[i + 1]
      if not puts[key] then
        local record, at = unwrap(v)
        local rec = cmsgpack.unpack(record)
        if dfield(rec, T_PERSISTENCE, 0) == 1 and rec[3] <= before then
          local body = at and at.off and redis.call('HGET', P .. 'f', key) or false
          local backout = tonumber(redis.call('HGET', P .. 'b', key) or '0')
          redis.call('HSET', S .. 'bk', P .. key, cmsgpack.pack({v, body, backout}))
          count = count + 1
          bytes = bytes + body_length(P, key, rec)
        end
      end
    end
  end
end
redis.call('HSET', S, 'backup_at', ARGV[1], 'backup_n', count, 'backup_bytes', bytes)
-- Every member's log truncated to the records after the backup's point (cflog.truncate):
-- the put records of messages younger than EXCLINT stay; the get records go.
local L = log_of(S)
redis.call('DEL', L .. 'g', L .. 'n')
local puts = redis.call('HGETALL', L .. 'p')
for i = 1, #puts, 2 do
  if redis.call('HEXISTS', S .. 'bk', puts[i]) == 1 then
    redis.call('HDEL', L .. 'p', puts[i])
  else
    redis.call('HINCRBY', L .. 'n', cmsgpack.unpack(puts[i + 1])[4], 1)
  end
end
return {OK}
""",
)

STRUCTURE_RECOVER = _script(
    "STRUCTURE_RECOVER",
    r"""
-- RECOVER CFSTRUCT of a failed structure: its queues back, then (TYPE(NORMAL)) the
-- backup less the members' logs' gets plus their puts (cfstate.replay), each message at
-- its own key with its indexes and BackoutCount, backup and logs left as they are (a
-- second failure replays them again); TYPE(PURGE) (and a RECOVER(NO) reallocation)
-- leaves it empty and forgets the backup and the logs.
-- KEYS[1] the structure's key; KEYS[2] the QSG's set of queue prefixes
-- ARGV[1] '1' to purge; ARGV[2] '1' to apply the log (always, but for a known bug)
-- returns {OK, from the backup, from the log, log records read} | {STRUCTURE_STATE}
local S = KEYS[1]
if redis.call('HEXISTS', S, 'failed') == 0 then return {STRUCTURE_STATE} end
local saved = redis.call('HGETALL', S .. 'qs')
for i = 1, #saved, 2 do
  local k, seq = string.match(saved[i + 1], '^(.*)|(%d+)$')
  redis.call('HSET', saved[i] .. 'h', 'seq', seq, 'depth', 0, 'k', k, 'nlock', 0, 'nback', 0)
  redis.call('SADD', KEYS[2], saved[i])
end
redis.call('DEL', S .. 'qs')
local purge, replays = ARGV[1] == '1', ARGV[2] == '1'
local L = log_of(S)
local records = 0
local written = redis.call('HVALS', L .. 'n')
for i = 1, #written do records = records + tonumber(written[i]) end
local from_backup, from_log = 0, 0
local function restore(field, kept)
  local P, key = string.match(field, '^(.*:)(%d+)$')
  if redis.call('EXISTS', P .. 'h') == 0 then return end
  local item = cmsgpack.unpack(kept)
  local record, at = unwrap(item[1])
  redis.call('HSET', P .. 'm', key, item[1])
  if at then
    if at.off then redis.call('HSET', P .. 'f', key, item[2]) end
    if at.expires then redis.call('ZADD', P .. 'x', at.expires, key) end
    if at.group then redis.call('HSET', P .. 'g', at.group, key) end
  end
  if item[3] > 0 then
    redis.call('HSET', P .. 'b', key, item[3])
    redis.call('HINCRBY', P .. 'h', 'nback', 1)
  end
  redis.call('ZADD', P .. 'o', key, key)
  redis.call('HINCRBY', P .. 'h', 'depth', 1)
  redis.call('HINCRBY', S, 'use', USE + elements(record))
end
if not purge then
  local gets = {}
  if replays then
    for _, field in ipairs(redis.call('HKEYS', L .. 'g')) do gets[field] = true end
  end
  local backup = redis.call('HGETALL', S .. 'bk')
  for i = 1, #backup, 2 do
    if not gets[backup[i]] then
      restore(backup[i], backup[i + 1])
      from_backup = from_backup + 1
    end
  end
  if replays then
    local puts = redis.call('HGETALL', L .. 'p')
    for i = 1, #puts, 2 do
      restore(puts[i], puts[i + 1])
      from_log = from_log + 1
    end
  end
else
  redis.call('DEL', S .. 'bk', L .. 'p', L .. 'g', L .. 'n')
  redis.call('HDEL', S, 'backup_at', 'backup_n', 'backup_bytes')
  records = 0
end
redis.call('HDEL', S, 'failed')
return {OK, from_backup, from_log, records}
""",
    grows=True,
)

CONN_TAG_CLAIM = _script(
    "CONN_TAG_CLAIM",
    r"""
-- Add a use of a connection tag, if the tag has not changed since it was read (the rule
-- itself is qsg.core.conntag's, decided on that reading).
-- KEYS[1] the tag's hash; KEYS[2] the queue manager's set of tags
-- ARGV[1] the version read; ARGV[2] q_mgr/life/connection; ARGV[3] option/space;
-- ARGV[4] the tag in hexadecimal
-- returns 1 when added, 0 when the tag changed meanwhile (nothing written)
local version = tonumber(redis.call('HGET', KEYS[1], '#') or '0')
if version ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], '#', version + 1, ARGV[2], ARGV[3])
redis.call('SADD', KEYS[2], ARGV[4])
return 1
""",
)

CONN_TAG_RELEASE = _script(
    "CONN_TAG_RELEASE",
    r"""
-- A use of a connection tag ended (MQDISC, or its application's end).
-- KEYS[1] the tag's hash; ARGV[1] q_mgr/life/connection
-- returns 1 if it was kept, else 0
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[1], '#', 1)
return 1
""",
)

CONN_TAG_END_LIVES = _script(
    "CONN_TAG_END_LIVES",
    r"""
-- Peer recovery or a restart resolved a queue manager's lives before one: their uses of
-- connection tags end.
-- KEYS[1] the queue manager's set of tags; ARGV[1] the prefix of a tag's key (its hex
-- follows); ARGV[2] the queue manager; ARGV[3] the first life kept
-- returns how many uses ended
local ended, before = 0, tonumber(ARGV[3])
for _, hex in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local key = ARGV[1] .. hex
  local changed, left = false, false
  for _, use in ipairs(redis.call('HKEYS', key)) do
    local q_mgr, life = string.match(use, '^(.*)/(%d+)/%d+$')
    if q_mgr == ARGV[2] then
      if tonumber(life) < before then
        redis.call('HDEL', key, use)
        ended, changed = ended + 1, true
      else
        left = true
      end
    end
  end
  if changed then redis.call('HINCRBY', key, '#', 1) end
  if not left then redis.call('SREM', KEYS[1], hex) end
end
return ended
""",
)

ALL = (
    DEFINE_STRUCTURE,
    CREATE_QUEUE,
    DELETE_QUEUE,
    PUT,
    GET,
    LOCK,
    COUNT,
    CONTENTS,
    COMMIT,
    BACKOUT,
    SCAN,
    RECOVER,
    CF_RECOVER,
    LEASE_ACQUIRE,
    LEASE_RELEASE,
    AUDIT,
    STRUCTURE_LOSE_UOWS,
    STRUCTURE_FAIL,
    STRUCTURE_DISCONNECT,
    STRUCTURE_BACKUP,
    STRUCTURE_RECOVER,
    CONN_TAG_CLAIM,
    CONN_TAG_RELEASE,
    CONN_TAG_END_LIVES,
)
