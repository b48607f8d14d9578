"""``mahjong-poker train``: a strategy trainer in the browser, every decision graded exactly.

- :mod:`solver.trainer.hand`: one hand dealt from a shuffled deck, walked through the rules in order
  (docs/rules.md, "A hand, step by step"), and its settlement;
- :mod:`solver.trainer.grading`: the grade of a decision, which is :func:`solver.products.query.best_play`
  on the same state (so it equals ``mahjong-poker best`` by construction), computed ahead in a
  background thread while the player looks, and, with a chart (``--chart``), what the chart plays there
  and what that costs;
- :mod:`solver.trainer.session`: a session of hands or drills, its score and its review queue;
- :mod:`solver.trainer.server`: the local web server, its JSON API and the page (``page.html``).

docs/trainer.md describes the page, its keys and the API.
"""
