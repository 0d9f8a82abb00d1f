"""pymqi's ``CMQZC``: IBM MQ's constants of cmqzc.h, as ``from pymqi import CMQZC`` finds them.

The names and values of ``qsg.ibm.CMQZC`` (generated from pymqi 1.12.11's module and IBM's
header on Linux; docs/constants.md), the same objects: ``qsg.pymqi.CMQZC.X is qsg.ibm.CMQZC.X``.
"""

# A constant module is its names: a program reads CMQZC.MQ..., so every name is re-exported.
from qsg.ibm.CMQZC import *  # noqa: F403
