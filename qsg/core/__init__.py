"""The MQ rules: synchronous, no I/O, no clock (every call takes ``now``).

A queue manager (``qmgr.py``) and its connections, handles and units of work; the queue
engine (``engine.py``) that decides every MQPUT and MQGET rule once, for local and
shared queues alike; the ``MessageStore`` protocol (``store.py``) and its in-process
store (``memstore.py``). docs/mq-rules.md lists each rule with IBM's title.
"""
