"""IBM MQ's programmable command format (PCF) constants of cmqcfc.h: ``CMQCFC.MQCMD_*``.

The command server's (MQCFH, the ``MQCMD_*`` commands, the ``MQIACF_``/``MQCACF_``/
``MQIACH_``/``MQCACH_`` parameters, the ``MQRCCF_*`` reason codes) and every user's, with
IBM's names and values: each name is ``qsg.ibm.CMQCFC``'s, generated from one source
(docs/constants.md), the same objects as pymqi's ``CMQCFC`` under qsg's facade. A name of
cmqc.h that PCF messages carry (``MQIA_*``, ``MQCA_*``, ``MQQSO_*``...) is ``qsg.CMQC``'s,
as in IBM's headers.
"""

# A constant module is its names: code reads CMQCFC.MQ..., so every name is re-exported.
from qsg.ibm.CMQCFC import *  # noqa: F403
