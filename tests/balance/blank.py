"""Blank charts for the tests of the report's wiring: drawing the six real ones takes 4 s of matplotlib,
and tests/balance/test_report.py proves them (byte-identical run to run, shown in the page)."""
from __future__ import annotations


def blank_charts(monkeypatch) -> None:
    """Make forge.balance.report draw blank charts of the real names (an empty PNG, an empty SVG)."""
    from forge.balance import report
    from forge.balance.charts import CHARTS, Chart

    monkeypatch.setattr(report, "all_charts", lambda *args: [Chart(n, n, n, b"", b"<svg/>") for n in CHARTS])
