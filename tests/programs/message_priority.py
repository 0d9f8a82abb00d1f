# pymqi's documented example code/examples/message_priority.py, run by qsg exec on
# scenarios/exec-qsg.toml, on QM3 (Linux): on a z/OS member its put is in syncpoint and its
# own get finds nothing.

import logging

import pymqi

logging.basicConfig(level=logging.INFO)

queue_manager = 'QM3'
channel = 'DEV.APP.SVRCONN'
host = '127.0.0.1'
port = '1414'
queue_name = 'TEST.1'
message = 'Hello from Python!'
priority = 2
conn_info = '%s(%s)' % (host, port)
user = 'app'
password = 'password'

put_md = pymqi.MD()
put_md.Priority = priority

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)

put_queue = pymqi.Queue(qmgr, queue_name)
put_queue.put(message, put_md)

get_md = pymqi.MD()
get_queue = pymqi.Queue(qmgr, queue_name)
message_body = get_queue.get(None, get_md)

logging.info('Received a message, priority `%s`.' % get_md.Priority)

put_queue.close()
get_queue.close()
qmgr.disconnect()
