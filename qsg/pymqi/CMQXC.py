"""pymqi's ``CMQXC``: IBM MQ's constants of cmqxc.h, as ``from pymqi import CMQXC`` finds them.

The names and values of ``qsg.ibm.CMQXC`` (generated from pymqi 1.12.11's module and IBM's
header on Linux; docs/constants.md), the same objects: ``qsg.pymqi.CMQXC.X is qsg.ibm.CMQXC.X``.
"""

# A constant module is its names: a program reads CMQXC.MQ..., so every name is re-exported.
from qsg.ibm.CMQXC import *  # noqa: F403
