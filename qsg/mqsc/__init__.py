"""MQSC, the language MQ administrators keep their definitions in: a reader for the
commands that define what the simulator runs (DEFINE QLOCAL/QMODEL/QALIAS/QREMOTE/
CFSTRUCT/CHANNEL/PROCESS, ALTER, DELETE, ALTER QMGR).

``lexer`` splits a file into commands (comments, continuation lines, quoted values);
``schema`` knows each command's keywords and their values; ``reader`` checks a file
and applies it to a queue manager. Every problem is reported with its file, line and
column, all of them at once, and nothing is applied from a file that has one.
"""

from qsg.mqsc.errors import MQSCError, Problem
from qsg.mqsc.reader import Command, apply, load, parse

__all__ = ["Command", "MQSCError", "Problem", "apply", "load", "parse"]
