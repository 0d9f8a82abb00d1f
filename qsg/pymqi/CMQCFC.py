"""pymqi's ``CMQCFC``: IBM MQ's constants of cmqcfc.h, as ``from pymqi import CMQCFC`` finds them.

The names and values of ``qsg.ibm.CMQCFC`` (generated from pymqi 1.12.11's module and IBM's
header on Linux; docs/constants.md), the same objects: ``qsg.pymqi.CMQCFC.X is qsg.ibm.CMQCFC.X``.
"""

# A constant module is its names: a program reads CMQCFC.MQ..., so every name is re-exported.
from qsg.ibm.CMQCFC import *  # noqa: F403
