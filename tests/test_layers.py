"""The package's layers read one way: a module imports only its own layer and the layers below it.

From the bottom: the runtime helpers, the renderer, the errors and the package's root (its version);
the game (cards, rules, payouts, the objective of a solve); the per-hand evaluator and the tables'
files; the staged solve; the products built on a solve (queries, paytables, the chart, the trainer);
the command line. Every ``import solver...`` and ``from solver... import`` counts, relative ones
included, wherever it stands: at the top, inside a function, or under ``TYPE_CHECKING`` (a type named
from a higher layer ties the lower one to it just the same). A new package under ``solver/`` must be
given a layer here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "solver"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("__init__", "errors", "runtime", "render"),
    ("game",),
    ("evaluator", "tables"),
    ("staged",),
    ("products", "trainer"),
    ("cli",),
)
"""Bottom first; each name is a package or a module directly under ``solver/`` (``__init__``: the
package's own ``__init__.py``)."""

LAYER_OF = {unit: level for level, units in enumerate(LAYERS) for unit in units}


def _unit(path: Path, root: Path) -> str:
    """The package or module directly under ``root`` that ``path`` belongs to."""
    return path.relative_to(root).with_suffix("").parts[0]


def _module_parts(path: Path, root: Path) -> list[str]:
    """``path``'s dotted module name under the package ``root``, as parts (a package's ``__init__`` is the
    package)."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported_units(path: Path, root: Path) -> list[tuple[int, str]]:
    """(line, unit under ``root``) of every import of ``root``'s package in the module at ``path``."""
    package = root.name
    tree = ast.parse(path.read_text(), str(path))
    found: list[tuple[int, str]] = []

    def target(dotted: list[str], line: int) -> None:
        if dotted[:1] != [package]:
            return
        if len(dotted) == 1:
            found.append((line, "__init__"))
        else:
            found.append((line, dotted[1]))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target(alias.name.split("."), node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                here = _module_parts(path, root)
                base = here if path.name == "__init__.py" else here[:-1]
                base = base[: len(base) - (node.level - 1)]
                dotted = base + (node.module.split(".") if node.module else [])
            else:
                dotted = node.module.split(".") if node.module else []
            if dotted == [package]:  # ``from solver import x``: x may be a module or package of its own
                for alias in node.names:
                    own = (root / alias.name).is_dir() or (root / f"{alias.name}.py").is_file()
                    found.append((node.lineno, alias.name if own else "__init__"))
            else:
                target(dotted, node.lineno)
    return found


def upward_imports(root: Path, layer_of: dict[str, int]) -> tuple[list[str], list[str]]:
    """The imports under ``root`` of a higher layer (``file:line: unit (layer) imports unit (layer)``), and
    the units that have no layer."""
    upward, unplaced = [], set()
    for path in sorted(root.rglob("*.py")):
        unit = _unit(path, root)
        if unit not in layer_of:
            unplaced.add(unit)
            continue
        for line, imported in imported_units(path, root):
            if imported not in layer_of:
                unplaced.add(imported)
            elif layer_of[imported] > layer_of[unit]:
                upward.append(f"{path.relative_to(root.parent)}:{line}: {unit} (layer {layer_of[unit]}) imports "
                              f"{imported} (layer {layer_of[imported]})")
    return upward, sorted(unplaced)


def test_no_module_imports_a_higher_layer() -> None:
    upward, unplaced = upward_imports(PACKAGE, LAYER_OF)
    assert not unplaced, f"give these a layer in tests/test_layers.py: {unplaced}"
    assert not upward, "imports that run up the layers:\n" + "\n".join(upward)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small package ``solver`` with two layers: ``low`` below ``high``."""
    root = tmp_path / "solver"
    for folder in (root, root / "low", root / "high"):
        folder.mkdir()
        (folder / "__init__.py").write_text("")
    (root / "high" / "top.py").write_text("from solver.low import base\nfrom . import other\n")
    return root


LAYER_OF_TREE = {"__init__": 0, "low": 1, "high": 2}


def _write(path: Path, text: str) -> None:
    path.write_text(text)


@pytest.mark.parametrize("text", [
    "from solver.high.top import x\n",
    "import solver.high.top\n",
    "def f():\n    from solver.high import top\n",
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from solver.high.top import T\n",
    "from ..high import top\n",
    "from solver import high\n",
])
def test_the_checker_finds_an_upward_import(tree: Path, text: str) -> None:
    _write(tree / "low" / "base.py", text)
    upward, unplaced = upward_imports(tree, LAYER_OF_TREE)
    assert unplaced == [] and len(upward) == 1 and upward[0].startswith("solver/low/base.py:")


@pytest.mark.parametrize("text", [
    "from solver.low import base\nimport solver\nfrom solver import __version__\n",
    "from . import base\nfrom .base import x\n",
    "import numpy as np\nfrom os import path\n",
])
def test_the_checker_lets_a_module_import_its_layer_and_below(tree: Path, text: str) -> None:
    _write(tree / "low" / "base.py", text)
    assert upward_imports(tree, LAYER_OF_TREE) == ([], [])


def test_the_checker_asks_for_a_layer_for_a_new_package(tree: Path) -> None:
    (tree / "new").mkdir()
    _write(tree / "new" / "__init__.py", "")
    assert upward_imports(tree, LAYER_OF_TREE) == ([], ["new"])
