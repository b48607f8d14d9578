"""The rules of the game: cards and the deck, the configuration, hu tests, the bonus bet's categories,
the game's symmetries and canonical forms, outcomes and options, the payouts stage A's walk reads
(``payouts``) and what a solve maximises (``objective``). No solving here.
"""
