"""Worker processes: no more of them than there is work, and none outliving the command that started them.

joblib's loky workers are separate processes: when the command that
started them is killed (``kill -9``), they would go on computing a chunk
that nobody will read, for minutes on the real deck. So the process that
starts workers names itself in the environment (``MAHJONG_POKER_PARENT``,
inherited by its workers), and each worker, at its first task, asks the
kernel to kill it when that process dies (Linux's ``PR_SET_PDEATHSIG``: no
Python code has to run, so a kernel holding the interpreter's lock, or a
compilation, cannot delay it), and starts a thread that ends the worker
within half a second once that process is gone (elsewhere, and as a backup).
Workers never write into a table directory (the parent writes every file),
so a worker that lingers for that half second leaves nothing behind.
"""

from __future__ import annotations

import os
import signal
import threading
import time

PARENT = "MAHJONG_POKER_PARENT"
_watching = False
_lock = threading.Lock()


def mark_parent() -> None:
    """Name this process as the one whose workers must end with it. Called where work starts (a command,
    the solve, a deal evaluation), never in a worker; a value inherited from whatever started this
    process (a test runner, another command) is replaced."""
    os.environ[PARENT] = str(os.getpid())


def watch_parent() -> None:
    """In a worker: end this process once the process that started the work is gone, and leave Ctrl-C to
    that process. Idempotent, and nothing in that process itself or where no parent was named (a Dask
    cluster's workers)."""
    global _watching
    parent = int(os.environ.get(PARENT, "0") or 0)
    if not parent or parent == os.getpid():
        return
    with _lock:
        if _watching:
            return
        _watching = True
    try:  # Ctrl-C reaches the whole process group: the parent answers it (and stops its workers)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread (a threaded backend): nothing to do
        pass
    if os.getppid() == parent:
        _die_with_parent()
        if os.getppid() != parent:  # it died before the request took effect
            os._exit(1)

    def watch() -> None:
        while own_process_alive(parent):
            time.sleep(0.5)
        os._exit(1)  # the command is gone: stop computing what nobody will read

    threading.Thread(target=watch, name="mahjong-poker-parent-watch", daemon=True).start()


def own_process_alive(pid: int) -> bool:
    """Whether process ``pid``, one this user started, still runs: a pid reused by another user's process
    counts as gone."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _die_with_parent() -> None:
    """Ask Linux to send this process SIGKILL when its parent dies (nothing elsewhere)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the thread watches alone
        pass


#: The warning filter loky's resource tracker starts with (``-W`` syntax: a message prefix, a category).
TRACKER_WARNINGS = "ignore:resource_tracker:UserWarning"


def quiet_resource_tracker() -> None:
    """Keep loky's resource tracker from warning, as a command ends, of semaphores it cleans up.

    A worker killed mid-task (Ctrl-C stops the workers at once) can leave a queue's semaphore registered
    with the tracker, a process of its own that outlives the command by a moment. At exit it unlinks what
    is left, or finds it already gone, and says so on the shared standard error, below the one line an
    interrupted command prints. The cleanup is done either way: only the warning is dropped. The tracker
    takes its warning filters from the environment when it starts, so this runs before any work does."""
    current = os.environ.get("PYTHONWARNINGS", "")
    if TRACKER_WARNINGS not in current.split(","):
        os.environ["PYTHONWARNINGS"] = ",".join(filter(None, [current, TRACKER_WARNINGS]))


def work_processes(n_jobs: int, units: int) -> int:
    """How many processes to start for ``units`` pieces of work: ``n_jobs`` (-1: every core), never more
    than the units, at least one."""
    from joblib import effective_n_jobs

    return max(1, min(effective_n_jobs(n_jobs), units))


def stop_workers() -> None:
    """Kill the reusable loky workers now (after an interrupt: they would finish their tasks first), and wait
    for the executor to close its queues: exiting before that leaves loky's resource tracker warning of
    leaked semaphores."""
    try:
        from joblib.externals.loky import reusable_executor

        executor = reusable_executor._executor  # the one joblib reuses; None if none was started
        if executor is not None:
            executor.shutdown(wait=True, kill_workers=True)
    except Exception:  # already gone, or joblib changed its insides: the workers' watch still ends them
        pass
