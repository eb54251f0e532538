"""Runs every scenario of features/**/*.feature (steps: tests/steps/*.py)."""
from pathlib import Path

from pytest_bdd import scenarios

FEATURES = Path(__file__).resolve().parent.parent / "features"

if any(FEATURES.rglob("*.feature")):
    scenarios(str(FEATURES))
