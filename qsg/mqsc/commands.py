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

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from qsg import CMQC
from qsg import CMQCFC as F
from qsg.core import cfstate
from qsg.core.errors import MQMIError
from qsg.core.objects import ChannelDefinition
from qsg.core.qmgr import QMgr
from qsg.core.queue import QueueDefinition
from qsg.mqsc import display, lexer, reader, schema
from qsg.mqsc.display import DisplayError, Request
from qsg.mqsc.errors import MQSCError
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
    "BACKUP": "BACKUP",
    "RECOVER": "RECOVER",
    "REC": "RECOVER",
    **schema.VERBS,
}
#: What each CF structure command takes besides CFSTRUCT(name) and CMDSCOPE, and its
#: values ("" for an integer): RESET CFSTRUCT ACTION(FAIL), BACKUP CFSTRUCT
#: EXCLINT(seconds), RECOVER CFSTRUCT TYPE(NORMAL | PURGE) ("RESET CFSTRUCT", "BACKUP
#: CFSTRUCT", "RECOVER CFSTRUCT" on z/OS).
_STRUCTURE_OPTIONS = {
    "RESET": ("ACTION", ("FAIL",)),
    "BACKUP": ("EXCLINT", ()),
    "RECOVER": ("TYPE", ("NORMAL", "PURGE")),
}


@dataclass(frozen=True, slots=True)
class Reply:
    """What a command answered, line by line, and whether it failed."""

    lines: tuple[str, ...]
    failed: bool = False

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
    #: START or STOP CHANNEL's CHLDISP and CMDSCOPE ("" when not given), and whether
    #: the command is START or STOP CHINIT (``option``: STOP CHINIT's SHARED value).
    chldisp: str = ""
    cmdscope: str = ""
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
    head = items[0].word if items else text.split()[0].upper()
    verb = VERBS.get(head, "")
    if problems:
        return Parsed(verb, error=_lexical(problems[0].message))
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
    if verb == "CLEAR":
        return _parse_clear(items)
    if verb in ("START", "STOP"):
        return _parse_channel(verb, items)
    if verb in _STRUCTURE_OPTIONS:
        return _parse_structure(verb, items)
    try:
        commands = reader.parse(chunks[0].text, "<command>")
    except MQSCError as error:
        return Parsed(what, error=_syntax(error.problems[0].message))
    object_type = commands[0].object_type if commands else ""
    return Parsed(f"{verb} {object_type}", commands=tuple(commands))


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
    """START CHANNEL(name) and STOP CHANNEL(name), of a sender channel, with CHLDISP
    and CMDSCOPE; START CHINIT and STOP CHINIT [SHARED(RESTART | STOP)]."""
    what = f"{verb} CHANNEL"
    if len(items) > 1 and items[1].word == "CHINIT" and items[1].value is None:
        return _parse_chinit(verb, items)
    if len(items) > 1 and items[1].word in ("LISTENER", "LSTR") and items[1].value is None:
        return _parse_listener(verb, items)
    if len(items) < 2 or schema.OBJECT_TYPES.get(items[1].word) != "CHANNEL":
        word = items[1].word if len(items) > 1 else "CHANNEL"
        # The command as entered (START CMDSERV), which CSQ9023E names: not a channel's.
        return Parsed(f"{verb} {word}", error=("CSQ9001E", f"'{word}' IS INVALID"))
    if not items[1].value:
        return Parsed(what, error=("CSQ9010E", "REQUIRED PARAMETER 'CHANNEL' IS MISSING"))
    given: dict[str, str] = {}
    for item in items[2:]:
        value = (item.value or "").strip().upper()
        if item.word == "CHLDISP" and value in ("DEFAULT", "PRIVATE", "SHARED", "FIXSHARED"):
            given["CHLDISP"] = value
        elif item.word == "CMDSCOPE" and item.value is not None:
            given["CMDSCOPE"] = "" if value in ("", "' '") else value
        else:
            shown = item.word if item.value is None else f"{item.word}({item.value})"
            return Parsed(what, error=("CSQ9001E", f"'{shown}' IS INVALID"))
    return Parsed(
        what,
        channel=items[1].value,
        chldisp=given.get("CHLDISP", ""),
        cmdscope=given.get("CMDSCOPE", ""),
    )


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
    CFSTRUCT(name[,name...]) [TYPE(NORMAL | PURGE)], each with an optional CMDSCOPE(' ')."""
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
    option = ""
    for item in items[2:]:
        value = (item.value or "").upper()
        if item.word == "CMDSCOPE" and value.strip() in ("", "' '"):
            continue
        if item.word != keyword or not value:
            return Parsed(what, error=("CSQ9001E", f"'{item.word}' IS INVALID"))
        if (allowed and value not in allowed) or (not allowed and not value.isdigit()):
            return Parsed(what, error=("CSQ9001E", f"'{item.word}({item.value})' IS INVALID"))
        option = value
    if verb == "RESET" and not option:
        return Parsed(what, error=("CSQ9010E", "REQUIRED PARAMETER 'ACTION' IS MISSING"))
    return Parsed(what, structures=names, option=option)


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
    for name in parsed.structures:
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
    """The CMDSCOPE a command asks for: "" (this queue manager), "*" or a name."""
    return parsed.request.cmdscope if parsed.request is not None else ""


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
    found = display.select(request, snap)
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
    for command in parsed.commands:
        try:
            reader.apply(qm, [command])
        except MQSCError as error:
            cause = error.problems[0].message.split(": ", 1)[-1]
            return _failed(me, parsed.verb, *_refused(me, command, cause))
    verb = parsed.commands[0].verb if parsed.commands else "DEFINE"
    return Reply((_done(me, parsed.verb, verb),))


def _refused(me: str, command: reader.Command, cause: str) -> tuple[str, ...]:
    """Why the queue manager refused a DEFINE, ALTER or DELETE, as CSQM messages."""
    csect = _CSECT.get(command.verb, "CSQMMSGP")
    what = f"{command.object_type}({command.name})" if command.name else command.object_type
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
    csect = _CSECT.get(verb.split()[0] if verb else "", "CSQ9SCND")
    ending = f"CSQ9023E {me} {csect} ' {verb}' ABNORMAL COMPLETION"
    return Reply((*reasons, ending), failed=True)


def scoped(q_mgr: str, verb: str, cmdscope: str, replies: Mapping[str, Reply | None]) -> Reply:
    """The reply of a command sent with CMDSCOPE to ``replies``' queue managers (None
    for one that is not active), as the queue manager ``q_mgr`` it was entered on
    gathers it."""
    me = prefix(q_mgr)
    lines = [
        f"CSQN137I {me} '{verb}' COMMAND ACCEPTED FOR CMDSCOPE({cmdscope}), SENT TO {len(replies)}"
    ]
    failed = False
    for name, reply in replies.items():
        if reply is None:
            lines.append(
                f"CSQN127E {me} '{verb}' COMMAND FOR CMDSCOPE({name}) FAILED: {name} IS NOT ACTIVE"
            )
            failed = True
            continue
        lines.append(f"CSQN121I {me} '{verb}' COMMAND RESPONSES FROM {name}")
        lines += reply.lines
        failed = failed or reply.failed
    ending = "ABNORMAL" if failed else "NORMAL"
    lines.append(f"CSQN122I {me} '{verb}' COMMAND FOR CMDSCOPE({cmdscope}) {ending} COMPLETION")
    return Reply(tuple(lines), failed)


__all__ = [
    "VERBS",
    "Parsed",
    "Reply",
    "answer",
    "channel_reply",
    "clear",
    "failure",
    "parse",
    "prefix",
    "recovered_line",
    "run",
    "scope",
    "scoped",
    "structure_command",
    "xmitq_problem",
]
