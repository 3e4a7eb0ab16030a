"""The built-in conventions ship pre-parsed (tools/pregen.py, convention/builtin.py):
the generated module is what the YAML files give, so that a log under a built-in
convention is scored without PyYAML and exactly as if the file had been read."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from pulyacalc.convention import built, builtin, load
from pulyacalc.yamlsource import parse_yaml

NAMES = load.builtin_names()
_spec = importlib.util.spec_from_file_location(
    "pregen", Path(__file__).resolve().parent.parent / "tools" / "pregen.py"
)
assert _spec is not None and _spec.loader is not None
pregen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pregen)
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "sochi-3p.txt"


def test_the_generated_module_is_up_to_date() -> None:
    """Fails after a built-in convention changed: run `python tools/pregen.py`."""
    assert pregen.TARGET.read_text(encoding="utf-8") == pregen.render(load.builtin_dir())
    assert pregen.BUILT_TARGET.read_text(encoding="utf-8") == pregen.render_built(load.builtin_dir())


@pytest.mark.parametrize("name", NAMES)
def test_each_tree_is_the_files_parse(name: str) -> None:
    path = load.builtin_dir() / f"{name}.yaml"
    assert load.pre_parsed(path) == parse_yaml(path.read_text(encoding="utf-8-sig"), str(path))


@pytest.mark.parametrize("name", NAMES)
def test_each_convention_loads_as_from_its_yaml(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pre = load.load(name)
    monkeypatch.setattr(builtin, "TREES", {})  # as if not generated: the YAML is read
    monkeypatch.setattr(built, "BUILT", {})
    monkeypatch.setattr(load, "_cache", {})
    assert load.load(name) == pre


@pytest.mark.parametrize("name", NAMES)
def test_each_convention_built_is_what_its_tree_builds(name: str) -> None:
    path = str(load.builtin_dir() / f"{name}.yaml")
    pre = load.pre_built(path)
    assert pre is not None and pre == load._build(load._layers(path, set()), path, 0)
    assert pre.source == path


def test_a_line_log_under_a_built_in_convention_never_imports_pyyaml() -> None:
    probe = (
        "import sys; sys.argv = ['pulyacalc', 'score', sys.argv[1]]\n"
        "from pulyacalc.cli.app import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('yaml' in sys.modules, file=sys.stderr)"
    )
    r = subprocess.run([sys.executable, "-c", probe, str(EXAMPLE)], capture_output=True, text=True)
    assert r.stderr.strip().splitlines()[-1] == "False"


def test_a_built_in_changed_and_not_regenerated_is_read_from_its_yaml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tree is used only for the very file it was made from (its checksum)."""
    changed = tmp_path / "sochi.yaml"
    changed.write_text(
        (load.builtin_dir() / "sochi.yaml").read_text(encoding="utf-8").replace("target: 20", "target: 30"),
        encoding="utf-8",
    )
    assert load.pre_parsed(changed) is None
    monkeypatch.setattr(load, "builtin_dir", lambda: tmp_path)
    assert load.pre_built(str(changed)) is None
    monkeypatch.setattr(load, "_cache", {})
    assert load.load("sochi").pool_target == 30


@pytest.mark.parametrize("name", NAMES)
def test_a_built_in_extends_only_built_ins_by_name(name: str) -> None:
    """What lets load() build a built-in once whatever directory a log confines it to."""
    tree = load.pre_parsed(load.builtin_dir() / f"{name}.yaml")
    assert tree is not None
    assert all(load.is_name(v.text) for k, v in tree.pairs if k.text == "extends")


def test_an_evening_under_a_built_in_builds_its_convention_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The log's convention (confined to the log's directory) and the file alone that the
    report's title compares it with are one build."""
    from pulyacalc.play import score_file
    from pulyacalc.render.view import convention_title

    builds: list[str] = []
    real = load._build

    def counted(*args: object, **kwargs: object) -> object:
        builds.append(str(args[1]))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(load, "_cache", {})
    monkeypatch.setattr(load, "_build", counted)
    log = Path(__file__).resolve().parent.parent / "examples" / "sochi-3p.txt"
    ev = score_file(str(log))
    assert convention_title(ev.convention).startswith("Сочинка")
    assert builds == []  # convention/built.py: built already
    assert load.load(ev.convention.source) is load.load("sochi", within=log.parent)
    monkeypatch.setattr(built, "BUILT", {})  # as if not generated: built from its tree, once
    monkeypatch.setattr(load, "_cache", {})
    ev = score_file(str(log))
    assert convention_title(ev.convention).startswith("Сочинка")
    assert len(builds) == 1
    assert load.load(ev.convention.source) is load.load("sochi", within=log.parent)
