"""pymqi's ``CMQC``: IBM MQ's constants of cmqc.h, as ``from pymqi import CMQC`` finds them.

The names and values of ``qsg.ibm.CMQC`` (generated from pymqi 1.12.11's module and IBM's
header on Linux; docs/constants.md), the same objects: ``qsg.pymqi.CMQC.X is qsg.ibm.CMQC.X``.
"""

# A constant module is its names: a program reads CMQC.MQ..., so every name is re-exported.
from qsg.ibm.CMQC import *  # noqa: F403
