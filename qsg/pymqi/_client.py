"""The connection structures: ``CD`` (MQCD), ``SCO`` (MQSCO), ``CSP`` (MQCSP), ``CNO`` (MQCNO).

Exports ``CD``/``cd``, ``SCO``/``sco``, ``CSP`` and ``CNO``, with pymqi's fields and
defaults (a client-connection channel over TCP; ``CSP`` and ``CNO`` as IBM's ``ibmmq``
package has them, which pymqi 1.12 builds in C instead). The simulator reads only names
from them (a ``CD``'s ``ChannelName`` and ``ConnectionName``, a ``CSP``'s user and
password); the other fields are kept, packed and unpacked, never acted on.
"""

from __future__ import annotations

from qsg.pymqi import CMQC, CMQXC
from qsg.pymqi._opts import MQLONG, MQOpts

L = MQLONG


class CD(MQOpts):
    """MQCD, the channel definition (IBM: "MQCD - Channel definition"), up to version 12
    as pymqi packs it; ``Version`` defaults to 6, as pymqi's."""

    _layout = (
        ("ChannelName", "20s", b""),
        ("Version", L, CMQXC.MQCD_VERSION_6),
        ("ChannelType", L, CMQC.MQCHT_CLNTCONN),
        ("TransportType", L, CMQC.MQXPT_TCP),
        ("Desc", "64s", b""),
        ("QMgrName", "48s", b""),
        ("XmitQName", "48s", b""),
        ("ShortConnectionName", "20s", b""),
        ("MCAName", "20s", b""),
        ("ModeName", "8s", b""),
        ("TpName", "64s", b""),
        ("BatchSize", L, 50),
        ("DiscInterval", L, 6000),
        ("ShortRetryCount", L, 10),
        ("ShortRetryInterval", L, 60),
        ("LongRetryCount", L, 999999999),
        ("LongRetryInterval", L, 1200),
        ("SecurityExit", "128s", b""),
        ("MsgExit", "128s", b""),
        ("SendExit", "128s", b""),
        ("ReceiveExit", "128s", b""),
        ("SeqNumberWrap", L, 999999999),
        ("MaxMsgLength", L, 4194304),
        ("PutAuthority", L, CMQC.MQPA_DEFAULT),
        ("DataConversion", L, CMQC.MQCDC_NO_SENDER_CONVERSION),
        ("SecurityUserData", "32s", b""),
        ("MsgUserData", "32s", b""),
        ("SendUserData", "32s", b""),
        ("ReceiveUserData", "32s", b""),
        # Version 2
        ("UserIdentifier", "12s", b""),
        ("Password", "12s", b""),
        ("MCAUserIdentifier", "12s", b""),
        ("MCAType", L, CMQC.MQMCAT_PROCESS),
        ("ConnectionName", "264s", b""),
        ("RemoteUserIdentifier", "12s", b""),
        ("RemotePassword", "12s", b""),
        # Version 3
        ("MsgRetryExit", "128s", b""),
        ("MsgRetryUserData", "32s", b""),
        ("MsgRetryCount", L, 10),
        ("MsgRetryInterval", L, 1000),
        # Version 4
        ("HeartbeatInterval", L, 300),
        ("BatchInterval", L, 0),
        ("NonPersistentMsgSpeed", L, CMQC.MQNPMS_FAST),
        ("StrucLength", L, CMQXC.MQCD_CURRENT_LENGTH),
        ("ExitNameLength", L, CMQC.MQ_EXIT_NAME_LENGTH),
        ("ExitDataLength", L, CMQC.MQ_EXIT_DATA_LENGTH),
        ("MsgExitsDefined", L, 0),
        ("SendExitsDefined", L, 0),
        ("ReceiveExitsDefined", L, 0),
        ("MsgExitPtr", "P", 0),
        ("MsgUserDataPtr", "P", 0),
        ("SendExitPtr", "P", 0),
        ("SendUserDataPtr", "P", 0),
        ("ReceiveExitPtr", "P", 0),
        ("ReceiveUserDataPtr", "P", 0),
        # Version 5
        ("ClusterPtr", "P", 0),
        ("ClustersDefined", L, 0),
        ("NetworkPriority", L, 0),
        # Version 6
        ("LongMCAUserIdLength", L, 0),
        ("LongRemoteUserIdLength", L, 0),
        ("LongMCAUserIdPtr", "P", 0),
        ("LongRemoteUserIdPtr", "P", 0),
        ("MCASecurityId", "40s", CMQC.MQSID_NONE),
        ("RemoteSecurityId", "40s", CMQC.MQSID_NONE),
        # Version 7
        ("SSLCipherSpec", "32s", b""),
        ("SSLPeerNamePtr", "P", 0),
        ("SSLPeerNameLength", L, 0),
        ("SSLClientAuth", L, CMQXC.MQSCA_REQUIRED),
        ("KeepAliveInterval", L, CMQXC.MQKAI_AUTO),
        ("LocalAddress", "48s", b""),
        ("BatchHeartbeat", L, 0),
        # Version 8
        ("HdrCompList", "2" + L, [CMQXC.MQCOMPRESS_NONE, CMQXC.MQCOMPRESS_NOT_AVAILABLE]),
        ("MsgCompList", "16" + L, [CMQXC.MQCOMPRESS_NONE] + 15 * [CMQXC.MQCOMPRESS_NOT_AVAILABLE]),
        ("CLWLChannelRank", L, 0),
        ("CLWLChannelPriority", L, 0),
        ("CLWLChannelWeight", L, 50),
        ("ChannelMonitoring", L, CMQC.MQMON_OFF),
        ("ChannelStatistics", L, CMQC.MQMON_OFF),
        # Version 9
        ("SharingConversations", L, 10),
        ("PropertyControl", L, CMQC.MQPROP_COMPATIBILITY),
        ("MaxInstances", L, 999999999),
        ("MaxInstancesPerClient", L, 999999999),
        ("ClientChannelWeight", L, 0),
        ("ConnectionAffinity", L, CMQXC.MQCAFTY_PREFERRED),
        # Version 10
        ("BatchDataLimit", L, 5000),
        ("UseDLQ", L, CMQC.MQUSEDLQ_YES),
        ("DefReconnect", L, CMQXC.MQRCN_NO),
        # Version 11
        ("CertificateLabel", "64s", b""),
        # Version 12
        ("SPLProtection", L, CMQXC.MQSPL_PASSTHRU),
    )


class SCO(MQOpts):
    """MQSCO, the SSL/TLS configuration options (IBM: "MQSCO - SSL/TLS configuration
    options"), version 5 as pymqi packs it against an MQ 8 or later client."""

    _layout = (
        ("StrucId", "4s", CMQC.MQSCO_STRUC_ID),
        ("Version", L, CMQC.MQSCO_VERSION_5),
        ("KeyRepository", "256s", b""),
        ("CryptoHardware", "256s", b""),
        ("AuthInfoRecCount", L, 0),
        ("AuthInfoRecOffset", L, 0),
        ("AuthInfoRecPtr", "P", 0),
        # Version 2
        ("KeyResetCount", L, CMQC.MQSCO_RESET_COUNT_DEFAULT),
        ("FipsRequired", L, CMQC.MQSSL_FIPS_NO),
        # Version 3
        (
            "EncryptionPolicySuiteB",
            "4" + L,
            [CMQC.MQ_SUITE_B_NONE] + 3 * [CMQC.MQ_SUITE_B_NOT_AVAILABLE],
        ),
        # Version 4
        ("CertificateValPolicy", L, CMQC.MQ_CERT_VAL_POLICY_DEFAULT),
        # Version 5
        ("CertificateLabel", "64s", b""),
    )


class CSP(MQOpts):
    """MQCSP, the security parameters of MQCONNX (IBM: "MQCSP - Security parameters"),
    version 1, with the field names of IBM's ``ibmmq`` package: ``CSPUserId`` and
    ``CSPPassword`` hold the user id and password themselves (the C structure's pointers
    pack as 0, their lengths as the values' lengths)."""

    _layout = (
        ("StrucId", "4s", CMQC.MQCSP_STRUC_ID),
        ("Version", L, CMQC.MQCSP_VERSION_1),
        ("AuthenticationType", L, CMQC.MQCSP_AUTH_NONE),
        ("Reserved1", "4s", b""),
        ("CSPUserId", "P", b""),
        ("CSPUserIdOffset", L, 0),
        ("CSPUserIdLength", L, 0),
        ("Reserved2", "8s", b""),
        ("CSPPassword", "P", b""),
        ("CSPPasswordOffset", L, 0),
        ("CSPPasswordLength", L, 0),
    )

    def _values(self) -> list[object]:
        values = super()._values()
        names = [name for name, _, _ in self._layout]
        for name in ("CSPUserId", "CSPPassword"):
            value = values[names.index(name)]
            if not isinstance(value, bytes):  # a pointer given as a number, as in C
                continue
            values[names.index(name)] = 0
            values[names.index(name + "Length")] = len(value)
        return values


class CNO(MQOpts):
    """MQCNO, the connect options of MQCONNX (IBM: "MQCNO - Connect options"), up to
    version 8; ``Version`` defaults to 5, as ``ibmmq``'s. The pointers to the MQCD, MQSCO,
    MQCSP and MQBNO pack as numbers: the facade's ``connect_with_options`` takes those
    structures themselves."""

    _layout = (
        ("StrucId", "4s", CMQC.MQCNO_STRUC_ID),
        ("Version", L, CMQC.MQCNO_VERSION_5),
        ("Options", L, CMQC.MQCNO_NONE),
        # Version 2
        ("ClientConnOffset", L, 0),
        ("ClientConnPtr", "P", 0),
        # Version 3
        ("ConnTag", "128s", CMQC.MQCT_NONE),
        # Version 4
        ("SSLConfigPtr", "P", 0),
        ("SSLConfigOffset", L, 0),
        # Version 5
        ("ConnectionId", "24s", CMQC.MQCONNID_NONE),
        ("SecurityParmsOffset", L, 0),
        ("SecurityParmsPtr", "P", 0),
        # Version 6
        ("CCDTUrlPtr", "P", 0),
        ("CCDTUrlOffset", L, 0),
        ("CCDTUrlLength", L, 0),
        ("Reserved", "8s", b""),
        # Version 7
        ("ApplName", "28s", CMQC.MQAN_NONE),
        ("Reserved2", "4s", b""),
        # Version 8
        ("BalanceParmsPtr", "P", 0),
        ("BalanceParmsOffset", L, 0),
        ("Reserved3", "4s", b""),
    )


# pymqi's lower-case aliases.
cd = CD
sco = SCO
