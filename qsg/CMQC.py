"""IBM MQ's constants of cmqc.h, with IBM's names and values: ``CMQC.MQRC_Q_FULL``.

The rules layer's and every user's, and the same objects as pymqi's ``CMQC`` under qsg's
facade: each name is ``qsg.ibm.CMQC``'s, generated from one source (docs/constants.md).
Character constants (``MQFMT_*``, structure ids, the ``*_NONE`` identifiers) are ``bytes``
of IBM's exact length, blanks included. A one-character MQCHAR (``MQGS_*``, ``MQSS_*``,
``MQSEG_*``) is its character's code, an ``int``, as IBM's header (a C character constant)
and pymqi give it: ``MQGS_LAST_MSG_IN_GROUP == ord("L")``.
"""

# A constant module is its names: code reads CMQC.MQ..., so every name is re-exported.
from qsg.ibm.CMQC import *  # noqa: F403
