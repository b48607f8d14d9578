"""Helpers that run table work beside the caller: order, how far ahead, errors."""

from __future__ import annotations

import pytest

from solver.tables.files import in_threads, one_ahead


def test_one_ahead_keeps_order_and_raises_in_the_caller() -> None:
    assert list(one_ahead(iter(range(7)))) == list(range(7))

    def failing():
        yield 1
        raise ValueError("bad part")

    with pytest.raises(ValueError, match="bad part"):
        list(one_ahead(failing()))


def test_in_threads_keeps_order_and_draws_at_most_its_threads_ahead() -> None:
    drawn = []

    def items():
        for i in range(20):
            drawn.append(i)
            yield i

    for n, result in enumerate(in_threads(lambda i: i * i, items(), threads=3)):
        assert result == n * n
        assert len(drawn) <= n + 3  # never more than three drawn ahead of the one handed back
    assert len(drawn) == 20


def test_in_threads_raises_the_work_error_in_the_caller() -> None:
    def work(i: int) -> int:
        if i == 4:
            raise ValueError(f"item {i}")
        return i

    with pytest.raises(ValueError, match="item 4"):
        list(in_threads(work, range(10), threads=2))
