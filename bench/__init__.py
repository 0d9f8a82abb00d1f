"""Benchmarks, one module each, run as ``python -m bench.NAME`` (``./dev bench NAME``).

Run as modules, not as scripts: a script's own directory goes first on ``sys.path``,
where ``bench/coupling.py`` (now ``bench/cf.py``) once shadowed the ``coupling``
package. Figures, with the command that gave them, are in ``bench/RESULTS.md``.
"""
