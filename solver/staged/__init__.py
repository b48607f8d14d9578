"""The staged solve: every state of every stage, backward (A: the holds, ``holds``; B, C, D: the draws,
the first holds and the deals, ``stages``), then the exact forward count of the return table
(``forward``, ``summary``). ``run.solve`` runs it, in resumable chunks.
"""
