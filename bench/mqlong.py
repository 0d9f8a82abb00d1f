"""What the MQLONG range checks at the MQI cost a put+get pair (issue 26).

The engine bench's loop (1 KB bodies, priorities 0-9, no syncpoint) through the rules
layer with the checks of ``qsg.core.mqlong`` on, and again with them switched off in
the same invocation (interleaved repetitions, each way first in every other one,
medians): the ratio is pairs per second with the checks over pairs per second without.
Target: at least 0.95. A call costs one dict lookup per structure unless a field was
given more than an MQLONG holds.

    ./dev bench mqlong                 # 7 repetitions of 50,000 pairs each way
    ./dev bench mqlong --pairs 10000 --repeat 3
"""

from __future__ import annotations

import argparse
import statistics
import timeit

from bench.engine import engine_pairs  # the engine bench's loop, as it is
from qsg import GMO, MD, PMO
from qsg.core import handle, mqlong


class _Unchecked:
    """``mqlong`` with its checks switched off, for the reference."""

    @staticmethod
    def check_put(*_: object) -> None:
        pass

    @staticmethod
    def check_get(*_: object) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    checked: list[float] = []
    unchecked: list[float] = []
    for seed in range(args.repeat):
        # Each way goes first in every other repetition: a loop runs faster second.
        for switched_off in (seed % 2 == 0, seed % 2 == 1):
            vars(handle)["mqlong"] = _Unchecked if switched_off else mqlong  # what calls use
            (unchecked if switched_off else checked).append(engine_pairs(args.pairs, seed))
        vars(handle)["mqlong"] = mqlong
    on, off = statistics.median(checked), statistics.median(unchecked)
    print(
        f"put+get pairs/s, median of {args.repeat} x {args.pairs:,}: with the MQLONG checks "
        f"{on:,.0f}, without {off:,.0f}; ratio {on / off:.3f} (target >= 0.95)"
    )
    # The checks alone, timed in the same invocation: closer than the ratio can say.
    md, pmo, gmo = MD(), PMO(), GMO()
    calls = 200_000

    def both() -> None:
        mqlong.check_put(md, pmo)
        mqlong.check_get(md, gmo)

    each = min(timeit.repeat(both, number=calls, repeat=5)) / calls
    print(
        f"the checks of one put and one get: {each * 1e6:.2f} us, against "
        f"{1e6 / off:.1f} us a pair without them ({each * off:.2%})"
    )


if __name__ == "__main__":
    main()
