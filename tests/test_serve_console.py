"""``qsg serve``'s live console in a real headless browser (Debian's Chromium, driven by
Playwright, as the report's tests): the page loads without script errors, a queue's
depth rises on screen after REST puts and its chart draws, a killed member turns red,
and the MQSC box runs a command through the administrative REST API."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from tests.browser import FLAGS, chromium
from tests.claims import keeps
from tests.serving import serving

SCENARIO = """
description = "the console's test"
[run]
duration = 3600
seed = 4
in_process = true

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(DEV.QUEUE.1) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(100)"

[qsg.QSG1.structures.APP1]
size_kb = 65536

[qmgr.QM1]
[qmgr.QM2]

[[fault]]
at = 6
action = "kill"
qmgr = "QM2"
duration = 3000
"""
RED = "rgb(198, 40, 40)"  # the console's colour of a killed queue manager


@keeps("docs/rest.md", "every queue manager (green running, amber paused, red killed)")
def test_the_console_shows_depths_rising_after_rest_puts_and_a_killed_member_in_red(
    tmp_path: Path,
) -> None:
    from playwright.sync_api import sync_playwright

    scenario = tmp_path / "console.toml"
    scenario.write_text(SCENARIO)
    with serving(scenario) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=FLAGS)
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(server.url)
            page.wait_for_function("document.getElementById('link').textContent === 'live'")
            row = page.locator("#queues tbody tr", has_text="DEV.QUEUE.1")
            row.wait_for()
            assert row.locator("td").nth(2).text_content() == "0"
            url = f"{server.url}/ibmmq/rest/v3/messaging/qmgr/QM1/queue/DEV.QUEUE.1/message"
            headers = {"ibm-mq-rest-csrf-token": "", "Content-Type": "text/plain"}
            for n in range(5):
                assert httpx.post(url, headers=headers, content=f"m{n}").status_code == 201
            page.wait_for_function(
                "Array.from(document.querySelectorAll('#queues tbody tr'))"
                ".some(r => r.cells[1].textContent === 'DEV.QUEUE.1'"
                " && r.cells[2].textContent === '5')",
                timeout=10_000,
            )
            assert row.locator("svg.spark polyline").count() == 1  # its chart drew
            killed = page.locator("#qmgrs tbody tr", has_text="QM2").locator("td").nth(2)
            page.wait_for_function(
                "Array.from(document.querySelectorAll('#qmgrs tbody tr'))"
                ".some(r => r.cells[0].textContent === 'QM2'"
                " && r.cells[2].textContent === 'killed')",
                timeout=20_000,
            )
            assert killed.evaluate("td => getComputedStyle(td).color") == RED
            page.fill("#command", "DISPLAY QLOCAL(DEV.QUEUE.1) CURDEPTH")
            page.click("#mqsc button")
            page.wait_for_function(
                "document.getElementById('reply').textContent.includes('CURDEPTH(5)')"
            )
            time.sleep(0.5)
            assert errors == []
        finally:
            browser.close()


FILLING = """
description = "the console's fill and fault schedule test"
[run]
duration = 3600
seed = 5
in_process = true

[qsg.QSG1]
members = ["QM1", "QM2"]
mqsc = "DEFINE QLOCAL(DEV.QUEUE.2) QSGDISP(SHARED) CFSTRUCT(APP2) MAXDEPTH(100000)"

[qsg.QSG1.structures.APP2]
size_kb = 1024
recover = true

[qmgr.QM1]
[qmgr.QM2]

[[workload]]
name = "filler"
type = "putter"
qmgr = "QM1"
queue = "DEV.QUEUE.2"
rate = 40

[[fault]]
at = 2
action = "kill"
qmgr = "QM2"
duration = 3000

[[fault]]
at = 3500
action = "pause"
qmgr = "QM1"
"""


@keeps(
    "docs/rest.md",
    "each CF structure's entries against its maximum, its per cent full and its time to full",
)
@keeps(
    "docs/rest.md",
    "the fault schedule: the faults still to come (a fault with a `duration` and its undoing)",
)
def test_the_console_shows_a_structures_time_to_full_and_the_fault_schedule(
    tmp_path: Path,
) -> None:
    """A structure filling at a steady rate gets a time to full on screen; the kill at
    2 s moves from the schedule's coming faults to its done ones, its restart still to
    come."""
    from playwright.sync_api import sync_playwright

    scenario = tmp_path / "filling.toml"
    scenario.write_text(FILLING)
    with serving(scenario, "--speed", "2") as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=FLAGS)
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(server.url)
            page.wait_for_function("document.getElementById('link').textContent === 'live'")
            page.wait_for_function(
                "Array.from(document.querySelectorAll('#past tbody tr'))"
                ".some(r => r.cells[1].textContent === 'kill' && r.cells[2].textContent === 'QM2')",
                timeout=20_000,
            )
            coming = page.locator("#upcoming tbody tr").all_text_contents()
            assert any("restart" in r and "QM2" in r for r in coming), coming
            assert any("pause" in r and "QM1" in r for r in coming), coming
            assert not any("kill" in r for r in coming), coming
            page.wait_for_function(
                "Array.from(document.querySelectorAll('#structures tbody tr'))"
                ".some(r => r.cells[1].textContent === 'APP2'"
                " && / (s|min)$/.test(r.cells[5].textContent))",
                timeout=40_000,
            )
            row = page.locator("#structures tbody tr", has_text="APP2")
            assert float(row.locator("td.percent").text_content() or "0") > 10
            assert errors == []
        finally:
            browser.close()
