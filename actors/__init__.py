"""The running world: queue managers as trio actors in simulated time.

A ``World`` (``world.py``) holds the queue managers of a scenario, their channels, the
coupling facility link, the clock and the event stream; the MQI a program calls
(``mqi.py``) goes through each queue manager's dispatcher (``qmgr.py``) to the rules.
Faults, the command server, expiry scans and peer recovery are actors of the same run.
"""
