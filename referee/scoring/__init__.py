"""Scoring (台數) and settlement: see :mod:`referee.scoring.context` for the inputs."""
from .context import ContextError, FirstTurn, FlowerWin, Readiness, Stakes, WinContext, WinSource

__all__ = ["ContextError", "FirstTurn", "FlowerWin", "Readiness", "Stakes", "WinContext", "WinSource"]
