"""pymqi's classes for what the simulator does not model. Each fails as a queue manager
without the feature fails, with an ``MQMIError`` and IBM's reason code, never an
AttributeError, so a program's own error handling sees what it would see in MQ.

- Publish/subscribe (``Topic``, ``Subscription``): MQRC_PUBSUB_INHIBITED (2531), what
  MQOPEN of a topic and MQSUB return when the queue manager's PSMODE is DISABLED
  ("2531 (09E3) (RC2531): MQRC_PUBSUB_INHIBITED" in IBM MQ's reason codes).
- Message handles and properties (``MessageHandle``): MQRC_FUNCTION_NOT_SUPPORTED (2298),
  "the function requested is not available in the current environment".
- ``ibmmq``'s asynchronous consume (``QueueManager.cb`` and ``.ctl``, ``Queue.cb``: MQCB,
  MQCTL) and MQSTAT (``QueueManager.stat``): MQRC_FUNCTION_NOT_SUPPORTED (2298) too,
  raised by those methods (``qsg.pymqi.connection``, ``qsg.pymqi.queue``) with the
  errors made here.
"""

from __future__ import annotations

from typing import Any

from qsg.pymqi import CMQC
from qsg.pymqi.bridge import failed
from qsg.pymqi.errors import MQMIError, PYIFError


def _pubsub(what: str) -> MQMIError:
    return failed(
        CMQC.MQRC_PUBSUB_INHIBITED,
        f"{what}: publish/subscribe is not simulated (the queue managers run PSMODE(DISABLED))",
    )


class Topic:
    """pymqi's ``Topic``: MQRC_PUBSUB_INHIBITED when opened or published to."""

    def __init__(
        self,
        queue_manager: Any,
        topic_name: Any = None,
        topic_string: Any = None,
        topic_desc: Any = None,
        open_opts: Any = None,
    ) -> None:
        self.queue_manager = queue_manager
        if open_opts is not None:
            raise _pubsub("MQOPEN of a topic")

    def open(self, *args: Any, **kwargs: Any) -> None:
        raise _pubsub("MQOPEN of a topic")

    def pub(self, msg: Any, *opts: Any) -> None:
        raise _pubsub("MQPUT to a topic")

    def pub_rfh2(self, msg: Any, *opts: Any) -> None:
        raise _pubsub("MQPUT to a topic")

    def sub(self, *opts: Any) -> None:
        raise _pubsub("MQSUB")

    def close(self, options: int = CMQC.MQCO_NONE) -> None:
        raise PYIFError("not open")


class Subscription:
    """pymqi's ``Subscription``: MQRC_PUBSUB_INHIBITED when it subscribes."""

    def __init__(
        self,
        queue_manager: Any,
        sub_desc: Any = None,
        sub_name: Any = None,
        sub_queue: Any = None,
        sub_opts: Any = None,
        topic_name: Any = None,
        topic_string: Any = None,
    ) -> None:
        self.queue_manager = queue_manager
        if sub_desc is not None:
            raise _pubsub("MQSUB")

    def sub(self, *args: Any, **kwargs: Any) -> None:
        raise _pubsub("MQSUB")

    def get(self, *args: Any, **kwargs: Any) -> bytes:
        raise _pubsub("MQGET of a subscription")

    get_rfh2 = get

    def get_sub_queue(self) -> None:
        raise _pubsub("a subscription's queue")

    def close(self, *args: Any, **kwargs: Any) -> None:
        raise _pubsub("MQCLOSE of a subscription")


def async_consume(call: str) -> MQMIError:
    """The error of MQCB or MQCTL (``call``): asynchronous consume is not simulated."""
    return failed(
        CMQC.MQRC_FUNCTION_NOT_SUPPORTED, f"{call}: asynchronous consume is not simulated"
    )


def status() -> MQMIError:
    """The error of MQSTAT: there are no asynchronous puts or reconnections to report."""
    return failed(
        CMQC.MQRC_FUNCTION_NOT_SUPPORTED,
        "MQSTAT is not simulated (no asynchronous put or client reconnection to report)",
    )


class MessageHandle:
    """pymqi's ``MessageHandle`` (MQCRTMH): MQRC_FUNCTION_NOT_SUPPORTED."""

    default_value_length = 64

    def __init__(self, qmgr: Any = None, cmho: Any = None) -> None:
        raise failed(
            CMQC.MQRC_FUNCTION_NOT_SUPPORTED, "MQCRTMH: message properties are not simulated"
        )


__all__ = ["MessageHandle", "Subscription", "Topic", "async_consume", "status"]
