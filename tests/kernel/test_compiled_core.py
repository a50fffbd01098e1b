"""The game core compiled with mypyc (tools/compiled_core.py, `make core` into build/core)
against the same code in pure Python: the core's tests pass against the compiled modules, a
ledger folded by one is what the other folds, and the source mypyc compiles is the
repository's, with the value classes declared for native classes."""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from doko_ledger.doppelkopf.analysis.native import build
from doko_ledger.frozen import frozen

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "build" / "core"
SAMPLES = ("sample_games/*.yaml", "sample_games/sessions/*.yaml", "sample_games/doudizhu/*.yaml")
CORE_TESTS = (
    "tests/doppelkopf",
    "tests/projections",
    "tests/events",
    "tests/cli/test_cli_nights.py",
)
"""The tests run against the compiled core: the fold, the score, the rules, the read models,
the card nights."""


def _samples() -> list[str]:
    return sorted(str(path) for pattern in SAMPLES for path in ROOT.glob(pattern))


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("compiled_core", ROOT / "tools" / "compiled_core.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


compiled_core = _tool()


def _stale() -> str | None:
    """Why build/core is not the repository's package compiled, or None when it is: each file
    of the package copied (the compiled modules' sources made native), each module compiled."""
    for source in sorted((ROOT / "doko_ledger").rglob("*")):
        relative = source.relative_to(ROOT)
        if source.is_dir() or "__pycache__" in relative.parts or ".cpython-" in source.name:
            continue
        copy = CORE / relative
        if not copy.exists():
            return f"{relative} is missing"
        content = source.read_bytes()
        if relative.as_posix() in compiled_core.COMPILED:
            content = compiled_core.native_source(content.decode("utf-8")).encode("utf-8")
            if not any(copy.parent.glob(copy.stem + ".cpython-*")):
                return f"{relative} is not compiled"
        if copy.read_bytes() != content:
            return f"{relative} changed since"
    return None


def _cannot_compile() -> str | None:
    """What this machine lacks to compile the core (mypyc, a C compiler, Python's headers), or
    None."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed"
    if build.compiler() is None:
        return "no C compiler here"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "Python's C headers are not installed"
    return None


@pytest.fixture(scope="module")
def core() -> Path:
    """build/core, the package with its core compiled; it must be built wherever the core can
    be compiled (`make core`)."""
    reason = _stale()
    if reason is not None:
        lacking = _cannot_compile()
        if lacking is not None:
            pytest.skip(f"{lacking}: the game core cannot be compiled")
        pytest.fail(f"the compiled game core is not built or stale ({reason}): run `make core`")
    return CORE


def _run(core: Path, cwd: Path, *code: str, compiled: bool = True) -> subprocess.CompletedProcess[str]:
    """Python code run with the package in `core` first on the path (`-P`: not the working
    directory), its core's modules checked to be compiled, or with `compiled=False` not."""
    modules = [m.removesuffix(".py").replace("/", ".") for m in compiled_core.COMPILED]
    check = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    where = importlib.import_module(name).__file__\n"
        f"    assert where.startswith({str(core)!r}), where\n"
        f"    assert where.endswith('.so') is {compiled}, where\n"
    )
    environment = {**os.environ, "PYTHONPATH": str(core)}
    return subprocess.run(
        [sys.executable, "-P", "-c", check + "\n".join(code)],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=1800,
    )


@pytest.mark.slow
def test_the_cores_tests_pass_against_the_compiled_core(core: Path, tmp_path: Path) -> None:
    paths = [str(ROOT / path) for path in CORE_TESTS]
    done = _run(
        core,
        ROOT,
        "import pytest",
        f"sys.exit(pytest.main(['-p', 'no:cacheprovider', '-o', 'addopts=', '-q', '-x', '--rootdir', {str(ROOT)!r},"
        f" '-m', 'not slow and not browser and not postgres', *{paths!r}]))",
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout.splitlines()[-1]


def _doko(core: Path | None, cwd: Path, *arguments: str, compiled: bool = True) -> str:
    """`doko ARGUMENTS` run from the package in `core` (compiled, or with `compiled=False` not),
    or from the repository's sources in pure Python; its output."""
    call = f"from doko_ledger.cli.app import main\nsys.argv = ['doko', *{list(arguments)!r}]\nmain()"
    if core is None:
        done = subprocess.run([sys.executable, "-c", "import sys\n" + call], cwd=cwd, capture_output=True, text=True)
    else:
        done = _run(core, cwd, call, compiled=compiled)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.slow
def test_a_ledger_folded_compiled_has_the_read_models_pure_python_folds(core: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "ledger.sqlite")
    _doko(core, tmp_path, "--db", db, "import", *_samples())
    assert "read models: exactly what folding the log gives" in _doko(None, tmp_path, "--db", db, "verify")
    _doko(None, tmp_path, "--db", db, "rebuild")
    assert "read models: exactly what folding the log gives" in _doko(core, tmp_path, "--db", db, "verify")


@pytest.fixture
def compiled_wheel(wheel: Path) -> Path:
    """The package's wheel, which must carry the compiled core wherever it can be compiled."""
    lacking = _cannot_compile()
    if lacking is not None:
        pytest.skip(f"{lacking}: the wheel carries the core in pure Python only")
    return wheel


@pytest.mark.slow
def test_the_wheel_carries_the_compiled_core_beside_its_sources(compiled_wheel: Path) -> None:
    with zipfile.ZipFile(compiled_wheel) as archive:
        names = set(archive.namelist())
        for module in compiled_core.COMPILED:
            assert archive.read(module) == (ROOT / module).read_bytes()  # the source, for pure Python
            assert any(n.startswith(module.removesuffix(".py") + ".cpython-") for n in names), module
        assert any(n.startswith(compiled_core.GROUP + "__mypyc.") for n in names)
    assert not compiled_wheel.name.endswith("-none-any.whl")


@pytest.mark.slow
def test_the_installed_wheel_runs_compiled_and_without_the_compiled_files_in_pure_python(
    compiled_wheel: Path, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    installed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--target",
            str(site),
            str(compiled_wheel),
        ],
        capture_output=True,
        text=True,
    )
    assert installed.returncode == 0, installed.stderr
    for compiled in (True, False):
        if not compiled:
            for path in [path for path in site.rglob("*.so") if compiled_core.compiled_file(path)]:
                path.unlink()
        db = str(tmp_path / f"compiled-{compiled}.sqlite")
        assert "imported" in _doko(site, tmp_path, "--db", db, "import", *_samples(), compiled=compiled)
        verified = _doko(site, tmp_path, "--db", db, "verify", compiled=compiled)
        assert "read models: exactly what folding the log gives" in verified


def test_a_value_class_made_native_behaves_as_its_frozen_declaration() -> None:
    source = (
        "from __future__ import annotations\n\n"
        "@frozen\n"
        "class Line:\n"
        '    """A line."""\n\n'
        "    item: str\n"
        "    points: int = 0\n"
        "    extra: dict[str, int] = field(default_factory=dict, compare=False)\n"
        "    words: str | None = field(default=None, repr=False)\n"
        "    said: str = field(default='', hash=False)\n\n"
        "    @property\n"
        "    def doubled(self) -> int:\n"
        "        return 2 * self.points\n"
    )
    made = compiled_core.native_source(source)
    assert "@frozen" not in made and "def __init__(self, item: str, points: int = 0," in made
    frozen_class, native_class = (
        _declared(text, {"field": dataclasses.field, "frozen": frozen})["Line"] for text in (source, made)
    )
    for arguments in (("re",), ("re", 2), ("re", 2, {"a": 1}), ("re", 2, {}, "words"), ("re", 2, {}, None, "said")):
        one, other = frozen_class(*arguments), native_class(*arguments)
        assert repr(one) == repr(other) and hash(one) == hash(other) and one.doubled == other.doubled
        for variant in (("re", 2), ("re", 3), ("re", 2, {"b": 2}), ("kontra",)):
            assert (one == frozen_class(*variant)) == (other == native_class(*variant))
        changed = dataclasses.replace(other, points=5)
        assert (changed.item, changed.points, changed.extra) == ("re", 5, other.extra)
    assert native_class("re").extra is not native_class("re").extra
    assert native_class("re") != frozen_class("re")  # a value of another class is never equal


def _declared(source: str, names: dict[str, object]) -> dict[str, object]:
    namespace = dict(names)
    exec(source, namespace)
    return namespace


def test_but_passes_every_field_to_the_constructor() -> None:
    source = (
        "from __future__ import annotations\n\n"
        "@dataclass(frozen=True)\n"
        "class State:\n"
        "    dealer: int = 0\n"
        "    note: str | None = None\n\n"
        "    def but(self, **changes: Any) -> State:\n"
        '        """A copy."""\n'
        "        fields = self.__dict__.copy()\n"
        "        return fields\n"
    )
    made = compiled_core.native_source(source)
    assert "self.__dict__" not in made and '"""A copy."""' in made
    state_class = _declared(made, {})["State"]
    state = state_class(1, "x")  # type: ignore[operator]
    assert state.but(note="y") == state_class(1, "y")  # type: ignore[operator]
    assert state.but() == state and hash(state.but()) == hash(state)


def test_the_compiled_modules_are_the_cores_and_parse_once_made_native() -> None:
    for module in compiled_core.COMPILED:
        source = (ROOT / module).read_text(encoding="utf-8")
        made = compiled_core.native_source(source)
        ast.parse(made)
        assert ("@frozen\n" in made) is False
        assert ("self.__dict__" in made) is False
