"""A real headless browser for the report's tests: Debian's Chromium, driven by
Playwright (``./dev test`` installs the browser when it is missing)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

#: What the machine notes say Chromium needs on a machine with a closed network.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise RuntimeError(
            "no chromium on PATH: the report tests need a real browser "
            "(./dev test installs Debian's chromium package)"
        )
    return found


@dataclass
class Loaded:
    """What the browser saw: rendered plots (each with its SVG), the summary tables,
    and every script error the page raised."""

    plots: int
    drawn: int
    tables: list[str]
    errors: list[str] = field(default_factory=list)
    traces: int = 0
    #: Per plot, in the page's order: the SVG paths of its data drawn with a shape
    #: (a line, a band, a bar, a marker: a ``d`` longer than a bare move).
    paths: list[int] = field(default_factory=list)


def load(report: Path, screenshot: Path | None = None) -> Loaded:
    """Open ``report`` in headless Chromium and wait for plotly to draw every plot."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(report.resolve().as_uri())
            page.wait_for_load_state("load")
            divs = page.locator("div.plotly-graph-div").count()
            page.wait_for_function(
                f"document.querySelectorAll('.js-plotly-plot .main-svg').length >= {divs}",
                timeout=30_000,
            )
            drawn = page.locator(".js-plotly-plot").count()
            traces = page.evaluate(
                "Array.from(document.querySelectorAll('.js-plotly-plot'))"
                ".reduce((n, d) => n + d.data.length, 0)"
            )
            paths = page.evaluate(
                "Array.from(document.querySelectorAll('.js-plotly-plot')).map(d =>"
                " Array.from(d.querySelectorAll('.scatterlayer path, .barlayer path'))"
                ".filter(p => (p.getAttribute('d') || '').length > 3).length)"
            )
            tables = page.eval_on_selector_all(
                "table.summary", "ts => ts.map(t => t.dataset.table)"
            )
            if screenshot is not None:
                page.screenshot(path=str(screenshot), full_page=True)
            return Loaded(divs, drawn, tables, errors, traces, paths)
        finally:
            browser.close()
