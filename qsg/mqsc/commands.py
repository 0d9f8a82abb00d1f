"""A queue manager's MQSC command processor: one command's text in, its reply lines out.

The reply reads as IBM MQ for z/OS writes it: a line per object (``CSQM401I !QM1
QUEUE(APP.IN) TYPE(QLOCAL) QSGDISP(QMGR) CURDEPTH(3)``), then ``CSQ9022I ... NORMAL
COMPLETION``; a command that fails ends with ``CSQ9023E ... ABNORMAL COMPLETION`` after
the reason (a CSQ9 syntax message, CSQM125I for an object that is not there). A failed
command never ends the console: the caller counts it, as runmqsc does.

DEFINE, ALTER and DELETE go through the MQSC reader (``qsg.mqsc.reader``) to the rules
layer's queue manager; DISPLAY reads a ``Snapshot`` (``qsg.mqsc.display``). CMDSCOPE is
the caller's (the actors know which members are up): ``scope`` says what a command asks
for and ``scoped`` wraps the members' replies in the CSQN137I/CSQN121I/CSQN122I lines of
a command sent across the queue-sharing group.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core import cfstate
from qsg.core.copies import Generated
from qsg.core.errors import MQMIError
from qsg.core.objects import CFStructure, ChannelDefinition
from qsg.core.qmgr import QMgr
from qsg.core.queue import QueueDefinition
from qsg.mqsc import display, lexer, reader, schema
from qsg.mqsc.display import DisplayError, Request
from qsg.mqsc.errors import MQSCError
from qsg.mqsc.pcf_structures import EXCLINT_RANGE
from qsg.mqsc.status import Snapshot

#: The module z/OS names in each completion message, by verb.
_CSECT = {
    "DISPLAY": "CSQMDRTS",
    "DEFINE": "CSQMMSGP",
    "ALTER": "CSQMMSGP",
    "DELETE": "CSQMUQLC",
    "GROUP": "CSQ5DQSG",
    "CHANNEL": "CSQMSCHL",
    "START": "CSQMSCHL",
    "STOP": "CSQMSCHL",
    "RESET": "CSQMRCFS",
    "BACKUP": "CSQMBCFS",
    "RECOVER": "CSQMRCFS",
}
#: The verbs the console takes, with their synonyms.
VERBS = {
    "DISPLAY": "DISPLAY",
    "DIS": "DISPLAY",
    "CLEAR": "CLEAR",
    "START": "START",
    "STA": "START",
    "STOP": "STOP",
    "RESET": "RESET",
    "PING": "PING",
    "RESOLVE": "RESOLVE",
    "RES": "RESOLVE",
    "BACKUP": "BACKUP",
    "RECOVER": "RECOVER",
    "REC": "RECOVER",
    **schema.VERBS,
}
#: What each CF structure command takes besides CFSTRUCT(name), and its values ("" for
#: an integer): RESET CFSTRUCT ACTION(FAIL), BACKUP CFSTRUCT EXCLINT(seconds), RECOVER
#: CFSTRUCT TYPE(NORMAL | PURGE) ("RESET CFSTRUCT", "BACKUP CFSTRUCT", "RECOVER
#: CFSTRUCT" on z/OS).
_STRUCTURE_OPTIONS = {
    "RESET": ("ACTION", ("FAIL",)),
    "BACKUP": ("EXCLINT", ()),
    "RECOVER": ("TYPE", ("NORMAL", "PURGE")),
}
#: The CF structure commands IBM's syntax gives a CMDSCOPE, which is then ' ' or a queue
#: manager's name, never * ("BACKUP CFSTRUCT", "RECOVER CFSTRUCT": "CMDSCOPE(' ') |
#: CMDSCOPE(qmgr-name)"): the structure is the group's, so the command runs once, on the
#: member named. RESET CFSTRUCT has none, nor have DEFINE, ALTER and DELETE CFSTRUCT
#: (nor DISPLAY CFSTRUCT and DISPLAY CFSTATUS, ``qsg.mqsc.display``): CSQ9001E.
_SCOPED_STRUCTURE_VERBS = frozenset({"BACKUP", "RECOVER"})
#: The verbs whose keywords this module reads itself (``_parse_structure``,
#: ``_parse_channel`` and those it hands CHINIT and LISTENER to, ``_parse_clear``).
_READ_HERE = frozenset({"RESET", "BACKUP", "RECOVER", "START", "STOP", "PING", "RESOLVE", "CLEAR"})


@dataclass(frozen=True, slots=True)
class Reply:
    """What a command answered, line by line, and whether it failed."""

    lines: tuple[str, ...]
    failed: bool = False
    #: Where each block of a reply gathered from several queue managers starts (a
    #: CMDSCOPE's: ``scoped``); () for one queue manager's reply, a block of its own.
    blocks: tuple[int, ...] = ()

    def sets(self) -> list[tuple[str, ...]]:
        """The reply's lines block by block (one block when it has none)."""
        starts = list(self.blocks or (0,))
        ends = [*starts[1:], len(self.lines)]
        return [self.lines[a:b] for a, b in zip(starts, ends, strict=True)]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True, slots=True)
class Parsed:
    """A command read: a DISPLAY ``request``, DEFINE/ALTER/DELETE ``commands``, or the
    ``error`` reply of a command that cannot be read. ``verb`` is what CSQ9022I quotes."""

    verb: str
    request: Request | None = None
    commands: tuple[reader.Command, ...] = ()
    error: tuple[str, str] | None = None  # (message id, text)
    clear: str = ""  # CLEAR QLOCAL(name)
    channel: str = ""  # START or STOP CHANNEL(name): the actors run it (``verb`` says which)
    #: RESET, BACKUP or RECOVER CFSTRUCT: the structures named, and ACTION, EXCLINT or
    #: TYPE's value ("" for the default).
    structures: tuple[str, ...] = ()
    option: str = ""
    #: CMDSCOPE of a DEFINE, ALTER, DELETE, CLEAR, START or STOP: "" (this queue
    #: manager), "*" or a queue manager's name (a DISPLAY's is its ``request``'s).
    cmdscope: str = ""
    #: START or STOP CHANNEL's CHLDISP ("" when not given), and whether the command is
    #: START or STOP CHINIT (``option``: STOP CHINIT's SHARED value).
    chldisp: str = ""
    chinit: bool = False
    #: START or STOP LISTENER: ``option`` its INDISP, ``address`` its IPADDR.
    listener: bool = False
    address: str = ""


def prefix(q_mgr: str) -> str:
    """The command prefix string a queue manager's messages carry: ``!QM1``."""
    return f"!{q_mgr}"


def parse(text: str) -> Parsed:
    """Read one command (continuation lines joined); ``Parsed.error`` if it is wrong."""
    chunks, problems = lexer.commands(text, "<command>")
    if problems:
        message = problems[0].message
        if "longer than" in message:
            what = message.removeprefix("a command ").upper()
            return Parsed("", error=("CSQ9017E", f"FAILURE WHILE PROCESSING THE COMMAND: {what}"))
        return Parsed("", error=("CSQ9002E", "THE COMMAND ENDS WITH A CONTINUATION CHARACTER"))
    if len(chunks) != 1:
        return Parsed("", error=("CSQ9001E", "ONE COMMAND AT A TIME"))
    items, problems = lexer.items(chunks[0], "<command>")
    if not items and not problems:
        return Parsed("", error=("CSQ9001E", "NO COMMAND"))
    if problems:
        head = items[0].word if items else text.split()[0].upper()
        return Parsed(VERBS.get(head, ""), error=_lexical(problems[0].message))
    return _parsed(items)


def parse_words(words: Sequence[tuple[str, str | None, bool]]) -> Parsed:
    """One command from its words as data (a REST request's): each (keyword, value or
    None for a bare keyword, quoted: the value keeps its case and blanks), the verb and
    the object first. Checked as ``parse`` checks a command read, but nothing is read as
    MQSC text, so no name or value can add a keyword (IBM MQ reads a REST
    ``runCommandJSON`` as "the MQSC command" its fields spell; qsg never writes it out)."""
    if not words:
        return Parsed("", error=("CSQ9001E", "NO COMMAND"))
    return _parsed([lexer.Item(w.upper(), v, q, 1, 1, 1) for w, v, q in words])


def _parsed(items: list[lexer.Item]) -> Parsed:
    """A command from its words (read from text, or given as data)."""
    head = items[0].word
    verb = VERBS.get(head, "")
    if not verb or items[0].value is not None:
        return Parsed(head, error=("CSQ9001E", f"'{head}' IS INVALID"))
    word = items[1].word if len(items) > 1 else ""
    noun = display.OBJECTS.get(word) or schema.OBJECT_TYPES.get(word) or word
    what = f"{verb} {noun}".strip()
    if verb == "DISPLAY":
        words = [(i.word, i.value, i.quoted) for i in items[1:]]
        try:
            request = display.parse(words)
        except DisplayError as error:
            return Parsed(what, error=(error.message, error.text))
        return Parsed(request.verb, request=request)
    if verb in _READ_HERE:
        # These commands' keywords are read here, not by the MQSC reader, which refuses
        # a keyword given twice: so must they, rather than take the last of the two.
        seen: set[str] = set()
        for item in items[1:]:
            if item.word in seen:
                return Parsed(what, error=("CSQ9000E", f"'{item.word}' APPEARS MORE THAN ONCE"))
            seen.add(item.word)
    if verb in _STRUCTURE_OPTIONS and not (verb == "RESET" and noun == "CHANNEL"):
        return _parse_structure(verb, items)
    scoped = [item for item in items if item.word == "CMDSCOPE"]
    if len(scoped) > 1:
        return Parsed(what, error=("CSQ9000E", "'CMDSCOPE' APPEARS MORE THAN ONCE"))
    if scoped and noun == "CFSTRUCT":
        return Parsed(what, error=("CSQ9001E", "'CMDSCOPE' IS INVALID"))
    cmdscope = ""
    if scoped:
        # CMDSCOPE says where the command runs, not what it does: taken out here, the
        # command that each queue manager runs is the rest (the actors send it).
        cmdscope = (scoped[0].value or "").strip()
        items = [item for item in items if item is not scoped[0]]
    parsed = _parse_rest(verb, what, items)
    return replace(parsed, cmdscope=cmdscope) if parsed.error is None else parsed


def _parse_rest(verb: str, what: str, items: list[lexer.Item]) -> Parsed:
    if verb == "CLEAR":
        return _parse_clear(items)
    if verb in ("START", "STOP", "PING", "RESET", "RESOLVE"):
        return _parse_channel(verb, items)
    try:
        command = reader.from_items(items, "<command>")
    except MQSCError as error:
        return Parsed(what, error=_syntax(error.problems[0].message))
    return Parsed(f"{verb} {command.object_type}", commands=(command,))


def _parse_clear(items: list[lexer.Item]) -> Parsed:
    """CLEAR QLOCAL(name): the only form z/OS has."""
    if len(items) < 2 or schema.OBJECT_TYPES.get(items[1].word) != "QLOCAL":
        word = items[1].word if len(items) > 1 else "QLOCAL"
        return Parsed("CLEAR", error=("CSQ9001E", f"'{word}' IS INVALID"))
    if not items[1].value:
        return Parsed("CLEAR QLOCAL", error=("CSQ9010E", "REQUIRED PARAMETER 'QLOCAL' IS MISSING"))
    for item in items[2:]:
        return Parsed("CLEAR QLOCAL", error=("CSQ9001E", f"'{item.word}' IS INVALID"))
    return Parsed("CLEAR QLOCAL", clear=items[1].value)


def _parse_channel(verb: str, items: list[lexer.Item]) -> Parsed:
    """START, STOP, PING, RESET and RESOLVE CHANNEL(name), of a sender channel, with
    CHLDISP and CMDSCOPE (and PING's DATALEN, RESET's SEQNUM, RESOLVE's ACTION); START
    CHINIT and STOP CHINIT [SHARED(RESTART | STOP)]."""
    what = f"{verb} CHANNEL"
    ends = verb in ("START", "STOP")
    if ends and len(items) > 1 and items[1].word == "CHINIT" and items[1].value is None:
        return _parse_chinit(verb, items)
    listener = len(items) > 1 and items[1].word in ("LISTENER", "LSTR")
    if ends and listener and items[1].value is None:
        return _parse_listener(verb, items)
    if len(items) < 2 or schema.OBJECT_TYPES.get(items[1].word) != "CHANNEL":
        word = items[1].word if len(items) > 1 else "CHANNEL"
        # The command as entered (START CMDSERV), which CSQ9023E names: not a channel's.
        return Parsed(f"{verb} {word}", error=("CSQ9001E", f"'{word}' IS INVALID"))
    if not items[1].value:
        return Parsed(what, error=("CSQ9010E", "REQUIRED PARAMETER 'CHANNEL' IS MISSING"))
    given: dict[str, str] = {}
    dispositions, option = _CHANNEL_OPTIONS.get(verb, (_ALL_CHLDISP, None))
    for item in items[2:]:
        value = (item.value or "").strip().upper()
        if item.word == "CHLDISP" and value in dispositions:
            given["CHLDISP"] = value
        elif item.word == "CMDSCOPE" and item.value is not None:
            given["CMDSCOPE"] = "" if value in ("", "' '") else value
        elif option is not None and item.word == option[0] and option[1](value):
            given["OPTION"] = value
        else:
            return Parsed(what, error=("CSQ9001E", f"'{item.word}' IS INVALID"))
    if verb == "RESOLVE" and "OPTION" not in given:
        return Parsed(what, error=("CSQ9010E", "REQUIRED PARAMETER 'ACTION' IS MISSING"))
    return Parsed(
        what,
        channel=items[1].value,
        chldisp=given.get("CHLDISP", ""),
        cmdscope=given.get("CMDSCOPE", ""),
        option=given.get("OPTION", ""),
    )


def _in(low: int, high: int) -> Callable[[str], bool]:
    return lambda value: value.isdigit() and low <= int(value) <= high


_ALL_CHLDISP = ("DEFAULT", "PRIVATE", "SHARED", "FIXSHARED")
#: PING, RESET and RESOLVE CHANNEL: the CHLDISP each takes ("PING CHANNEL", "RESET
#: CHANNEL", "RESOLVE CHANNEL" on z/OS: no FIXSHARED for the last two) and its own
#: keyword: DATALEN(16-32768), SEQNUM(1-999999999), ACTION(COMMIT | BACKOUT).
_CHANNEL_OPTIONS: dict[str, tuple[tuple[str, ...], tuple[str, Callable[[str], bool]] | None]] = {
    "PING": (_ALL_CHLDISP, ("DATALEN", _in(16, 32768))),
    "RESET": (("DEFAULT", "PRIVATE", "SHARED"), ("SEQNUM", _in(1, 999_999_999))),
    "RESOLVE": (
        ("DEFAULT", "PRIVATE", "SHARED"),
        ("ACTION", lambda value: value in ("COMMIT", "BACKOUT")),
    ),
}


#: START LISTENER's keywords with nothing to simulate.
_LISTENER_IGNORED = frozenset({("TRPTYPE", "TCP"), ("CMDSCOPE", ""), ("CMDSCOPE", "' '")})


def _parse_listener(verb: str, items: list[lexer.Item]) -> Parsed:
    """START LISTENER TRPTYPE(TCP) [PORT(n)] [IPADDR(address)] INDISP(QMGR | GROUP);
    STOP LISTENER [TRPTYPE(TCP)] [PORT(n)] [IPADDR(address)] [INDISP(...)]."""
    what = f"{verb} LISTENER"
    indisp, address = "QMGR", ""
    for item in items[2:]:
        value = (item.value or "").strip().upper()
        if item.word == "INDISP" and value in ("QMGR", "GROUP"):
            indisp = value
        elif item.word == "IPADDR" and value:
            address = value
        elif (item.word, value) in _LISTENER_IGNORED or (item.word == "PORT" and value.isdigit()):
            continue  # one simulated network: no port or transport to choose
        else:
            shown = item.word if item.value is None else f"{item.word}({item.value})"
            return Parsed(what, error=("CSQ9001E", f"'{shown}' IS INVALID"))
    return Parsed(what, option=indisp, listener=True, address=address)


def _parse_chinit(verb: str, items: list[lexer.Item]) -> Parsed:
    """START CHINIT; STOP CHINIT [SHARED(RESTART | STOP)] (RESTART by default: the
    shared sending channels it owns are restarted by the other members)."""
    what = f"{verb} CHINIT"
    option = "RESTART" if verb == "STOP" else ""
    for item in items[2:]:
        value = (item.value or "").strip().upper()
        if verb == "STOP" and item.word == "SHARED" and value in ("RESTART", "STOP"):
            option = value
        elif item.word == "CMDSCOPE" and value in ("", "' '"):
            continue
        else:
            shown = item.word if item.value is None else f"{item.word}({item.value})"
            return Parsed(what, error=("CSQ9001E", f"'{shown}' IS INVALID"))
    return Parsed(what, option=option, chinit=True)


def _parse_structure(verb: str, items: list[lexer.Item]) -> Parsed:
    """RESET CFSTRUCT(name) ACTION(FAIL), BACKUP CFSTRUCT(name) [EXCLINT(n)], RECOVER
    CFSTRUCT(name[,name...]) [TYPE(NORMAL | PURGE)]; BACKUP and RECOVER with an optional
    CMDSCOPE(' ' | qmgr-name)."""
    what = f"{verb} CFSTRUCT"
    if len(items) < 2 or items[1].word != "CFSTRUCT":
        word = items[1].word if len(items) > 1 else "CFSTRUCT"
        return Parsed(what, error=("CSQ9001E", f"'{word}' IS INVALID"))
    if not items[1].value:
        return Parsed(what, error=("CSQ9010E", "REQUIRED PARAMETER 'CFSTRUCT' IS MISSING"))
    names = tuple(n.strip() for n in items[1].value.upper().split(","))
    if verb != "RECOVER" and len(names) > 1:
        return Parsed(what, error=("CSQ9001E", f"'CFSTRUCT({items[1].value})' IS INVALID"))
    keyword, allowed = _STRUCTURE_OPTIONS[verb]
    option, cmdscope = "", ""
    for item in items[2:]:
        value = (item.value or "").upper()
        if item.word == "CMDSCOPE" and verb in _SCOPED_STRUCTURE_VERBS and item.value is not None:
            if value.strip() == "*":
                return Parsed(what, error=("CSQ9001E", f"'CMDSCOPE({item.value})' IS INVALID"))
            cmdscope = "" if value.strip() in ("", "' '") else value.strip()
            continue
        if item.word != keyword or not value:
            return Parsed(what, error=("CSQ9001E", f"'{item.word}' IS INVALID"))
        # EXCLINT is PCF's ExcludeInterval, 30 through 600 seconds.
        whole = value.isdigit() and int(value) in EXCLINT_RANGE
        if (allowed and value not in allowed) or (not allowed and not whole):
            return Parsed(what, error=("CSQ9001E", f"'{item.word}({item.value})' IS INVALID"))
        option = value
    if verb == "RESET" and not option:
        return Parsed(what, error=("CSQ9010E", "REQUIRED PARAMETER 'ACTION' IS MISSING"))
    return Parsed(what, structures=names, option=option, cmdscope=cmdscope)


def structure_command(qm: QMgr, parsed: Parsed, now: float) -> Reply:
    """RESET, BACKUP or RECOVER CFSTRUCT on ``qm``'s QSG at ``now``: each structure's
    outcome, or IBM's refusal (``qsg.core.cfstate``: MQRCCF_CF_STRUC_ERROR 3236 and its
    status) naming it, the structure unchanged."""
    me = prefix(qm.name)
    verb = parsed.verb.split()[0]
    csect = _CSECT[verb]
    if qm.qsg is None:
        return _failed(me, parsed.verb, f"CSQM090E {me} {csect} {qm.name} IS NOT IN A QSG")
    repository = qm.qsg.shared
    lines: list[str] = []
    names = list(parsed.structures)
    if verb == "BACKUP" and names[0].endswith("*"):
        names = _recoverable(repository.structures.values(), names[0])
        if not names:
            return _failed(
                me,
                parsed.verb,
                f"CSQM090E {me} {csect} CFSTRUCT({parsed.structures[0]}): no recoverable CF "
                f"structure matches {parsed.structures[0]} (MQRCCF {F.MQRCCF_CF_STRUC_ERROR}, "
                "STATUS NOT_FOUND)",
            )
    for name in names:
        try:
            if verb == "RESET":
                lost = cfstate.reset(repository, name, now)
                lines.append(
                    f"{me} CFSTRUCT({name}) STATUS(FAILED): {lost} nonpersistent messages lost"
                )
            elif verb == "BACKUP":
                exclint = int(parsed.option) if parsed.option else cfstate.DEFAULT_EXCLINT
                done = cfstate.backup(repository, name, now, exclint)
                lines.append(
                    f"{me} CFSTRUCT({name}) BACKUP: {done.backup_messages} persistent "
                    f"messages, {done.backup_bytes} bytes (EXCLINT({exclint}))"
                )
            else:
                purge = parsed.option == "PURGE"
                got = cfstate.recover(repository, name, purge, len(qm.qsg.members))
                lines.append(recovered_line(me, got))
        except cfstate.StructureError as error:
            status = _STATUS_NAMES.get(error.status, str(error.status))
            return _failed(
                me,
                parsed.verb,
                *lines,
                f"CSQM090E {me} {csect} CFSTRUCT({name}): {error} "
                f"(MQRCCF {error.reason}, STATUS {status})",
            )
    return Reply((*lines, _done(me, parsed.verb, verb)))


def _recoverable(structures: Iterable[CFStructure], generic: str) -> list[str]:
    """BACKUP CFSTRUCT's generic name: ``*`` on its own is every recoverable structure,
    a stem with a trailing ``*`` those whose names start with it ("BACKUP CFSTRUCT":
    recoverable being RECOVER(YES) at CFLEVEL(3) or more, the structures a backup takes)."""
    stem = generic[:-1]
    return sorted(s.name for s in structures if s.name.startswith(stem) and cfstate.recoverable(s))


#: MQCFSTATUS_* values by name, for a refusal's text.
_STATUS_NAMES = {
    value: name.removeprefix("MQCFSTATUS_")
    for name, value in vars(F).items()
    if name.startswith("MQCFSTATUS_") and isinstance(value, int)
}


def recovered_line(me: str, got: cfstate.Recovered) -> str:
    """What a RECOVER CFSTRUCT reports: what it restored, and its modelled time."""
    if got.purged:
        return f"{me} CFSTRUCT({got.name}) RECOVERED EMPTY (TYPE(PURGE))"
    return (
        f"{me} CFSTRUCT({got.name}) RECOVERED: {got.from_backup} messages from the backup, "
        f"{got.from_log} from {got.log_records} log records; {got.seconds:.3f} s by the model"
    )


def channel_reply(q_mgr: str, parsed: Parsed, refused: str = "") -> Reply:
    """The reply to START or STOP CHANNEL: accepted (CSQM134I), or ``refused`` why."""
    me = prefix(q_mgr)
    if refused:
        return _failed(
            me, parsed.verb, f"CSQM090E {me} CSQMSCHL CHANNEL({parsed.channel}) {refused.upper()}"
        )
    return Reply(
        (
            f"CSQM134I {me} CSQMSCHL {parsed.verb}({parsed.channel}) COMMAND ACCEPTED",
            _done(me, parsed.verb, "CHANNEL"),
        )
    )


def xmitq_problem(qm: QMgr, definition: ChannelDefinition) -> str:
    """Why a sender channel cannot start on ``qm``: its XMITQ not there
    (MQRC_UNKNOWN_OBJECT_NAME), or not a local queue of USAGE(XMITQ) (MQRCCF_NOT_XMIT_Q,
    "the queue specified in the channel definition is not a transmission queue"); ""
    when it can."""
    name = definition.xmit_q_name
    found = qm.find(name)
    if found is None:
        unknown = CMQC.MQRC_UNKNOWN_OBJECT_NAME
        return f"XMITQ({name}) was not found (MQRC_UNKNOWN_OBJECT_NAME {unknown})"
    queue = found[1]
    if (
        not isinstance(queue, QueueDefinition)
        or queue.q_type != CMQC.MQQT_LOCAL
        or queue.usage != CMQC.MQUS_TRANSMISSION
    ):
        return (
            f"XMITQ({name}) is not a transmission queue (MQRCCF_NOT_XMIT_Q {F.MQRCCF_NOT_XMIT_Q})"
        )
    return ""


def failure(q_mgr: str, verb: str, error: Exception) -> Reply:
    """The reply to a command that failed inside the queue manager with an unexpected
    ``error``: CSQ9017E naming it, then CSQ9023E."""
    me = prefix(q_mgr)
    what = " ".join(f"{type(error).__name__}: {error}".split())[:200]
    return _failed(me, verb, f"CSQ9017E {me} FAILURE WHILE PROCESSING THE COMMAND: {what}")


def clear(qm: QMgr, name: str) -> None:
    """CLEAR QLOCAL: every committed message of a local queue gone. Refused while the
    queue is open or has uncommitted work (MQRC_OBJECT_IN_USE), and for a queue that is
    not local (MQRC_Q_TYPE_ERROR) or not there (MQRC_UNKNOWN_OBJECT_NAME)."""
    found = qm.find(name)
    if found is None:
        raise MQMIError.failed(CMQC.MQRC_UNKNOWN_OBJECT_NAME, f"no queue {name} on {qm.name}")
    repo, obj = found
    if not isinstance(obj, QueueDefinition) or obj.q_type != CMQC.MQQT_LOCAL:
        raise MQMIError.failed(CMQC.MQRC_Q_TYPE_ERROR, f"{name} is not a local queue")
    if repo.status[name].handles or repo.store.uncommitted(name):
        raise MQMIError.failed(CMQC.MQRC_OBJECT_IN_USE, f"queue {name} is in use")
    repo.store.delete_queue(name)
    repo.store.create_queue(name, obj.ordering, obj.cf_struct or None)


def _lexical(message: str) -> tuple[str, str]:
    word = message.split(":")[0] if ":" in message else ""
    if "quote" in message:
        return "CSQ9003E", f"'{word}' PARAMETER CONTAINS UNBALANCED APOSTROPHES"
    return "CSQ9002E", f"UNBALANCED PARENTHESES FOLLOWING '{word}'"


def _syntax(message: str) -> tuple[str, str]:
    """A reader's problem as the CSQ9 message z/OS gives for it."""
    quoted = message.split("'")
    word = quoted[1] if len(quoted) > 2 else ""
    if "given twice" in message:
        return "CSQ9000E", f"'{message.split()[0]}' APPEARS MORE THAN ONCE"
    if "is not a keyword" in message or "unknown" in message:
        return "CSQ9001E", f"'{word}' IS INVALID"
    return "CSQ9017E", f"FAILURE WHILE PROCESSING THE COMMAND: {message}"


def scope(parsed: Parsed) -> str:
    """The CMDSCOPE a command asks for: "" (this queue manager), "*" or a name
    (``CMDSCOPE(' ')`` is "")."""
    given = parsed.request.cmdscope if parsed.request is not None else parsed.cmdscope
    return given.strip().upper()


def scope_refused(parsed: Parsed, q_mgr: str, qsg: str, active: Sequence[str]) -> Reply | None:
    """Why ``q_mgr`` (a member of ``qsg``, "" when it is in none; ``active`` the
    members running) does not send ``parsed`` where its CMDSCOPE says, or None.

    IBM, CMDSCOPE of every command that takes it: "qmgr-name: the command runs on the
    queue manager you specify, providing the queue manager is active within the queue
    sharing group" (a name other than the local one needs a QSG), and with QSGDISP
    GROUP (or SHARED) "CMDSCOPE must be blank, or the local queue manager".
    UNVERIFIED: the messages' texts. IBM's CSQN catalogue could not be read past its
    head; these are CSQN136E, CSQN135E and CSQN133E as we recall them, one line each
    before the command's CSQ9023E.
    """
    me, cmdscope = prefix(q_mgr), scope(parsed)
    if not qsg and cmdscope != q_mgr:
        return _failed(me, parsed.verb, f"CSQN136E {me} NOT IN A QUEUE SHARING GROUP")
    if cmdscope not in ("*", q_mgr) and cmdscope not in active:
        line = f"CSQN135E {me} QUEUE MANAGER {cmdscope} NOT ACTIVE IN QUEUE SHARING GROUP"
        return _failed(me, parsed.verb, line)
    if cmdscope != q_mgr:
        for command in parsed.commands:
            word = command.qsgdisp  # QSGDISP(...) as given (``reader.Command``)
            if word in _GROUP_DISPOSITIONS.values():
                line = f"CSQN133E {me} CMDSCOPE NOT ALLOWED WITH DISPOSITION {word}"
                return _failed(me, parsed.verb, line)
    return None


#: The dispositions whose definition the group holds once (a GROUP object is copied to
#: each member by the commands it generates, a SHARED queue is one for all): a command
#: with one runs on the queue manager where it was entered.
_GROUP_DISPOSITIONS = {CMQC.MQQSGD_GROUP: "GROUP", CMQC.MQQSGD_SHARED: "SHARED"}


def run(parsed: Parsed, qm: QMgr, snapshot: Callable[[], Snapshot]) -> Reply:
    """Run a command read by ``parse`` on ``qm`` (``snapshot`` gives its state now)."""
    me = prefix(qm.name)
    if parsed.error is not None:
        message, text = parsed.error
        return _failed(me, parsed.verb or "COMMAND", f"{message} {me} {text}")
    if parsed.request is not None:
        return answer(parsed.request, snapshot())
    if parsed.clear:
        return _clear(qm, parsed.clear)
    if parsed.structures:
        return structure_command(qm, parsed, qm.time)
    return _change(qm, parsed)


def _clear(qm: QMgr, name: str) -> Reply:
    me = prefix(qm.name)
    try:
        clear(qm, name)
    except MQMIError as error:
        if error.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME:
            reason = f"CSQM125I {me} CSQMUQLC QLOCAL({name}) WAS NOT FOUND"
        elif error.reason == CMQC.MQRC_OBJECT_IN_USE:
            reason = f"CSQM115I {me} CSQMUQLC QLOCAL({name}) IS IN USE, IT CANNOT BE CLEARED"
        else:
            reason = f"CSQM090E {me} CSQMUQLC QLOCAL({name}): {error}"
        return _failed(me, "CLEAR QLOCAL", reason)
    return Reply((_done(me, "CLEAR QLOCAL", "DELETE"),))


def answer(request: Request, snap: Snapshot) -> Reply:
    """A DISPLAY's reply from one queue manager's snapshot."""
    me = prefix(snap.q_mgr)
    if request.object_type == "GROUP":
        return _group(snap)
    try:
        found = display.select(request, snap)
    except MQMIError as error:  # QSGDISP(ALL | GROUP) while the repository is down
        return _failed(
            me,
            request.verb,
            f"CSQ5003A {me} CSQ5CONN CONNECTION TO DB2 PENDING, NO ACTIVE DB2",
            f"CSQM090E {me} CSQMDRTS {error.errorAsString()} ({error.reason})",
        )
    lines: list[str] = []
    noun = request.object_type
    if not found:
        if request.generic or request.object_type in display.UNNAMED or request.where:
            lines.append(f"CSQM297I {me} CSQMDRTS NO {noun} FOUND MATCHING REQUEST CRITERIA")
        else:
            return _failed(
                me,
                request.verb,
                f"CSQM125I {me} CSQMDRTS {noun}({request.name}) WAS NOT FOUND",
                f"CSQM090E {me} CSQMDRTS FAILURE REASON CODE X'00D44002'",
            )
    else:
        lines.append(f"CSQM293I {me} CSQMDRTC {len(found)} {noun} FOUND MATCHING REQUEST CRITERIA")
        lines += [f"{f.message} {me} {display.render(f.attributes)}" for f in found]
    lines.append(_done(me, request.verb))
    return Reply(tuple(lines))


def _group(snap: Snapshot) -> Reply:
    me = prefix(snap.q_mgr)
    if not snap.qsg:
        return _failed(me, "DISPLAY GROUP", f"CSQ5112E {me} CSQ5DQSG QUEUE MANAGER IS NOT IN A QSG")
    lines = [
        f"CSQ5100I {me} CSQ5DQSG DISPLAY GROUP REPORT FOLLOWS -",
        f"CSQ5102I {me} CSQ5DQSG QUEUE MANAGERS IN GROUP {snap.qsg}",
        " NAME     NUM PREFIX   STATUS",
        " -------- --- -------- --------",
    ]
    for number, (name, state) in enumerate(snap.members.items(), start=1):
        lines.append(f" {name:<8} {number:>3} {prefix(name):<8} {state}")
    lines += [
        f"CSQ5103I {me} CSQ5DQSG END OF QUEUE MANAGERS REPORT",
        _done(me, "DISPLAY GROUP", "GROUP"),
    ]
    return Reply(tuple(lines))


def _change(qm: QMgr, parsed: Parsed) -> Reply:
    me = prefix(qm.name)
    lines: list[str] = []
    for command in parsed.commands:
        try:
            for generated in reader.apply(qm, [command]):
                lines += _generated(qm.name, parsed.verb, command.verb, generated)
        except MQSCError as error:
            cause = error.problems[0].message.split(": ", 1)[-1]
            return _failed(me, parsed.verb, *_refused(me, command, cause, error.__cause__))
    verb = parsed.commands[0].verb if parsed.commands else "DEFINE"
    return Reply((*lines, _done(me, parsed.verb, verb)))


def _generated(q_mgr: str, what: str, verb: str, generated: Generated) -> list[str]:
    """A GROUP command's generated COPY commands as z/OS reports a command it sent to
    the group: CSQN138I, each member's responses under CSQN121I, then CSQN122I, whose
    ABNORMAL says a member did not get (or lose) its copy; the GROUP command itself
    stands (IBM: "DELETE queues", QSGDISP(GROUP))."""
    me = prefix(q_mgr)
    sent = len(generated.outcomes)
    lines = [
        f"CSQN138I {me} '{generated.command}' COMMAND GENERATED FOR CMDSCOPE(*), SENT TO {sent}"
    ]
    for member, why in generated.outcomes:
        them = prefix(member)
        lines.append(f"CSQN121I {me} '{what}' COMMAND RESPONSES FROM {member}")
        if why:
            csect = _CSECT.get(verb, "CSQMMSGP")
            lines += [
                f"CSQM090E {them} {csect} {' '.join(why.split())}",
                f"CSQ9023E {them} {csect} ' {what}' ABNORMAL COMPLETION",
            ]
        else:
            lines.append(_done(them, what, verb))
    ending = "ABNORMAL" if generated.missed else "NORMAL"
    lines.append(f"CSQN122I {me} '{what}' COMMAND FOR CMDSCOPE(*) {ending} COMPLETION")
    return lines


def _refused(
    me: str, command: reader.Command, cause: str, error: BaseException | None = None
) -> tuple[str, ...]:
    """Why the queue manager refused a DEFINE, ALTER or DELETE, as CSQM messages."""
    csect = _CSECT.get(command.verb, "CSQMMSGP")
    what = f"{command.object_type}({command.name})" if command.name else command.object_type
    if isinstance(error, MQMIError) and error.reason == CMQC.MQRC_DB2_NOT_AVAILABLE:
        # UNVERIFIED: the exact CSQ5 reply of a command that needs Db2 while it is down
        # could not be retrieved; CSQ5003A is the Db2 manager's "no active Db2" message.
        return (
            f"CSQ5003A {me} CSQ5CONN CONNECTION TO DB2 PENDING, NO ACTIVE DB2",
            f"CSQM090E {me} {csect} {what}: MQRC_DB2_NOT_AVAILABLE (2342)",
        )
    if "already defined" in cause:
        return (f"CSQM095I {me} {csect} {what} ALREADY EXISTS",)
    if "there is no" in cause or "no queue" in cause:
        return (
            f"CSQM125I {me} {csect} {what} WAS NOT FOUND",
            f"CSQM090E {me} {csect} FAILURE REASON CODE X'00D44002'",
        )
    return (f"CSQM090E {me} {csect} {what}: {cause}",)


def _done(me: str, verb: str, family: str = "DISPLAY") -> str:
    return f"CSQ9022I {me} {_CSECT.get(family, 'CSQMMSGP')} ' {verb}' NORMAL COMPLETION"


def _failed(me: str, verb: str, *reasons: str) -> Reply:
    words = verb.split()
    channel = len(words) > 1 and words[1] == "CHANNEL"  # RESET CHANNEL is not CSQMRCFS's
    csect = _CSECT["CHANNEL"] if channel else _CSECT.get(words[0] if words else "", "CSQ9SCND")
    ending = f"CSQ9023E {me} {csect} ' {verb}' ABNORMAL COMPLETION"
    return Reply((*reasons, ending), failed=True)


def scoped(q_mgr: str, verb: str, cmdscope: str, replies: Mapping[str, Reply]) -> Reply:
    """The reply of a command sent with CMDSCOPE to ``replies``' queue managers, as the
    queue manager ``q_mgr`` it was entered on gathers it (z/OS, "Command server
    messages (CSQN...)"): CSQN137I says where it went, then one block per member headed
    by CSQN121I, then CSQN122I (every member's command completed normally) or CSQN123E.
    ``blocks`` keeps where each block starts: the command server answers a program one
    set of reply messages per block."""
    me = prefix(q_mgr)
    lines = [
        f"CSQN137I {me} '{verb}' COMMAND ACCEPTED FOR CMDSCOPE({cmdscope}), SENT TO {len(replies)}"
    ]
    blocks = [0]
    failed = False
    for name, reply in replies.items():
        blocks.append(len(lines))
        lines.append(f"CSQN121I {me} '{verb}' COMMAND RESPONSES FROM {name}")
        lines += reply.lines
        failed = failed or reply.failed
    blocks.append(len(lines))
    if failed:
        lines.append(f"CSQN123E {me} '{verb}' COMMAND FOR CMDSCOPE({cmdscope}) ABNORMAL COMPLETION")
    else:
        lines.append(f"CSQN122I {me} '{verb}' COMMAND FOR CMDSCOPE({cmdscope}) NORMAL COMPLETION")
    return Reply(tuple(lines), failed, tuple(blocks))


__all__ = [
    "VERBS",
    "Parsed",
    "Reply",
    "answer",
    "channel_reply",
    "clear",
    "failure",
    "parse",
    "parse_words",
    "prefix",
    "recovered_line",
    "run",
    "scope",
    "scope_refused",
    "scoped",
    "structure_command",
    "xmitq_problem",
]
