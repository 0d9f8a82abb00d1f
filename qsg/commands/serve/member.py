"""A member process of ``qsg chaos --processes --rest`` that serves its own REST API.

``python -m qsg.commands.serve.member member LAYOUT`` is ``qsg.chaos.processes``'s
member (its queue manager, its applications, its member lease) with, beside them in
the same trio run, the REST API and console of ``qsg serve`` for that queue manager
alone, on the layout's ``rest_port`` (127.0.0.1, plain HTTP, open: a test rig), as each
mqweb serves the queue managers of its own machine. A request for another member is
404 (MQWB0009E), as mqweb answers for a queue manager it does not have; a command scope
over the group names the other members as not available to it. The server ends with
the life: a SIGKILL takes it down with its queue manager, and the new life serves the
same port again.
"""

from __future__ import annotations

import signal
import sys

from qsg.chaos.processes import Layout, Program, member_main
from qsg.commands.serve.server import ServeError, Settings, listen, program


def serving(layout: Layout) -> Program | None:
    """The program serving ``layout``'s member on its REST port (None without one); a
    port that cannot be listened on ends the process with one line (exit 2)."""
    if not layout.rest_port:
        return None
    settings = Settings(host="127.0.0.1", port=layout.rest_port)
    try:
        listening = listen(settings)
    except ServeError as error:
        print(f"{layout.q_mgr}: {error}", file=sys.stderr, flush=True)
        sys.exit(2)

    def started(urls: list[str]) -> None:
        shown = ", ".join(urls)
        print(f"{layout.q_mgr} (life {layout.life}): REST API on {shown}", file=sys.stderr)

    def signalled(received: signal.Signals) -> None:
        """The coordinator ends a member with SIGKILL: a signal here is a user's."""

    return program(listening, settings, layout.end, started, signalled)


if __name__ == "__main__" and sys.argv[1:2] == ["member"]:
    member_main(sys.argv[2:], serving)


__all__ = ["serving"]
