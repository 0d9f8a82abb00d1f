# An RFH2 round trip in the manner of pymqi's tests (code/tests/test_rfh2_put_get.py):
# a message with an RFH2 header and a JMS-style folder, put with put_rfh2 and read back
# with get_rfh2, on the queue manager and queue of scenarios/exec-qsg.toml.

import pymqi
from pymqi import CMQC

qmgr = pymqi.connect('QM3')
put_queue = pymqi.Queue(qmgr, 'TEST.1')
get_queue = pymqi.Queue(qmgr, 'TEST.1')

rfh2 = pymqi.RFH2()
rfh2['Format'] = CMQC.MQFMT_STRING
rfh2['CodedCharSetId'] = 1208
rfh2['NameValueCCSID'] = 1208
rfh2.add_folder(b'<mcd><Msd>jms_text</Msd></mcd>')
rfh2.add_folder(b'<usr><Colour>blue</Colour></usr>')

put_mqmd = pymqi.md()
put_mqmd['Format'] = CMQC.MQFMT_RF_HEADER_2
put_mqmd['Encoding'] = 273
put_mqmd['CodedCharSetId'] = 1208
put_queue.put_rfh2(b'the payload', put_mqmd, pymqi.pmo(), [rfh2])

get_mqmd = pymqi.md()
rfh2_list = []
msg = get_queue.get_rfh2(None, get_mqmd, pymqi.gmo(), rfh2_list)
print(len(rfh2_list), rfh2_list[0]['usr'].strip().decode(), msg.decode())

put_queue.close()
get_queue.close()
qmgr.disconnect()
