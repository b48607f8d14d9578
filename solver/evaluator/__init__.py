"""The per-hand evaluator: every option of one decision (deal, draw, ting) with its exact EV, computed
from scratch (``api.evaluate``). It shares no table with the solve and is its independent check.
"""
