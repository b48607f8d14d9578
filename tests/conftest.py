import pytest

from solver.game.cards import DeckGeometry
from solver.game.config import GameConfig


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
    from solver.staged.run import solve

    directory = tmp_path_factory.mktemp("two-suit-solve") / "tables"
    solve(GameConfig(suits=2, ranks=4, copies=2, jokers=1), directory, n_jobs=2, quiet=True)
    return directory


@pytest.fixture(scope="session", autouse=True)
def _leave_no_query_indexes(tmp_path_factory):
    """Solves made by the tests build query indexes in the user's cache folder: when the session ends,
    delete the indexes of the tables under this session's temporary folder (and only those: the
    folder's tables and kernels speed up the next run, and other processes' indexes are theirs)."""
    yield
    from solver.tables.index import index_path

    for summary in tmp_path_factory.getbasetemp().rglob("summary.parquet"):
        try:
            index_path(summary.parent).unlink(missing_ok=True)
        except OSError:  # the directory lacks one of the files an index is named by
            continue


_STORES_BEFORE = pytest.StashKey[set]()


def _column_stores() -> set:
    from solver.runtime.diskcache import cache_dir
    from solver.staged.column_store import FOLDER_PREFIX

    folder = cache_dir()
    return set(folder.glob(f"{FOLDER_PREFIX}*")) if folder.is_dir() else set()


def pytest_sessionstart(session):
    """Note the column stores in the user's cache folder before the tests (those are the user's). Only in
    the process that runs the session: with pytest-xdist, not in its workers, whose sessions overlap."""
    if not hasattr(session.config, "workerinput"):
        session.config.stash[_STORES_BEFORE] = _column_stores()


def pytest_sessionfinish(session, exitstatus):
    """Paytable variants that walk stage A store its payout-free columns in the user's cache folder: once
    every test has run, delete the stores the tests created (a worker that finishes first must not delete a
    store another worker's test is reading)."""
    import shutil

    before = session.config.stash.get(_STORES_BEFORE, None)
    if before is None:
        return
    for folder in _column_stores() - before:
        shutil.rmtree(folder, ignore_errors=True)
