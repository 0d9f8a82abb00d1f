"""The scripts' text (issue 5): each atomic primitive is one script, behind only the
prelude definitions it uses."""

from __future__ import annotations

import re

import pytest

from coupling import scripts
from coupling.scripts import _HELPERS, ALL, Script
from coupling.status import Status, lua_constants


def _words(*texts: str) -> set[str]:
    return {word for text in texts for word in re.findall(r"\w+", text)}


@pytest.mark.parametrize("script", ALL, ids=lambda s: s.name)
def test_every_prelude_definition_a_script_names_is_in_it(script: Script) -> None:
    # Lua reads a name with no local definition above it as a global, which the server
    # refuses only when that line runs: a missing helper would fail on a rare path, not
    # when the script is loaded. A definition can use only those above it.
    included = [text for _, text in _HELPERS if text in script.source]
    shebang, _, source = script.source.partition("\n")
    assert shebang.startswith("#!lua")
    body = source.removeprefix("".join(included))
    for i, (names, text) in enumerate(_HELPERS):
        later = [t for _, t in _HELPERS[i + 1 :] if t in included]
        if names & _words(body, *later):
            assert text in included, (script.name, sorted(names))


def test_a_script_carries_only_the_prelude_definitions_it_uses() -> None:
    # Lua builds every ``local function`` each time a script runs.
    assert "local function fmt" in scripts.PUT.source
    assert "local function state_of" not in scripts.PUT.source  # a put reads its own state
    assert "local function state_of" in scripts.GET.source
    assert "local function segments" not in scripts.PUT.source
    assert "local function segments" in scripts.GET.source
    assert "local function" not in scripts.LEASE_RELEASE.source


def test_the_scripts_name_their_status_replies_as_the_store_reads_them() -> None:
    # A status is a number on the wire and a name on both sides (coupling.status): a
    # script that wrote -5 where the store reads NO_QUEUE would drift unseen.
    assert lua_constants() == (
        "local OK, FULL, STORAGE_FULL, CF_LEVEL, STALE_TOKEN, NO_QUEUE, STRUCTURE_STATE,"
        " BACKED_OUT = 0, -1, -2, -3, -4, -5, -6, -7\n"
    )
    for script in ALL:
        assert not re.search(r"return \{-\d", script.source), script.name
        if re.search(
            r"return \{(OK|FULL|STORAGE_FULL|CF_LEVEL|STALE_TOKEN|NO_QUEUE)\b", script.source
        ):
            assert lua_constants() in script.source, script.name
    assert scripts.NO_QUEUE == Status.NO_QUEUE == -5
