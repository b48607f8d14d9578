import pytest

from solver.cards import DeckGeometry
from solver.config import GameConfig


@pytest.fixture
def config() -> GameConfig:
    return GameConfig()


@pytest.fixture
def geometry() -> DeckGeometry:
    return GameConfig().geometry


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long exhaustive enumerations")
