"""The coupling facility on a Redis-protocol server: shared queues kept by Lua scripts.

``store.py`` is the ``MessageStore`` of a QSG's structures on the server, each primitive
one script of ``scripts.py``; ``server.py`` starts the embedded Valkey or reaches the one
``QSG_REDIS_URL`` names; the transports carry the calls, blocking (``direct.py``,
``transport.py``) or from trio (``trio_transport.py``); ``lease.py`` fences a scan.
"""
