"""pymqi's ``Queue``: MQOPEN (now, or deferred to the first put, get, inquire or set,
as pymqi defers it), MQPUT, MQGET, MQINQ, MQSET and MQCLOSE on a simulated queue.

Options pass through unchanged, so the connected queue manager's platform decides what
pymqi leaves unsaid: on z/OS an MQPUT or MQGET with neither SYNCPOINT nor NO_SYNCPOINT
is in syncpoint, elsewhere it is not (the rules layer's choice, as the queue manager's).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from qsg.core import structs as core
from qsg.core.object_handle import OBJECT_TYPES
from qsg.pymqi import CMQC, convert, history, structs, unsupported
from qsg.pymqi.connection import QueueManager, common_q_args, make_q_desc
from qsg.pymqi.errors import MQMIError, PYIFError
from qsg.pymqi.rfh2 import rfh2_get_headers, rfh2_put_body

if TYPE_CHECKING:
    from actors.mqi import OpenObject
    from actors.mqi import Queue as QueueHandle


class Queue:
    """pymqi's ``Queue(qMgr[, qDesc[, openOpts]])``: with both, opened at once; with a
    descriptor only, at the first put (MQOO_OUTPUT), get (MQOO_INPUT_AS_Q_DEF), inquire
    (MQOO_INQUIRE) or set (MQOO_SET); with neither, by ``open``."""

    #: Whether this queue's calls go into the chaos history a world keeps (``qsg exec
    #: --check``). PCFExecute's queues carry administration, not the program's
    #: messages, and are left out (``qsg.pymqi.pcf``).
    records_history: ClassVar[bool] = True

    def __init__(self, qMgr: QueueManager, *opts: Any) -> None:
        self._qmgr = qMgr
        self._handle: QueueHandle | None = None
        #: A namelist, process or queue manager opened (OD.ObjectType): MQINQ only.
        self._object: OpenObject | None = None
        self._recorded = False
        self._desc: Any = None
        self._options: int | None = None
        if len(opts) > 2:
            raise TypeError("Too many args")
        if opts:
            self._desc = make_q_desc(opts[0])
        if len(opts) == 2:
            self._options = opts[1]
            self._real_open()

    def _real_open(self) -> None:
        if self._desc is None:
            raise PYIFError("The Queue Descriptor has not been set.")
        conn = self._qmgr._connected()
        od = convert.to_core(self._desc, core.OD)
        options = self._options
        if od.ObjectType in OBJECT_TYPES:  # a namelist, process or queue manager
            self._object = self._qmgr._call(conn.open_object, od, options)
            return
        self._handle = self._qmgr._call(conn.open, od, options)
        #: Whether the world keeps a chaos history (the calls are then recorded).
        self._recorded = self.records_history and conn.qm.world.history
        convert.write_back(od, self._desc)

    def open(self, qDesc: Any, *opts: Any) -> None:
        """MQOPEN of ``qDesc`` (a name or an OD) with ``openOpts`` now, or deferred."""
        if len(opts) > 1:
            raise TypeError("Too many args")
        if self._handle is not None or self._object is not None:
            raise PYIFError("The Queue is already open")
        self._desc = make_q_desc(qDesc)
        if opts:
            self._options = opts[0]
            self._real_open()

    def _open_for(self, options: int) -> QueueHandle:
        if self._object is not None:  # MQPUT or MQGET on a namelist's handle
            reason = CMQC.MQRC_NOT_OPEN_FOR_OUTPUT
            if options & CMQC.MQOO_INPUT_AS_Q_DEF:
                reason = CMQC.MQRC_NOT_OPEN_FOR_INPUT
            raise MQMIError(CMQC.MQCC_FAILED, reason)
        if self._handle is None:
            self._options = options
            self._real_open()
        assert self._handle is not None
        return self._handle

    # ---- MQPUT -------------------------------------------------------------------------
    def put(self, msg: bytes | str, *opts: Any) -> None:
        """MQPUT of ``msg`` with an MD and a PMO (both optional; written back)."""
        md, pmo = _md_and_options(opts)
        body = msg if type(msg) is bytes else self._qmgr.encode_message(msg, md)
        core_md = convert.to_core(md, core.MD)
        core_pmo = core.PMO() if pmo is None else convert.to_core(pmo, core.PMO)
        handle = self._handle or self._open_for(CMQC.MQOO_OUTPUT)
        if self._recorded:
            put = partial(handle.put, body, core_md, core_pmo)
            self._qmgr._call(history.put, handle.connection, handle.name, put, core_md, core_pmo)
        else:
            self._qmgr._call(handle.put, body, core_md, core_pmo)
        if core_md is not md:
            convert.write_back(core_md, md)
        if pmo is not None and core_pmo is not pmo:
            convert.write_back(core_pmo, pmo)

    def put_rfh2(self, msg: bytes, *opts: Any) -> None:
        """MQPUT of ``msg`` behind the RFH2 headers listed in ``opts[2]``, each packed in
        the encoding of the structure before it (the MD's for the first)."""
        convert.not_unicode(msg)
        if len(opts) >= 3:
            self.put(rfh2_put_body(msg, opts[0], opts[2]), *opts[0:2])
        else:
            self.put(msg, *opts)

    # ---- MQGET -------------------------------------------------------------------------
    def get(self, maxLength: int | None = None, *opts: Any) -> bytes:
        """MQGET of a message (a browse with MQGMO_BROWSE_*): the whole message when
        ``maxLength`` is None, else at most that many bytes (MQRC_TRUNCATED_MSG_FAILED,
        or with MQGMO_ACCEPT_TRUNCATED_MSG the start of it and _ACCEPTED, raised with
        ``message`` and ``original_length`` as pymqi does)."""
        md, gmo = _md_and_options(opts)
        core_md = convert.to_core(md, core.MD)
        core_gmo = core.GMO() if gmo is None else convert.to_core(gmo, core.GMO)
        handle = self._handle or self._open_for(CMQC.MQOO_INPUT_AS_Q_DEF)
        try:
            if self._recorded:
                get = partial(handle.get, maxLength, core_md, core_gmo)
                body: bytes = self._qmgr._call(
                    history.get, handle.connection, handle.name, get, core_md, core_gmo
                )
            else:
                body = self._qmgr._call(handle.get, maxLength, core_md, core_gmo)
        except MQMIError as error:
            if error.comp == CMQC.MQCC_WARNING:
                self._write_back(core_md, md, core_gmo, gmo)
            raise
        if core_md is not md or (gmo is not None and core_gmo is not gmo):
            self._write_back(core_md, md, core_gmo, gmo)
        return body

    @staticmethod
    def _write_back(core_md: core.MD, md: Any, core_gmo: core.GMO, gmo: Any) -> None:
        convert.write_back(core_md, md)
        if gmo is not None:
            convert.write_back(core_gmo, gmo)

    def get_no_jms(self, max_length: int | None = None, *args: Any) -> bytes:
        """MQGET without message properties (MQGMO_NO_PROPERTIES), as pymqi's."""
        md, gmo = common_q_args(*args)
        if not gmo:
            gmo = structs.GMO()
        gmo.Options = gmo.Options | CMQC.MQGMO_NO_PROPERTIES | CMQC.MQGMO_FAIL_IF_QUIESCING
        return self.get(max_length, md, gmo)

    get_no_rfh2 = get_no_jms

    def get_rfh2(self, max_length: int | None = None, *opts: Any) -> bytes:
        """MQGET, then the RFH2 headers at the start of the message unpacked into the
        list ``opts[2]`` (while the Format before says MQFMT_RF_HEADER_2); returns the
        data after them."""
        if len(opts) < 3:
            return self.get(max_length, *opts)
        headers = opts[2]
        if headers is None:
            raise AttributeError("get_opts cannot be None if passed.")
        if not isinstance(headers, list):
            raise TypeError("Third item of opts should be a list.")
        msg = self.get(max_length, *opts[0:2])
        return rfh2_get_headers(msg, opts[0], headers)

    # ---- MQINQ, MQSET, MQCLOSE -----------------------------------------------------------
    def inquire(self, attribute: int) -> int | bytes:
        """MQINQ of one attribute of the queue (opened for MQOO_INQUIRE if not open)."""
        if self._handle is None and self._object is None:  # pymqi's deferred open
            self._options = CMQC.MQOO_INQUIRE
            self._real_open()
        if self._object is not None:
            return self._qmgr._call(self._object.inquire, attribute)
        handle = self._open_for(CMQC.MQOO_INQUIRE)
        return self._qmgr._call(handle.inquire, attribute)

    def set(self, attribute: int, arg: int | bytes) -> None:
        """MQSET of one attribute (opened for MQOO_SET if not open)."""
        convert.not_unicode(arg)
        if self._object is not None:
            self._qmgr._call(self._object.set, attribute, arg)
            return
        handle = self._open_for(CMQC.MQOO_SET)
        self._qmgr._call(handle.set, attribute, arg)

    def close(self, options: int = CMQC.MQCO_NONE) -> None:
        """MQCLOSE (MQCO_DELETE / MQCO_DELETE_PURGE for a permanent dynamic queue)."""
        if self._object is not None:
            self._qmgr._call(self._object.close, options)
            self._object = self._desc = self._options = None
            return
        if self._handle is None:
            raise PYIFError("not open")
        self._qmgr._call(self._handle.close, options)
        self._handle = self._desc = self._options = None

    def cb(self, **kwargs: Any) -> None:
        """``ibmmq``'s MQCB on a queue: MQRC_FUNCTION_NOT_SUPPORTED (asynchronous consume)."""
        self._qmgr._connected()
        raise unsupported.async_consume("MQCB")

    def get_handle(self) -> QueueHandle | None:
        """The object handle (None while not open)."""
        return self._handle

    def set_handle(self, queue_handle: QueueHandle) -> None:
        self._handle = queue_handle
        self._recorded = self.records_history and queue_handle.connection.qm.world.history

    def __repr__(self) -> str:
        name = self._handle.name if self._handle is not None else "not open"
        return f"<qsg.pymqi.Queue {name}>"


def _md_and_options(opts: tuple[Any, ...]) -> tuple[Any, Any]:
    """``common_q_args`` for the two calls made most (inline: each costs a little)."""
    if len(opts) == 2:
        md, options = opts
        return (structs.MD() if md is None else md), options
    return common_q_args(*opts)


__all__ = ["Queue"]
