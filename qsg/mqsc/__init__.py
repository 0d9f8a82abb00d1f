"""MQSC, the language MQ administrators keep their definitions in: a reader for the
commands that define what the simulator runs (DEFINE QLOCAL/QMODEL/QALIAS/QREMOTE/
CFSTRUCT/CHANNEL/PROCESS, ALTER, DELETE, ALTER QMGR).

``lexer`` splits a file into commands (comments, continuation lines, quoted values);
``schema`` knows each command's keywords and their values; ``reader`` checks a file
and applies it to a queue manager. Every problem is reported with its file, line and
column, all of them at once, and nothing is applied from a file that has one.

The administrator's side (docs/mqsc.md): ``commands`` is a queue manager's command
processor, one command at a time with z/OS's reply lines; ``display`` answers DISPLAY
from a ``status`` snapshot, each object shown by ``attributes``; ``pcf`` is the PCF
codec, ``pcf_names`` maps MQSC keywords to PCF parameters, and ``pcf_commands`` serves
the PCF commands on the same processor.
"""

from qsg.mqsc.errors import MQSCError, Problem
from qsg.mqsc.reader import Command, apply, load, parse

__all__ = ["Command", "MQSCError", "Problem", "apply", "load", "parse"]
