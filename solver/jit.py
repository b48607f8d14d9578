"""numba kernels that load on their first compiled call, and can run as plain Python.

Importing numba and loading a kernel from numba's on-disk cache take about
1.5 s on a 2-core machine, far longer than the few hundred hu tests of a
ting query take in plain Python. So :func:`kernel` marks a function for
numba without importing it: the first call outside :func:`interpreted`
imports numba and compiles the kernel (or loads it from the cache), after
rebinding the package's kernels to their numba dispatchers, which is how
numba must see a kernel called by another kernel.
Inside ``with interpreted():`` kernels run as plain Python: the same code,
hence the same integers and, operation for operation, the same floats.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import update_wrapper
from typing import Any

_interpreted: ContextVar[bool] = ContextVar("interpreted", default=False)
_lock = threading.RLock()
_typing_registered = False


class Kernel:
    """A function compiled with ``numba.njit(**options)`` when first called compiled."""

    def __init__(self, py_func: Callable[..., Any], options: dict[str, Any]) -> None:
        self.py_func = py_func
        self.options = options
        self._dispatcher: Any = None
        update_wrapper(self, py_func)

    @property
    def dispatcher(self) -> Any:
        """The numba dispatcher (created, not yet compiled, on first use)."""
        if self._dispatcher is None:
            with _lock:
                if self._dispatcher is None:
                    _register_typing()
                    self._make_dispatcher()
                    _bind_dispatchers()
        return self._dispatcher

    def _make_dispatcher(self) -> Any:
        if self._dispatcher is None:
            import numba

            self._dispatcher = numba.njit(**self.options)(self.py_func)
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
    would cost far more than the work)."""
    token = _interpreted.set(True)
    try:
        yield
    finally:
        _interpreted.reset(token)


def _bind_dispatchers() -> None:
    """Rebind every name bound to a kernel in this package's loaded modules to its dispatcher.

    numba inlines an ``inline="always"`` callee, and calls a callee
    directly, only when the global it reads is a dispatcher; through the
    typing below a kernel compiles too, but as an ordinary call (measured:
    the simulator 18% slower). Done when a kernel is first compiled, so a
    module imported later is bound when its own kernels are.
    """
    package = __name__.rpartition(".")[0]
    for name, module in list(sys.modules.items()):
        if name == package or name.startswith(package + "."):
            namespace = vars(module)
            for attribute, value in list(namespace.items()):
                if isinstance(value, Kernel):
                    namespace[attribute] = value._make_dispatcher()


def _register_typing() -> None:
    """Teach numba that a kernel it meets other than through a module global (a closure
    variable, a module imported after the binding) is its dispatcher."""
    global _typing_registered
    if _typing_registered:
        return
    from numba.extending import typeof_impl

    @typeof_impl.register(Kernel)
    def _typeof_kernel(value: Kernel, context: Any) -> Any:
        return typeof_impl(value.dispatcher, context)

    _typing_registered = True
