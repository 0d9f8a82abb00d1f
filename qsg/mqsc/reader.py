"""Read MQSC into commands, and apply them to a rules-layer queue manager.

``parse`` finds every syntax and value problem of a file before anything happens.
``apply`` then runs the commands in order, as runmqsc does; a command the queue manager
refuses (a queue that already exists without REPLACE, a shared queue on a queue manager
outside any QSG) stops it there with that command's line and column, the commands
before it having been applied.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from qsg import CMQC, CMQCFC
from qsg.core import attributes, cfstate, conntag, copies
from qsg.core.copies import Generated
from qsg.core.errors import MQMIError
from qsg.core.objects import (
    AliasQueue,
    CFStructure,
    ChannelDefinition,
    NamelistDefinition,
    ProcessDefinition,
    RemoteQueue,
    StorageClass,
)
from qsg.core.qmgr import QMgr
from qsg.core.queue import QueueDefinition, check_name
from qsg.mqsc import dispositions, lexer, schema
from qsg.mqsc.errors import MQSCError, Problem, cut, shown

_QUEUE_TYPES = {
    "QLOCAL": CMQC.MQQT_LOCAL,
    "QMODEL": CMQC.MQQT_MODEL,
    "QALIAS": CMQC.MQQT_ALIAS,
    "QREMOTE": CMQC.MQQT_REMOTE,
}
_RECORDS: dict[str, type] = {
    "QLOCAL": QueueDefinition,
    "QMODEL": QueueDefinition,
    "QALIAS": AliasQueue,
    "QREMOTE": RemoteQueue,
}


@dataclass(frozen=True, slots=True)
class Command:
    """One MQSC command: ``DEFINE QLOCAL(APP.IN) MAXDEPTH(10) REPLACE`` and the like."""

    verb: str  # DEFINE, ALTER or DELETE
    object_type: str  # QLOCAL, QMODEL, QALIAS, QREMOTE, CFSTRUCT, CHANNEL, PROCESS or QMGR
    name: str  # "" for QMGR
    attributes: dict[str, Any] = field(default_factory=dict)  # record field -> value
    #: Attributes kept without effect: keyword -> value (``qsg.core.attributes``).
    kept: dict[str, Any] = field(default_factory=dict)
    replace: bool = False
    like: str = ""
    purge: bool = False
    #: QSGDISP(...) as given: QMGR, COPY, GROUP, PRIVATE or SHARED ("" when not given:
    #: QMGR, but for ALTER and DELETE also the shared queue of the name, if that is all
    #: there is; ``qsg.mqsc.dispositions``).
    qsgdisp: str = ""
    source: str = ""
    line: int = 0
    column: int = 0

    def problem(self, message: str) -> Problem:
        return Problem(self.source, self.line, self.column, message)


def parse(text: str, source: str = "<mqsc>") -> list[Command]:
    """Every command of ``text``; MQSCError listing every problem if there is any."""
    chunks, problems = lexer.commands(text, source)
    parsed: list[Command] = []
    for chunk in chunks:
        items, found = lexer.items(chunk, source)
        problems += found
        if not found and items:  # a chunk of nothing but continuation is no command
            command = _command(items, source, problems)
            if command is not None:
                parsed.append(command)
    if problems:
        raise MQSCError(problems)
    return parsed


def command(
    verb: str,
    object_type: str,
    name: str,
    words: Sequence[tuple[str, str | None, bool]] = (),
    *,
    source: str = "<pcf>",
) -> Command:
    """One command from its parts, as data (a PCF request's): checked as a command read
    from text is, but nothing is parsed, so no name or value can be read as MQSC.
    ``words`` are (keyword, value or None for a bare keyword, quoted: the value keeps its
    case and blanks); ``LIKE`` is one of them. MQSCError lists what is wrong."""
    items = [
        lexer.Item(verb, None, False, 1, 1, 1),
        lexer.Item(object_type, name or None, True, 1, 1, 1),
        *(lexer.Item(word, value, quoted, 1, 1, 1) for word, value, quoted in words),
    ]
    return from_items(items, source)


def from_items(items: Sequence[lexer.Item], source: str = "<mqsc>") -> Command:
    """One command from its words already read (the lexer's, or a request's made as
    data): checked as ``parse`` checks a command. MQSCError lists what is wrong."""
    problems: list[Problem] = []
    built = _command(list(items), source, problems)
    if built is None or problems:
        raise MQSCError(problems)
    return built


def _command(items: list[lexer.Item], source: str, problems: list[Problem]) -> Command | None:
    def problem(item: lexer.Item, message: str, at_value: bool = False) -> None:
        column = item.value_column if at_value else item.column
        problems.append(Problem(source, item.line, column, message))

    verb_item = items[0]
    verb = schema.VERBS.get(verb_item.word)
    if verb is None or verb_item.value is not None:
        problem(verb_item, f"unknown command {shown(verb_item.word)}: DEFINE, ALTER or DELETE")
        return None
    if len(items) < 2:
        problem(verb_item, f"{verb} of what? (QLOCAL, QMODEL, QALIAS, QREMOTE, ...)")
        return None
    type_item = items[1]
    object_type = schema.OBJECT_TYPES.get(type_item.word)
    if object_type is None:
        problem(type_item, f"unknown object type {shown(type_item.word)}")
        return None
    name = ""
    if object_type == "QMGR":
        if verb != "ALTER" or type_item.value is not None:
            problem(type_item, "the queue manager is changed with ALTER QMGR, without a name")
            return None
    elif not type_item.value:
        problem(type_item, f"{object_type} needs a name: {object_type}(name)")
        return None
    else:
        name = type_item.value
        try:
            check_name(name, object_type, schema.NAME_LENGTHS.get(object_type, 48))
        except ValueError as error:
            problem(type_item, str(error), at_value=True)
            return None
    keywords = schema.KEYWORDS[object_type]
    attributes: dict[str, Any] = {}
    kept: dict[str, Any] = {}
    seen: dict[str, str] = {}  # each keyword given, as one keyword: its word as written
    options: dict[str, Any] = {"replace": False, "like": "", "purge": False, "qsgdisp": ""}
    count = len(problems)
    for item in items[2:]:
        what = f"{verb} {object_type}"
        one = _keyword_of(item, verb, object_type)
        if one in seen:
            earlier = seen[one]
            both = "" if earlier == item.word else f" ({earlier} and {item.word} are one keyword)"
            problem(item, f"{item.word} is given twice{both}")
            continue
        seen[one] = item.word
        if item.value is None:
            bare = _bare(item.word, verb, object_type)
            if bare is None:
                hint = f"{item.word}(value)" if item.word in keywords else "a known keyword"
                near = _did_you_mean(item.word, [*keywords, *_bare_words(verb, object_type)])
                word = shown(item.word)
                problem(item, f"{word} is not a keyword of {what}: expected {hint}{near}")
            else:
                key, value = bare
                if isinstance(key, schema.Keyword):
                    _set(key, value, attributes, kept)
                else:
                    options[key] = value
            continue
        if _bare(item.word, verb, object_type) is not None:
            problem(item, f"{item.word} takes no value")
            continue
        if item.word == "LIKE" and verb == "DEFINE" and object_type != "QMGR":
            options["like"] = item.value
            continue
        if item.word == "QSGDISP" and object_type in dispositions.TAKING:
            value = item.value.upper()
            if value not in dispositions.WORDS:
                allowed = " | ".join(dispositions.WORDS)
                problem(item, f"QSGDISP({cut(item.value)}): not one of {allowed}", at_value=True)
            options["qsgdisp"] = value
            continue
        keyword = keywords.get(item.word) if verb != "DELETE" else None
        if keyword is None:
            near = _did_you_mean(item.word, list(keywords)) if verb != "DELETE" else ""
            problem(item, f"{shown(item.word)} is not a keyword of {what}{near}")
            continue
        try:
            value = keyword.parse(item.value, item.quoted)
        except ValueError as error:
            problem(item, f"{item.word}({cut(item.value)}): {error}", at_value=True)
            continue
        _set(keyword, value, attributes, kept)
    required = {
        "CHANNEL": ("channel_type", "CHLTYPE(SDR|SVR|RCVR|RQSTR|SVRCONN|CLNTCONN)"),
        "QALIAS": ("target", "TARGET(queue)"),
    }.get(object_type)
    if required and verb == "DEFINE" and not options["like"] and required[0] not in attributes:
        problem(type_item, f"DEFINE {object_type} needs {required[1]}")
    if object_type == "CHANNEL" and "channel_type" in attributes:
        _check_channel_type(items[2:], attributes["channel_type"], verb, problem)
    if len(problems) > count:
        return None
    return Command(
        verb,
        object_type,
        name,
        attributes,
        kept,
        source=source,
        line=verb_item.line,
        column=verb_item.column,
        **options,
    )


def _check_channel_type(items: list[lexer.Item], chltype: int, verb: str, problem: Any) -> None:
    """A keyword the channel's CHLTYPE does not take ("DEFINE CHANNEL": BATCHSZ on a
    SVRCONN, SHARECNV on a sender) is not a keyword of the command: CSQ9001E."""
    word = attributes.CHLTYPE.word(chltype)
    for item in items:
        if attributes.not_for(word, [item.word]):
            problem(item, f"{shown(item.word)} is not a keyword of {verb} CHANNEL CHLTYPE({word})")


def _set(keyword: schema.Keyword, value: Any, fields: dict[str, Any], kept: dict[str, Any]) -> None:
    """A keyword's value into the record's field, or among its kept values."""
    if keyword.field:
        fields[keyword.field] = value
    else:
        kept[keyword.keyword] = value


def _did_you_mean(word: str, known: list[str]) -> str:
    """`` (did you mean MAXDEPTH?)`` for a misspelt keyword, or nothing."""
    near = difflib.get_close_matches(word, known, n=1, cutoff=0.7)
    return f" (did you mean {near[0]}?)" if near else ""


def _bare_words(verb: str, object_type: str) -> list[str]:
    """The keywords ``_bare`` knows for this command."""
    words = [
        w
        for w in ("REPLACE", "NOREPLACE", "PURGE", "NOPURGE", *schema.FLAGS.get(object_type, {}))
        if _bare(w, verb, object_type) is not None
    ]
    return words


def _keyword_of(item: lexer.Item, verb: str, object_type: str) -> str:
    """The keyword ``item`` gives: a bare word's negation (NOSHARE, NOHARDENBO,
    NOREPLACE) is its positive form's keyword negated, so that the two given together
    are one keyword given twice, refused as IBM's command preprocessor refuses a keyword
    that "appears more than once" (CSQ9000E), not read with the last one winning.
    (Whether z/OS names the pair in another CSQ9 message could not be checked.)"""
    word = item.word
    negated = item.value is None and word.startswith("NO")
    if negated and _bare(word, verb, object_type) and _bare(word[2:], verb, object_type):
        return word[2:]
    return word


def _bare(word: str, verb: str, object_type: str) -> tuple[str | schema.Keyword, Any] | None:
    """A keyword written without a value: (the option or attribute it sets, value), or
    None if unknown."""
    if verb == "DEFINE" and word in ("REPLACE", "NOREPLACE"):
        return "replace", word == "REPLACE"
    if verb == "DELETE" and object_type == "QLOCAL" and word in ("PURGE", "NOPURGE"):
        return "purge", word == "PURGE"
    if verb != "DELETE" and word in schema.FLAGS.get(object_type, {}):
        return schema.FLAGS[object_type][word]
    return None


# ---- applying ------------------------------------------------------------------------
def apply(qm: QMgr, commands: list[Command]) -> list[Generated]:
    """Run the commands on ``qm`` in order; MQSCError at the first one it refuses.
    Returns what the GROUP commands among them generated for the group's members."""
    generated: list[Generated] = []
    for command in commands:
        try:
            done = _apply(qm, command)
        except (ValueError, MQMIError) as error:
            what = f"{command.verb} {command.object_type}"
            # The cause is kept: the PCF command server answers with its reason code.
            raise MQSCError([command.problem(f"{what}: {error}")]) from error
        if done is not None:
            generated.append(done)
    return generated


def load(qm: QMgr, text: str, source: str = "<mqsc>") -> list[Command]:
    """Parse ``text`` and apply it to ``qm``: what ``Topology.mqsc`` and scenarios use."""
    commands = parse(text, source)
    apply(qm, commands)
    return commands


def _stamped(qm: QMgr, command: Command) -> Command:
    """The command with the dates it sets, by the run's clock (``qm.epoch`` plus its
    virtual time): DEFINE sets ALTDATE and ALTTIME, and a queue's CRDATE and CRTIME; ALTER
    sets ALTDATE and ALTTIME (IBM: "DISPLAY QUEUE", "ALTDATE: the date on which the
    definition or information was last altered")."""
    if command.verb == "DELETE":
        return command
    created = command.verb == "DEFINE" and command.object_type in attributes.QUEUES
    stamps = attributes.stamps(qm.epoch, qm.time, created=created)
    return dataclasses.replace(command, kept={**command.kept, **stamps})


def _apply(qm: QMgr, command: Command) -> Generated | None:
    command = _stamped(qm, command)
    kind = command.object_type
    if kind == "QMGR":
        _alter_qmgr(qm, command)
        return None
    if kind == "CFSTRUCT":
        _cf_structure(qm, command)
        return None
    table = dispositions.TAKING[kind]
    word = dispositions.checked(qm, command.verb, kind, command.qsgdisp)
    if word == "GROUP":
        return _group(qm, command, table)
    if command.verb == "DEFINE":
        _define(qm, command, table, word)
        return None
    old = _target(qm, command, table, word)
    if command.verb == "DELETE":
        if table == "QUEUE":
            qm.delete_queue(command.name, purge=command.purge)
        else:
            if table == "CHANNEL":
                _not_recovering(qm, command.name)
            del copies.PAGE_SET_0[table].objects(qm)[command.name]
        return None
    new = _replaced(old, command)
    if table == "QUEUE":
        qm.define(new, replace=True)
        local = isinstance(new, QueueDefinition) and new.q_type == CMQC.MQQT_LOCAL
        if local and isinstance(old, QueueDefinition) and isinstance(new, QueueDefinition):
            qm.triggering_changed(old, new)  # conditions already met: a trigger message
    elif table == "CHANNEL":
        _check_channel_keywords(new, command)
        qm.define_channel(new, replace=True)
    else:
        copies.PAGE_SET_0[table].define(qm, new)  # a process, namelist or storage class
    return None


def _not_recovering(qm: QMgr, channel: str) -> None:
    """DELETE CHANNEL of a shared channel whose agent on a failed member left units of
    work peer recovery has not resolved fails, as a start would (IBM, "Channels and
    serialization": "An attempt to RESOLVE, PING, or DELETE a channel can fail for the
    same reason"): the agents' connection tag (``conntag.agent_options``) is still
    that failed life's. Lives of the members active here are not recovery; in a run
    of members in separate processes another process's live agent counts as one."""
    cno = conntag.agent_options("CHL", channel, qm.name, qm.rules.platform)
    if cno is None or qm.qsg is None:
        return
    running = {(m.name, m.incarnation) for m in qm.qsg.active.values()}
    refused = conntag.recovering(qm.tag_registry, cno.tag, running)
    if refused is not None:
        raise refused


def _target(qm: QMgr, command: Command, table: str, word: str) -> Any:
    """The object an ALTER or DELETE acts on (``qsg.mqsc.dispositions``)."""
    kind, name = command.object_type, command.name
    if word == "SHARED" or (word == "" and name not in copies.PAGE_SET_0[table].objects(qm)):
        shared = qm.qsg.shared.queues.get(name) if qm.qsg is not None else None
        if shared is None or table != "QUEUE" or shared.q_type != _QUEUE_TYPES[kind]:
            raise ValueError(f"there is no {kind}({name}) of QSGDISP({word or 'QMGR'})")
        return shared
    old = dispositions.on_page_set(qm, table, name, word)
    if old is None or (table == "QUEUE" and old.q_type != _QUEUE_TYPES[kind]):
        raise ValueError(f"there is no {kind}({name}) of QSGDISP({word or 'QMGR'})")
    return old


def _define(qm: QMgr, command: Command, table: str, word: str) -> None:
    """DEFINE with QSGDISP QMGR, COPY or SHARED."""
    kind, name = command.object_type, command.name
    if word == "COPY":
        group = dispositions.group_row(qm, table, name)
        if group is None or (table == "QUEUE" and group.q_type != _QUEUE_TYPES[kind]):
            raise ValueError(f"there is no {kind}({name}) of QSGDISP(GROUP) to copy")
        # LIKE is ignored with QSGDISP(COPY): the GROUP object of the name is the model.
        copies.define_copy(qm, table, _replaced(group, command))
        return
    held = copies.PAGE_SET_0[table].objects(qm).get(name)
    if held is not None and held.qsg_disp == CMQC.MQQSGD_COPY:
        raise ValueError(f"{kind}({name}) is already defined with QSGDISP(COPY)")
    record = dataclasses.replace(_new(qm, command, table), qsg_disp=dispositions.WORDS[word])
    if table == "QUEUE":
        qm.define(record, replace=command.replace)
    elif table == "CHANNEL":
        qm.define_channel(record, replace=command.replace)
    elif table == "PROCESS":
        qm.define_process(record, replace=command.replace)
    else:
        _keep(qm, command, table, record)


def _new(qm: QMgr, command: Command, table: str) -> Any:
    """A DEFINE's record, maybe LIKE an object of this member's page set 0 (QMGR or
    COPY: "GROUP objects are not searched"); the LIKE object's disposition is never
    copied: the caller sets the command's."""
    if table == "QUEUE":
        return _new_queue(qm, command)
    record = _record(copies.PAGE_SET_0[table].objects(qm), command, _MADE[table])
    if table == "CHANNEL":
        _check_channel_keywords(record, command)
    return record


def _group(qm: QMgr, command: Command, table: str) -> Generated:
    """DEFINE, ALTER or DELETE with QSGDISP(GROUP): the repository's object first, then
    the generated COPY command on every active member (``qsg.core.copies.fan_out``)."""
    assert qm.qsg is not None
    kind, name = command.object_type, command.name
    old = dispositions.group_row(qm, table, name)
    held = qm.qsg.repository.get(table, name) if old is None else old
    mismatch = old is not None and table == "QUEUE" and old.q_type != _QUEUE_TYPES[kind]
    if command.verb == "DEFINE":
        record = dataclasses.replace(_new(qm, command, table), qsg_disp=CMQC.MQQSGD_GROUP)
        # A member process joining a running group replays the group's definitions: the
        # one already there is no conflict (``GroupRepository.joining``).
        replayed = qm.qsg.repository.joining and held == record
        if held is not None and not replayed and (not command.replace or mismatch or old is None):
            disp = copies.WORDS[held.qsg_disp]
            raise ValueError(f"{kind}({name}) QSGDISP({disp}) is already defined")
    elif old is None or mismatch:
        raise ValueError(f"there is no {kind}({name}) of QSGDISP(GROUP)")
    elif command.verb == "DELETE":
        qm.qsg.repository.delete(table, name)
        text = dispositions.copy_command("DELETE", kind, old)
        return copies.fan_out(qm.qsg.active, table, text, name)
    else:
        record = _replaced(old, command)
        if table == "CHANNEL":
            _check_channel_keywords(record, command)
    qm.qsg.repository.put(table, record)
    text = dispositions.copy_command("DEFINE", kind, record)
    return copies.fan_out(qm.qsg.active, table, text, record)


def _new_queue(qm: QMgr, command: Command) -> Any:
    kind, attrs = command.object_type, dict(command.attributes)
    if command.like:
        found = qm.find(command.like)
        if found is None or found[1].q_type != _QUEUE_TYPES[kind]:
            raise ValueError(f"LIKE({command.like}) names no {kind}")
        # "The disposition of the LIKE object is not copied" (DEFINE queues): the
        # caller gives the command's own.
        return _replaced(found[1], command, name=command.name, qsg_disp=CMQC.MQQSGD_Q_MGR)
    if kind == "QMODEL":
        attrs.setdefault("definition_type", CMQC.MQQDT_TEMPORARY_DYNAMIC)
        attrs["q_type"] = CMQC.MQQT_MODEL
    return _RECORDS[kind](name=command.name, kept=attributes.kept((), command.kept), **attrs)


def _replaced(base: Any, command: Command, **more: Any) -> Any:
    """``base`` with ``more`` and then the command's attributes set, its kept values
    merged."""
    kept = attributes.kept(base.kept, command.kept)
    return dataclasses.replace(base, **{**more, **command.attributes}, kept=kept)


def _cf_structure(qm: QMgr, command: Command) -> None:
    known = qm.qsg.shared.structures if qm.qsg is not None else {}
    if command.verb == "DELETE" and qm.qsg is not None and command.name in known:
        qm.qsg.repository.delete("CFSTRUCT", command.name)  # 2342 while Db2 is down
    record = _record(known, command, CFStructure)
    if record is not None:
        rules = sorted(k for k in command.attributes if k.startswith("offload_"))
        if rules and record.cf_level < 5:
            keyword = "OFFLD" + rules[0][-1] + ("SZ" if "size" in rules[0] else "TH")
            raise ValueError(f"{keyword} needs CFLEVEL(5), not CFLEVEL({record.cf_level})")
        conflict = cfstate.cflevel_conflict(record)
        if conflict is not None:
            raise MQMIError.failed(CMQCFC.MQRCCF_PARM_CONFLICT, conflict)
        qm.define_structure(record, replace=command.replace or command.verb == "ALTER")


def _check_channel_keywords(record: ChannelDefinition, command: Command) -> None:
    """An ALTER (or a LIKE) without CHLTYPE: the keywords are checked against the
    channel's own type, as a DEFINE's are against the type it gives."""
    wrong = attributes.not_for(
        attributes.channel_type(record),
        [
            *command.kept,
            *(a.keyword for a in attributes.TABLE["CHANNEL"] if a.field in command.attributes),
        ],
    )
    chltype = attributes.channel_type(record)
    if wrong:
        raise ValueError(f"{shown(wrong[0])} is not a keyword of CHANNEL CHLTYPE({chltype})")
    # A value IBM gives other channel types only ("AMS interception on server-to-server
    # message channels": SPLPROT(ASPOLICY) on a sender).
    value = attributes.value_not_for(record)
    if value is not None:
        keyword, word = value
        raise ValueError(f"{keyword}({word}): {word} is not a value of CHANNEL CHLTYPE({chltype})")


#: The record each table's DEFINE makes (but queues, whose record is their type's).
_MADE: dict[str, type] = {
    "CHANNEL": ChannelDefinition,
    "PROCESS": ProcessDefinition,
    "NAMELIST": NamelistDefinition,
    "STGCLASS": StorageClass,
}


def _keep(qm: QMgr, command: Command, table: str, record: Any) -> None:
    """DEFINE of an object the queue manager only keeps (a namelist, a storage class):
    nothing else reads it."""
    if record.name in copies.PAGE_SET_0[table].objects(qm) and not command.replace:
        raise ValueError(f"{command.object_type}({record.name}) is already defined")
    copies.PAGE_SET_0[table].define(qm, record)


def _record(known: MutableMapping[str, Any], command: Command, make: type) -> Any:
    """The record a DEFINE (maybe LIKE another) or ALTER makes; None after a DELETE."""
    kind, name = command.object_type, command.name
    if command.verb == "DELETE":
        if known.pop(name, None) is None:
            raise ValueError(f"there is no {kind}({name})")
        return None
    if command.verb == "ALTER" or command.like:
        base = known.get(command.like or name)
        if base is None:
            raise ValueError(f"there is no {kind}({command.like or name})")
        return _replaced(base, command, name=name)
    return make(name, **command.attributes, kept=attributes.kept((), command.kept))


def _alter_qmgr(qm: QMgr, command: Command) -> None:
    for key, value in command.attributes.items():
        if key == "rules.max_uncommitted_msgs":
            qm.rules = dataclasses.replace(qm.rules, max_uncommitted_msgs=value)
        elif key == "dead_letter_queue" and value and qm.find(value) is None:
            raise ValueError(f"DEADQ({value}) is not defined")
        elif key == "expiry_interval":
            qm.expiry_interval = value or None  # EXPRYINT(OFF): no scans
        elif key == "intra_group_queuing" and value and qm.qsg is None:
            raise MQMIError.failed(
                CMQCFC.MQRCCF_Q_MGR_NOT_IN_QSG,
                f"IGQ(ENABLED): {qm.name} is not in a queue-sharing group",
            )
        else:
            setattr(qm, key, value)
    qm.kept.update(command.kept)
