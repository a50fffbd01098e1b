"""Where `doko export -o PATH` writes: a regular file, new or old, replaced atomically; through a
symbolic link to the file it names (the link stays a link); never onto a folder, a device, a
named pipe or a socket, which are refused in one line (exit 2) before anything is opened and
are left as they were; `-o -` is standard output.

Devices are made with `mknod` in the test's folder, which needs root: without it those cases are
skipped, saying so. A named pipe is exported to in a child process, so that an export that
opened it (and so waited for a reader forever) fails the test instead of hanging it.
"""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cli_helpers import ok, one_error_line, refused, run_doko
from typer.testing import Result

Cli = Callable[..., Result]
SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
GAME = SAMPLES / "01-normal.yaml"
OLDER = "an older export\n"


@pytest.fixture
def cli(cli: Cli) -> Cli:
    """The CLI on a ledger holding one game (#1, the text of GAME when exported)."""
    ok(cli("import", GAME))
    return cli


def _exported() -> str:
    return GAME.read_text(encoding="utf-8")


def _temporaries(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.startswith(".") and p.name.endswith(".tmp")]


# -- regular files -------------------------------------------------------------------------------


def test_a_new_file_is_made(cli: Cli, tmp_path: Path) -> None:
    target = tmp_path / "new.yaml"
    result = ok(cli("export", "#1", "-o", target))
    assert result.stdout == "" and f"wrote {target}" in result.stderr
    assert target.read_text(encoding="utf-8") == _exported()
    assert _temporaries(tmp_path) == []


def test_an_existing_file_is_replaced_keeping_its_permissions(cli: Cli, tmp_path: Path) -> None:
    target = tmp_path / "game.yaml"
    target.write_text(OLDER, encoding="utf-8")
    target.chmod(0o640)
    ok(cli("export", "#1", "-o", target))
    assert target.read_text(encoding="utf-8") == _exported()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert _temporaries(tmp_path) == []


def test_a_dash_is_standard_output(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    before = sorted(tmp_path.iterdir())
    result = ok(cli("export", "#1", "-o", "-"))
    assert result.stdout == _exported()
    assert sorted(tmp_path.iterdir()) == before  # no file called `-`
    assert ok(cli("export", "#1", "--output", "-", "--format", "jsonl")).stdout.count("\n") == 54


# -- symbolic links: written through ----------------------------------------------------------------


def test_a_link_to_a_file_is_written_through_and_stays_a_link(cli: Cli, tmp_path: Path) -> None:
    real = tmp_path / "exports" / "game.yaml"
    real.parent.mkdir()
    real.write_text(OLDER, encoding="utf-8")
    link = tmp_path / "latest.yaml"
    link.symlink_to(Path("exports") / "game.yaml")
    chain = tmp_path / "chain.yaml"
    chain.symlink_to(link.name)
    ok(cli("export", "#1", "-o", link))
    assert link.is_symlink() and os.readlink(link) == str(Path("exports") / "game.yaml")
    assert real.read_text(encoding="utf-8") == _exported()
    real.write_text(OLDER, encoding="utf-8")
    ok(cli("export", "#1", "-o", chain))  # a link to a link: to the file at its end
    assert chain.is_symlink() and link.is_symlink()
    assert real.read_text(encoding="utf-8") == _exported()
    assert _temporaries(tmp_path) == [] and _temporaries(real.parent) == []


def test_a_dangling_link_makes_the_file_it_names_as_a_shell_does(cli: Cli, tmp_path: Path) -> None:
    link = tmp_path / "latest.yaml"
    link.symlink_to("not-yet.yaml")
    ok(cli("export", "#1", "-o", link))
    assert link.is_symlink() and os.readlink(link) == "not-yet.yaml"
    assert (tmp_path / "not-yet.yaml").read_text(encoding="utf-8") == _exported()


def test_links_that_go_round_in_a_loop_are_refused(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "a.yaml").symlink_to("b.yaml")
    (tmp_path / "b.yaml").symlink_to("a.yaml")
    result = cli("export", "#1", "-o", tmp_path / "a.yaml")
    assert result.exit_code == 2
    refused(result, "a.yaml: cannot write the export: its symbolic links go round in a loop")
    assert os.readlink(tmp_path / "a.yaml") == "b.yaml" and os.readlink(tmp_path / "b.yaml") == "a.yaml"


def test_a_link_to_the_ledger_is_refused(cli: Cli, ledger_path: Path, tmp_path: Path) -> None:
    before = ledger_path.read_bytes()
    link = tmp_path / "innocent.yaml"
    link.symlink_to(ledger_path)
    refused(cli("export", "#1", "-o", link), "is the ledger itself")
    assert ledger_path.read_bytes() == before and link.is_symlink()


# -- what is not a regular file: refused, untouched ------------------------------------------------


def test_a_folder_is_refused(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    result = cli("export", "#1", "-o", folder)
    assert result.exit_code == 2
    refused(result, f"{folder}: cannot write the export: it is a folder; an export is written to a file")
    assert folder.is_dir() and list(folder.iterdir()) == []


def test_a_socket_is_refused(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "s"  # a short name: a socket's path is limited to about 100 bytes
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(path))
        result = cli("export", "#1", "-o", path)
    assert result.exit_code == 2
    refused(result, "cannot write the export: it is a socket")
    assert stat.S_ISSOCK(path.lstat().st_mode)


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    yield path
    assert stat.S_ISFIFO(path.lstat().st_mode)  # still the pipe


@pytest.mark.parametrize("via_link", [False, True])
def test_a_named_pipe_is_refused_without_waiting_for_a_reader(
    cli: Cli, ledger_path: Path, tmp_path: Path, fifo: Path, via_link: bool
) -> None:
    target = fifo
    if via_link:
        target = tmp_path / "pipe.yaml"
        target.symlink_to(fifo)
    done = run_doko(ledger_path, "export", "#1", "-o", target, timeout=60)
    kind = f"a symbolic link to {fifo}, a named pipe (FIFO)" if via_link else "a named pipe (FIFO)"
    one_error_line(done, 2, f"{target}: cannot write the export: it is {kind}; an export is written to a file")
    assert done.stdout == ""


# -- devices (root only: mknod) ---------------------------------------------------------------------

DEVICES = {
    "like /dev/null": (stat.S_IFCHR, "/dev/null", "a character device"),
    "like /dev/full": (stat.S_IFCHR, "/dev/full", "a character device"),
    "a loop block device": (stat.S_IFBLK, None, "a block device"),
}


@pytest.fixture(params=list(DEVICES))
def device(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A device node made in the test's folder, and what `doko` must call it; afterwards it must
    still be that device."""
    if os.geteuid() != 0:
        pytest.skip("making a device node (mknod) needs root")
    kind, like, name = DEVICES[request.param]
    number = os.stat(like).st_rdev if like else os.makedev(7, 0)  # loop0's numbers; it is never opened
    path = tmp_path / "device"
    try:
        os.mknod(path, kind | 0o666, number)
    except PermissionError as exc:  # root in a container that may not make devices
        pytest.skip(f"mknod is not permitted here: {exc}")
    yield path, name
    after = path.lstat()
    assert stat.S_IFMT(after.st_mode) == kind and after.st_rdev == number, "the device was replaced"


@pytest.mark.parametrize("via_link", [False, True])
def test_a_device_is_refused_and_left_a_device(
    cli: Cli, tmp_path: Path, device: tuple[Path, str], via_link: bool
) -> None:
    path, kind = device
    target = path
    if via_link:
        target = tmp_path / "out.yaml"
        target.symlink_to(path)
        kind = f"a symbolic link to {path}, {kind}"
    result = cli("export", "#1", "-o", target)
    assert result.exit_code == 2
    refused(result, f"{target}: cannot write the export: it is {kind}; an export is written to a file")
    assert _temporaries(tmp_path) == []
