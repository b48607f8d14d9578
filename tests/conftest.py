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


TWO_SUITS_TOML = "[deck]\nsuits = 2\nranks = 4\ncopies = 2\njokers = 1\n"


@pytest.fixture(scope="session")
def two_suit_tables(tmp_path_factory):
    """The solve of the two-suit mini deck (2 suits x ranks 1-4, 2 copies, 1 joker), made once per session."""
    from solver.solve import solve

    directory = tmp_path_factory.mktemp("two-suit-solve") / "tables"
    solve(GameConfig(suits=2, ranks=4, copies=2, jokers=1), directory, n_jobs=2, quiet=True)
    return directory


@pytest.fixture(scope="session", autouse=True)
def _leave_no_query_indexes():
    """Solves made by the tests build query indexes in the user's cache folder; delete those this
    session added when it ends (the folder's tables and kernels are kept: they speed up the next run)."""
    from solver.diskcache import cache_dir

    before = set(cache_dir().glob("tables-*.sqlite"))
    yield
    for path in set(cache_dir().glob("tables-*.sqlite")) - before:
        path.unlink(missing_ok=True)
