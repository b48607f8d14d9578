"""A progress bar over a few long steps of one command, each named as it starts (a chart's searches)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class Steps:
    """``total`` steps on standard error, the one running named beside the bar; silent when ``quiet``."""

    def __init__(self, label: str, total: int, quiet: bool) -> None:
        from tqdm import tqdm

        # bar_format without a rate: the steps differ too much in length for one to mean anything
        self._bar = tqdm(total=total, desc=label, disable=True if quiet else None, unit="step",
                         bar_format="{desc}: {n_fmt}/{total_fmt} steps, {elapsed} |{postfix}")

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        """Name the step while it runs; count it done when it ends."""
        self._bar.set_postfix_str(name)
        yield
        self._bar.update(1)

    def close(self) -> None:
        """End the bar (its last line stays on screen)."""
        self._bar.set_postfix_str("done")
        self._bar.close()
