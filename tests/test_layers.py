"""The house's layers (docs/architecture.md): imports only point down.  A module may import
its own layer and the layers below it, at the top of the file or inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pulyacalc"

#: lowest first; a module's layer is the first prefix that matches its dotted name
LAYERS: tuple[tuple[str, ...], ...] = (
    ("core",),
    ("yamlsource",),
    ("convention",),
    ("scoring",),
    ("logs",),
    ("play", "api", "reports"),
    ("render",),
    ("cli", "__main__"),
)


def layer_of(module: str) -> int:
    head = module.removeprefix("pulyacalc.").split(".")[0]
    for i, names in enumerate(LAYERS):
        if head in names:
            return i
    raise AssertionError(f"{module} is in no layer: add it to LAYERS (and docs/architecture.md)")


def modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            if len(parts) == 2:  # the package itself: its docstring and version only
                continue
            assert not path.read_text().strip(), f"{path}: a subpackage's __init__.py stays empty"
            continue
        out.append((".".join(parts), path))
    return out


def imported(module: str, path: Path) -> list[tuple[int, str]]:
    """Every pulyacalc module ``module`` imports, with the line."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[: -node.level]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            names = [f"{name}.{a.name}" for a in node.names] if name in ("pulyacalc",) else [name]
            out += [(node.lineno, n) for n in names if n.startswith("pulyacalc.")]
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("pulyacalc.")]
    return out


@pytest.mark.parametrize(("module", "path"), modules(), ids=[m for m, _ in modules()])
def test_imports_point_down(module: str, path: Path) -> None:
    mine = layer_of(module)
    up = [
        f"{path.name}:{line}: {module} (layer {mine}) imports {target} (layer {layer_of(target)})"
        for line, target in imported(module, path)
        if layer_of(target) > mine
    ]
    assert not up, "\n".join(up)


def test_core_is_stdlib_only() -> None:
    """core/ is the game's vocabulary: no third-party import, so it loads fast anywhere."""
    import sys

    for module, path in modules():
        if not module.startswith("pulyacalc.core."):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top in ("pulyacalc", "__future__"), (module, name)
