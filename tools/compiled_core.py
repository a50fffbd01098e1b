"""Compiles the Doppelkopf game core with mypyc: the fold, the score and the read models' rows,
the code a rebuild of the ledger spends its time in.

`python tools/compiled_core.py OUT` copies the package (with `schemas/` and `docs/`, so that OUT
is a tree the program runs from) into OUT and compiles the modules of `COMPILED` there, next to
their sources: Python imports a compiled module before its `.py`. It prints the modules it
built; without mypyc or a C compiler it says so in one line and builds nothing, and the
package runs as it is, in pure Python, with the same results. `make core` builds `build/core`
(tests/kernel/test_compiled_core.py runs the core's tests against it) and the package build
(hatch_build.py) puts the compiled modules into the wheel.

What mypyc compiles is the source of the repository with one change, made here and nowhere
else: its value classes become classes mypyc makes native. A class declared `@frozen` (or
`@dataclass(frozen=True)`) is one that pure Python builds cheaply and refuses to change;
mypyc makes a class native only when its decorators are the dataclass's, and the methods the
dataclass machinery writes (at every start) stay interpreted Python, its `__init__` slower
than pure Python's. So each such class of a compiled module gets `__init__`, `__eq__`,
`__hash__` and `__repr__` written here as source from its fields, as `@frozen` makes them,
for mypyc to compile, and a dataclass decorator that only gathers the fields (for
`dataclasses.replace`); and a `but` method, which copies a state's `__dict__` (a native class
has none), passes every field to the constructor instead. That the values are never changed
is checked where it is written: by mypy, on the repository's source.

Standard library only, apart from mypyc and setuptools in the process that compiles: the
package build loads this file by its path.
"""

from __future__ import annotations

import ast
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GROUP = "doko_ledger_core"
"""The name of the library the compiled modules share (`doko_ledger_core__mypyc`)."""

COMPILED = tuple(
    f"doko_ledger/doppelkopf/{name}.py"
    for name in (
        "cards",
        "game/state",
        "game/evolve",
        "game/facts",
        "game/parties",
        "rules/announcements",
        "rules/counting",
        "rules/game_types",
        "rules/order",
        "rules/play",
        "rules/scoring",
        "rules/value",
        "revelations",
        "score",
        "projection",
    )
)
"""The modules compiled: the fold with its revelations, the score and the read models' rows."""

COPIED = ("doko_ledger", "schemas", "docs")

MYPY_CONFIG = """[mypy]
python_version = 3.11
follow_imports = silent
ignore_missing_imports = True
"""
"""mypy's settings for the build: the modules not compiled are read for their types only
(the repository's own strict check is `make lint`), and a library missing from the build's
environment is taken as untyped."""

_COMPILE = (
    "import sys\n"
    "from mypyc.build import mypycify\n"
    "from setuptools import setup\n"
    "setup(name=sys.argv[1], script_args=['build_ext', '--inplace'],\n"
    "      ext_modules=mypycify(sys.argv[2:], opt_level='3', group_name=sys.argv[1]))\n"
)


def native_source(source: str) -> str:
    """The module's source with its value classes made native for mypyc (the module's
    docstring says how); the source itself where it declares none."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    edits: list[tuple[int, int, str]] = []  # (first line, line after, new text), lines from 0
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and (decorator := _value_decorator(node)) is not None:
            edits += _class_edits(node, decorator, source)
    if not edits:
        return source
    future = next(
        (n for n in tree.body if isinstance(n, ast.ImportFrom) and n.module == "__future__"),
        None,
    )
    at = future.end_lineno if future is not None and future.end_lineno is not None else 0
    edits.append((at, at, "from dataclasses import dataclass as _native_dataclass\n"))
    for first, after, text in sorted(edits, reverse=True):
        lines[first:after] = [text]
    return "".join(lines)


def _value_decorator(node: ast.ClassDef) -> ast.expr | None:
    """The decorator that declares the class a frozen value: `@frozen` or
    `@dataclass(frozen=True, ...)`."""
    for decorator in node.decorator_list:
        if isinstance(decorator, ast.Name) and decorator.id == "frozen":
            return decorator
        if (
            isinstance(decorator, ast.Call)
            and isinstance(decorator.func, ast.Name)
            and decorator.func.id == "dataclass"
            and any(
                k.arg == "frozen" and isinstance(k.value, ast.Constant) and k.value.value for k in decorator.keywords
            )
        ):
            return decorator
    return None


def _class_edits(node: ast.ClassDef, decorator: ast.expr, source: str) -> list[tuple[int, int, str]]:
    fields = [
        _Field(statement, source)
        for statement in node.body
        if isinstance(statement, ast.AnnAssign)
        and isinstance(statement.target, ast.Name)
        and "ClassVar" not in (ast.get_source_segment(source, statement.annotation) or "")
    ]
    methods = {s.name: s for s in node.body if isinstance(s, ast.FunctionDef)}
    indent = " " * node.body[0].col_offset
    line = decorator.lineno - 1
    # The dataclass only gathers the fields (for `dataclasses.replace`): every method is written
    # below, for mypyc to compile, so that declaring the class runs no generated code.
    edits = [(line, decorator.end_lineno or line + 1, "@_native_dataclass(init=False, repr=False, eq=False)\n")]
    written = [
        method(node.name, fields, indent)
        for name, method in (("__init__", _init), ("__eq__", _eq), ("__hash__", _hash), ("__repr__", _repr))
        if name not in methods
    ]
    if fields and written:
        last = fields[-1].statement.end_lineno or fields[-1].statement.lineno
        edits.append((last, last, "".join(written)))
    if "but" in methods:
        edits.append(_but(methods["but"], node.name, fields, indent))
    return edits


class _Field:
    """A field as its class declares it: name, annotation, default or factory, and whether it
    is compared (and hashed) and shown, as `dataclasses.field` says."""

    def __init__(self, statement: ast.AnnAssign, source: str) -> None:
        assert isinstance(statement.target, ast.Name)
        self.statement = statement
        self.name = statement.target.id
        self.annotation = ast.get_source_segment(source, statement.annotation)
        self.default: str | None = None
        self.factory: str | None = None
        given: dict[str | None, ast.expr] = {}
        value = statement.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "field":
            given = {k.arg: k.value for k in value.keywords}
            if "default" in given:
                self.default = ast.get_source_segment(source, given["default"])
            if "default_factory" in given:
                self.factory = ast.get_source_segment(source, given["default_factory"])
        elif value is not None:
            self.default = ast.get_source_segment(source, value)
        self.compared = _flag(given.get("compare"), True)
        self.hashed = _flag(given.get("hash"), self.compared)
        self.shown = _flag(given.get("repr"), True)


def _flag(value: ast.expr | None, otherwise: bool) -> bool:
    if value is None or (isinstance(value, ast.Constant) and value.value is None):
        return otherwise
    assert isinstance(value, ast.Constant) and isinstance(value.value, bool), "a field's flag is True or False"
    return value.value


def _init(cls: str, fields: list[_Field], indent: str) -> str:
    """An `__init__` with the dataclass's parameters and defaults, assigning each field."""
    parameters, body = [], []
    for field in fields:
        if field.factory is not None:
            parameters.append(f"{field.name}: {field.annotation} | None = None")
            body.append(f"self.{field.name} = {field.factory}() if {field.name} is None else {field.name}")
        else:
            default = "" if field.default is None else f" = {field.default}"
            parameters.append(f"{field.name}: {field.annotation}{default}")
            body.append(f"self.{field.name} = {field.name}")
    return _method(indent, f"__init__(self, {', '.join(parameters)}) -> None", body or ["pass"])


def _eq(cls: str, fields: list[_Field], indent: str) -> str:
    """Equal to a value of the same class with the same compared fields."""
    compared = [f.name for f in fields if f.compared]
    return _method(
        indent,
        "__eq__(self, other: object) -> bool",
        [
            f"if type(other) is not type(self) or not isinstance(other, {cls}):",
            "    return NotImplemented",
            f"return {_tuple('self', compared)} == {_tuple('other', compared)}",
        ],
    )


def _hash(cls: str, fields: list[_Field], indent: str) -> str:
    return _method(
        indent, "__hash__(self) -> int", [f"return hash({_tuple('self', [f.name for f in fields if f.hashed])})"]
    )


def _repr(cls: str, fields: list[_Field], indent: str) -> str:
    shown = ", ".join(f"{f.name}={{self.{f.name}!r}}" for f in fields if f.shown)
    return _method(indent, "__repr__(self) -> str", [f'return f"{{type(self).__qualname__}}({shown})"'])


def _tuple(value: str, names: list[str]) -> str:
    return "(" + "".join(f"{value}.{name}, " for name in names) + ")"


def _method(indent: str, signature: str, body: list[str]) -> str:
    return f"\n{indent}def {signature}:\n" + "".join(f"{indent * 2}{line}\n" for line in body)


def _but(method: ast.FunctionDef, cls: str, fields: list[_Field], indent: str) -> tuple[int, int, str]:
    """`but(**changes)`'s body, each field passed to the constructor: the changed value, or the
    state's own."""
    body = method.body
    if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring stays
    changes = method.args.kwarg.arg if method.args.kwarg is not None else "changes"
    values = ", ".join(f"{changes}.get({f.name!r}, self.{f.name})" for f in fields)
    first, last = body[0].lineno - 1, method.end_lineno or body[-1].lineno
    return first, last, f"{indent * 2}return {cls}({values})\n"


def build(out: Path, root: Path = ROOT) -> list[Path] | None:
    """Copies the package into `out` and compiles the modules of `COMPILED` there; the compiled
    files (the modules' and the library they share, relative to `out`), or None with a note on
    stderr when mypyc or a C compiler is missing or the compilation fails."""
    if importlib.util.find_spec("mypyc") is None or importlib.util.find_spec("setuptools") is None:
        print("doko: mypyc is not installed: the game core runs in pure Python", file=sys.stderr)
        return None
    if out.exists():
        shutil.rmtree(out)
    compiled_before = shutil.ignore_patterns("__pycache__", "*.part", "*.cpython-*", f"{GROUP}*")
    for name in COPIED:
        shutil.copytree(root / name, out / name, ignore=compiled_before)
    for module in COMPILED:
        path = out / module
        path.write_text(native_source(path.read_text(encoding="utf-8")), encoding="utf-8")
    (out / "mypy.ini").write_text(MYPY_CONFIG, encoding="utf-8")
    done = subprocess.run(  # in this environment, PYTHONPATH too: pip's build environment is made of it
        [sys.executable, "-c", _COMPILE, GROUP, "--config-file", "mypy.ini", *COMPILED],
        cwd=out,
        capture_output=True,
        text=True,
    )
    shutil.rmtree(out / "build", ignore_errors=True)
    (out / "mypy.ini").unlink()
    if done.returncode != 0:
        said = [line for line in (done.stdout + done.stderr).splitlines() if "error" in line.lower()]
        reason = said[0].strip() if said else f"exit status {done.returncode}"
        print(f"doko: compiling the game core failed ({reason}): it runs in pure Python", file=sys.stderr)
        return None
    return sorted(path.relative_to(out) for path in out.rglob("*.so") if compiled_file(path))


def compiled_file(path: Path) -> bool:
    """Whether `path`, in a tree of the package, is a file the compilation writes: a compiled
    module of `COMPILED` or the library they share."""
    if path.name.startswith(GROUP):
        return True
    source = path.with_name(path.name.split(".", 1)[0] + ".py")
    return any(source.as_posix().endswith(module) for module in COMPILED)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tools/compiled_core.py OUT")
    built = build(Path(sys.argv[1]).resolve())
    for path in built or ():
        print(path)
