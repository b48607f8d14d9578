"""What users ask for, built on the tables or the evaluator: best play (``query``), the par sheet
(``edge``), the simulation check (``simulate``), strategy charts (``chart``, ``patterns``).
"""
