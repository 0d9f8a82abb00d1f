# pymqi's documented example "Getting a message from a queue" (code/examples/get_message.py),
# with the queue manager and queue of scenarios/exec-qsg.toml; it prints what it got.

import pymqi

queue_manager = 'QM2'
channel = 'DEV.APP.SVRCONN'
host = '127.0.0.1'
port = '1414'
queue_name = 'TEST.1'
conn_info = '%s(%s)' % (host, port)
user = 'app'
password = 'password'

qmgr = pymqi.connect(queue_manager, channel, conn_info, user, password)

queue = pymqi.Queue(qmgr, queue_name)
message = queue.get()
queue.close()

qmgr.disconnect()
print(message.decode())
