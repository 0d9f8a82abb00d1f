"""Put on one connection, get on another: when does the other one see the message?

    python surprise.py QMGR

Written on a distributed habit: the put says neither MQPMO_SYNCPOINT nor
MQPMO_NO_SYNCPOINT. On Linux, Windows or IBM i the put is outside syncpoint and the
other connection gets the message at once; on z/OS the put is inside a unit of work,
and nobody else sees the message until the program commits.
"""

import sys

import pymqi

name = sys.argv[1]
writer = pymqi.connect(name)
pymqi.Queue(writer, "TEST.1").put(b"order 1")
reader = pymqi.Queue(pymqi.connect(name), "TEST.1")
try:
    reader.get()
    print(f"{name}: the other connection got it at once")
except pymqi.MQMIError as error:
    print(f"{name}: the other connection sees nothing: {error}")
    writer.commit()
    reader.get()
    print(f"{name}: after MQCMIT it gets it")
