"""numba kernels that load on their first compiled call, and can run as plain Python.

Importing numba and loading a kernel from numba's on-disk cache take far
longer than the few hundred hu tests of a ting query take in plain Python
(docs/performance.md has the figures). So :func:`kernel` marks a function for
numba without importing it. The first call outside :func:`interpreted`
imports numba, makes every kernel's dispatcher and rebinds the package's
module globals to them (numba must see a kernel called by another kernel as
a dispatcher to call it directly or inline it), then compiles the kernel
or loads it from numba's cache.

numba reuses a cached kernel until the kernel's own source file changes,
not when a kernel it calls or a constant it reads changes in another file
(a documented limitation), which would silently run stale code after an
edit or an update. So the cache lives in a folder named by a digest of
every source file of the package (under ``$NUMBA_CACHE_DIR`` if set, else
under the package's cache folder, else under the system's temporary
folder; kernels are not cached when none can be written): any change
compiles everything afresh.

Inside ``with interpreted():`` a kernel runs as plain Python, and so do
the kernels it calls as long as the package's globals are not yet bound,
that is in a process that has compiled nothing: that is what a ting query
is. Once they are bound, the kernels compiled code reaches through them run
compiled (right, but paying numba's start-up). For the hu and ting kernels
the plain-Python run gives the same integers and, operation for operation,
the same floats (tested); it returns numpy scalars where a compiled call
returns Python numbers. Not every kernel is interchangeable so: numba has
its own random generator, and int64 arithmetic wraps where Python's ints
do not.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import update_wrapper
from pathlib import Path
from typing import Any

_interpreted: ContextVar[bool] = ContextVar("interpreted", default=False)
_lock = threading.RLock()
_pending: list[Kernel] = []  # kernels whose dispatchers are not yet published, to be bound together
_typing_registered = False
_compiles_watched = False

#: Set (by the command line) to the path of a marker file that does not exist yet: the first process of the
#: command, workers included, that compiles a kernel rather than loading it from numba's cache creates it and
#: says so on stderr, so that a first run's minute of compiling is not a silent one.
COMPILE_NOTICE_ENV = "MAHJONG_POKER_COMPILE_NOTICE"
COMPILE_NOTICE = ("mahjong-poker: compiling the kernels this command needs, once for this version of the code "
                  "(a minute or two at most; later runs load them from the cache)")


class Kernel:
    """A function compiled with ``numba.njit(**options)`` when first called compiled."""

    def __init__(self, py_func: Callable[..., Any], options: dict[str, Any]) -> None:
        self.py_func = py_func
        self.options = options
        self._made: Any = None  # the dispatcher, once made
        self._dispatcher: Any = None  # the same, once the package's globals are bound to it
        update_wrapper(self, py_func)
        with _lock:
            _pending.append(self)

    @property
    def dispatcher(self) -> Any:
        """The numba dispatcher (compiled on its first call)."""
        if self._dispatcher is None:
            with _lock:
                if self._dispatcher is None:
                    _bind_dispatchers()
        return self._dispatcher

    def __call__(self, *args: Any) -> Any:
        if _interpreted.get():
            return self.py_func(*args)
        return self.dispatcher(*args)


def kernel(py_func: Callable[..., Any] | None = None, **options: Any) -> Any:
    """Mark ``py_func`` as a numba kernel (``cache=True`` unless told otherwise); usable as
    ``@kernel`` or ``@kernel(inline="always", nogil=True)``."""
    options.setdefault("cache", True)
    if py_func is None:
        return lambda f: Kernel(f, options)
    return Kernel(py_func, options)


@contextmanager
def interpreted() -> Iterator[None]:
    """Run kernels as plain Python inside the block (for small queries, where numba's start-up
    would cost far more than the work; see the module's notes for when this holds)."""
    token = _interpreted.set(True)
    try:
        yield
    finally:
        _interpreted.reset(token)


def _bind_dispatchers() -> None:
    """Make the dispatcher of every kernel that has none, rebind the package's module globals
    that name a kernel to its dispatcher, and only then publish the dispatchers.

    Publishing last means no thread compiles a kernel while the globals it
    reads are still kernels: numba would type them through the registration
    below and call them as ordinary functions, never inlined (measured: the
    simulator markedly slower), and cache that code. A module imported later is
    bound when its own kernels are first called. Called with ``_lock`` held.
    """
    _prefer_wide_vectors()
    _register_typing()
    watch_compiles()
    import numba

    saved = numba.config.CACHE_DIR
    folder = _writable(kernel_cache_folder(saved), kernel_cache_folder(tempfile.gettempdir()))
    # Without one, numba would fall back to a folder keyed by each file alone: better not to cache.
    cache = folder is not None
    numba.config.CACHE_DIR = folder or ""  # read as each dispatcher is made; restored for others' code
    try:
        for k in _pending:
            if k._made is None:
                options = {**k.options, "cache": k.options.get("cache", True) and cache}
                try:
                    k._made = numba.njit(**options)(k.py_func)
                except RuntimeError:  # no cache locator (a kernel typed at a prompt): compile it uncached
                    k._made = numba.njit(**{**options, "cache": False})(k.py_func)
    finally:
        numba.config.CACHE_DIR = saved
    package = __name__.split(".")[0]  # the whole package, every subpackage included
    for name, module in list(sys.modules.items()):
        if name == package or name.startswith(package + "."):
            namespace = vars(module)
            for attribute, value in list(namespace.items()):
                if isinstance(value, Kernel):
                    namespace[attribute] = value._made
    for k in _pending:
        k._dispatcher = k._made
    _pending.clear()


def watch_compiles() -> None:
    """Listen for numba's compiles in this process (numba announces one, "numba:compile", only on a miss of
    its cache): as the first one starts while ``$MAHJONG_POKER_COMPILE_NOTICE`` names a marker file, print
    :data:`COMPILE_NOTICE` on stderr, unless another process of the command made the marker (and said it)."""
    global _compiles_watched
    if _compiles_watched:
        return
    from numba.core import event

    said: set[str] = set()

    class FirstCompile(event.Listener):
        def on_start(self, _event: Any) -> None:
            marker = os.environ.get(COMPILE_NOTICE_ENV)
            if not marker or marker in said:
                return
            said.add(marker)
            try:
                os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except OSError:  # another process said it, or its folder is gone: nothing to add
                return
            print(COMPILE_NOTICE, file=sys.stderr, flush=True)

        def on_end(self, _event: Any) -> None:
            pass

    event.register("numba:compile", FirstCompile())
    _compiles_watched = True


def _prefer_wide_vectors() -> None:
    """Let LLVM vectorise with 512-bit registers where the processor has them (AVX-512F), through numba's
    ``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES``, unless either is set already (then they are the user's).

    LLVM's tuning for Intel's AVX-512 processors prefers 256-bit vectors (the clock slowed under wide ones on
    the first of them); on the Intel Xeon these figures come from, stage A's walk, which is bound by how many
    vector operations its leaf issues, runs a fifth faster with 512-bit ones, every value bit for bit the
    same (docs/performance.md, "512-bit vectors"). Set in the environment before numba is imported, so that
    worker processes inherit it; numba keys its cache by the processor's name and features, so kernels
    compiled either way never mix."""
    if "NUMBA_CPU_NAME" in os.environ or "NUMBA_CPU_FEATURES" in os.environ:
        return
    import llvmlite.binding as llvm

    try:
        features = llvm.get_host_cpu_features().flatten()
    except RuntimeError:  # the host's features cannot be read: numba's defaults
        return
    if "+avx512f" not in features.split(","):
        return
    os.environ["NUMBA_CPU_NAME"] = llvm.get_host_cpu_name()
    os.environ["NUMBA_CPU_FEATURES"] = features + ",-prefer-256-bit"


def source_digest(package_dir: Path = Path(__file__).parent.parent) -> str:
    """A digest of every Python source file of the package, in every subpackage (paths and contents)."""
    digest = hashlib.sha256()
    for path in sorted(package_dir.rglob("*.py")):
        name = path.relative_to(package_dir).as_posix()
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


#: The source this process runs, read when it starts (a file edited later is not what runs here).
SOURCE_DIGEST = source_digest()


def kernel_cache_folder(base: str | None = None) -> str:
    """Where numba caches this source's kernels (see the module's notes): under ``base`` (numba's
    configured cache folder, ``$NUMBA_CACHE_DIR``), else under the package's cache folder."""
    from solver.runtime.diskcache import cache_dir

    base = base or os.environ.get("NUMBA_CACHE_DIR") or str(cache_dir() / "numba")
    return os.path.join(base, f"mahjong-poker-{SOURCE_DIGEST}")


def _writable(*folders: str) -> str | None:
    """The first of ``folders`` that can be created and written to."""
    for folder in folders:
        try:
            os.makedirs(folder, exist_ok=True)
            tempfile.TemporaryFile(dir=folder).close()
            return folder
        except OSError:
            continue
    return None


def _register_typing() -> None:
    """Teach numba that a kernel it meets other than through a bound module global (a closure
    variable, a name in a module outside the package) is its dispatcher."""
    global _typing_registered
    if _typing_registered:
        return
    from numba.extending import typeof_impl

    _register_unowned()

    @typeof_impl.register(Kernel)
    def _typeof_kernel(value: Kernel, context: Any) -> Any:
        return typeof_impl(value.dispatcher, context)

    _typing_registered = True


def unowned(arrays: Any) -> Any:
    """``arrays`` (an array or a tuple of arrays) as they are; in compiled code, the same arrays without their
    reference counts (their meminfos). numba counts references to every array a call is handed, atomically,
    even when the callee is inlined: in a kernel's inner loop that can cost a tenth of its time
    (docs/performance.md). An unowned array, and every view of it, is counted by no one: the caller keeps
    the original alive for as long as the kernel runs, so a kernel unowns its arguments, never arrays it
    allocates itself (those are freed once their last owned reference goes)."""
    return arrays


def _register_unowned() -> None:
    """Compile :func:`unowned`: each array's structure copied with a null meminfo and parent."""
    from numba.core import cgutils, types
    from numba.extending import intrinsic, overload

    def without_meminfo(context: Any, builder: Any, array_type: Any, value: Any) -> Any:
        if not isinstance(array_type, types.Array):
            return value
        copy = context.make_array(array_type)(context, builder, value=value)
        copy.meminfo = cgutils.get_null_value(copy.meminfo.type)
        copy.parent = cgutils.get_null_value(copy.parent.type)
        return copy._getvalue()

    @intrinsic
    def _unowned_intrinsic(typingctx: Any, arrays: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            if not isinstance(arrays, types.BaseTuple):
                return without_meminfo(context, builder, arrays, args[0])
            items = [without_meminfo(context, builder, t, builder.extract_value(args[0], i))
                     for i, t in enumerate(arrays)]
            return context.make_tuple(builder, arrays, items)
        return arrays(arrays), codegen

    @overload(unowned, inline="always")
    def _unowned(arrays):  # type: ignore[no-untyped-def]  # numba compares its parameters with the implementation's
        if isinstance(arrays, types.Array) or isinstance(arrays, types.BaseTuple) and all(
                isinstance(t, types.Array) for t in arrays):  # only arrays: anything else counted would be miscounted
            return lambda arrays: _unowned_intrinsic(arrays)
        return None
