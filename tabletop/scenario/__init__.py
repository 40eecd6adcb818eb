"""Scenario files (spec/scenario-format.md): loading, running, reporting."""

from tabletop.scenario.loader import FORMAT, Scenario, load
from tabletop.scenario.runner import Run, Session, build, run

__all__ = ["FORMAT", "Run", "Scenario", "Session", "build", "load", "run"]
