"""The coupling-facility server's own accounting of the scripts it ran (``INFO
commandstats``), for the benchmarks: what the server spent is measured by the server,
not inferred from the client's clock."""

from __future__ import annotations

from coupling.trio_transport import TrioTransport


async def reset_statistics(url: str) -> bool:
    """Zero the server's command statistics; False if it refuses (a managed server may
    refuse CONFIG)."""
    async with TrioTransport.open(url) as transport:
        try:
            await transport.acommand("CONFIG", "RESETSTAT")
        except RuntimeError:
            return False
    return True


async def script_time(url: str) -> tuple[int, float] | None:
    """How many scripts (EVALSHA) the server ran since its statistics were reset, and the
    seconds it spent in them; None if the server does not say."""
    async with TrioTransport.open(url) as transport:
        info = await transport.acommand("INFO", "commandstats")
    for line in info.decode().splitlines():
        if line.startswith("cmdstat_evalsha:"):
            fields = dict(part.split("=") for part in line.split(":", 1)[1].split(","))
            return int(fields["calls"]), int(fields["usec"]) / 1e6
    return None
