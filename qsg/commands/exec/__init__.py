"""``qsg exec``: a pymqi program run, unchanged, inside a simulated scenario.

``program`` names and runs the program as the interpreter would; ``imports`` makes
``import pymqi`` / ``import ibmmq`` find ``qsg.pymqi``; ``clocks`` gives the program its
clock (the wall clock, or simulated time under ``--virtual``); ``runner`` runs it as a
task of the world's trio run; ``command`` is the click command. docs/pymqi.md tells a
user how to use it.
"""
