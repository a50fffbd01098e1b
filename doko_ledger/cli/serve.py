"""`doko serve`: the web app for the phones at the table (FastAPI, run by uvicorn).

The web stack is imported inside the command only, so no other command starts slower.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from typing import TYPE_CHECKING, Annotated, Any

import typer

from doko_ledger.cli.common import ledger_path, out
from doko_ledger.cli.help_texts import described, helped
from doko_ledger.errors import DokoError
from doko_ledger.i18n import msg, render
from doko_ledger.store.location import shown as shown_ledger

if TYPE_CHECKING:
    from doko_ledger.web.join_code import TableJoin


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            address: str = probe.getsockname()[0]
        except OSError:
            address = "127.0.0.1"
    return address


ALL_INTERFACES = ("0.0.0.0", "::")
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


def _loopback(host: str) -> bool:
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_name(text: str) -> str:
    """A name for `--allowed-host`: a host name or an address, without scheme or port."""
    name = text.strip().lower().rstrip(".").removeprefix("[").removesuffix("]")
    if not name or any(ch in name for ch in "/@ \t") or (name.count(":") == 1):
        problem = msg("give a host name or an address, without scheme or port, not {text}", text=repr(text[:60]))
        raise typer.BadParameter(render(problem))
    return name


def served_hosts(host: str, shown: str, extra: list[str]) -> frozenset[str]:
    """The names a request's `Host` may give: the bind address, the address printed, each
    `--allowed-host`, and this machine's own names when it answers on loopback (bound there, or
    to every interface)."""
    names = {host.lower(), shown.lower(), *map(host_name, extra)}
    if host in ALL_INTERFACES or _loopback(host):
        names |= LOOPBACK_NAMES
    return frozenset(names - set(ALL_INTERFACES))


def _logging() -> dict[str, Any]:
    """uvicorn's logging, with the app's own lines (wrong join codes) printed as its warnings are."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = {**LOGGING_CONFIG, "loggers": dict(LOGGING_CONFIG["loggers"])}
    config["loggers"]["doko_ledger.web"] = {"handlers": ["default"], "level": "WARNING", "propagate": False}
    return config


def _check_port(host: str, port: int) -> None:
    """Refuse a port another server listens on. The probe binds as uvicorn does, with
    `SO_REUSEADDR`: the connections of a server just stopped (TIME_WAIT) do not hold the port."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        if os.name != "nt":  # on Windows the option would let two servers share the port
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            problem = msg(
                "cannot serve on {host}:{port}: {reason} (choose another with --port)",
                host=host,
                port=port,
                reason=exc.strerror,
            )
            raise DokoError(problem) from None


@described("Serve the ledger to the phones at the table: nights, deals by taps, scores, a JSON API.")
def serve(
    ctx: typer.Context,
    host: Annotated[
        str, typer.Option("--host", help=helped("127.0.0.1: this machine only; 0.0.0.0: the local network."))
    ] = ("127.0.0.1"),
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help=helped("The port."))] = 8000,
    join_code: Annotated[
        str | None,
        typer.Option(
            "--join-code",
            envvar="DOKO_JOIN_CODE",
            help=helped("Set the table's join code (kept in the ledger; default: the one kept, or a new random one)."),
        ),
    ] = None,
    new_join_code: Annotated[
        bool,
        typer.Option("--new-join-code", help=helped("Make a new join code: phones that joined must join again.")),
    ] = False,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            help=helped(
                "One more name the phones reach this server by, e.g. laptop.local (repeatable); "
                "any other name in a request is refused."
            ),
        ),
    ] = None,
    private: Annotated[
        bool, typer.Option("--private", help=helped("Show nothing but the join page to a phone that has not joined."))
    ] = False,
) -> None:
    import uvicorn

    from doko_ledger.ledger import Ledger
    from doko_ledger.web import qr
    from doko_ledger.web.app import Settings, create_app
    from doko_ledger.web.join_code import table_join

    code = join_code.strip() if join_code else None
    if code and new_join_code:
        problem = render(msg("give --join-code CODE or --new-join-code, not both"))
        raise typer.BadParameter(problem, param_hint="--new-join-code")
    path = ledger_path(ctx)
    _check_port(host, port)
    with Ledger.open(path, create=True) as ledger:  # a fresh ledger can be filled from the phones
        table = table_join(ledger.store, new=new_join_code, code=code)
    code = table.code
    shown = lan_address() if host in ALL_INTERFACES else host
    url = f"http://{shown}:{port}/"
    join_url = f"{url}join?code={code}"
    settings = Settings(
        db=path,
        join_code=code,
        secret=table.secret,
        join_url=join_url,
        allowed_hosts=served_hosts(host, shown, allowed_host or []),
        private=private,
    )
    console = out()
    console.print(render(msg("doko serve: {ledger} at {url}", ledger=shown_ledger(path), url=url)), markup=False)
    if host in ALL_INTERFACES:
        console.print(qr.terminal(join_url), markup=False, highlight=False)
    console.print(render(msg("join code: {code}   (or open {url})", code=code, url=join_url)), markup=False)
    console.print(_kept(table), markup=False, highlight=False)
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning", log_config=_logging())


def _kept(table: TableJoin) -> str:
    """What becomes of the join code when the server starts again."""
    if table.not_kept is not None:
        why = table.not_kept
        return render(
            msg("the join code holds for this start only: the ledger cannot be written ({reason})", reason=why)
        )
    if table.changed:
        return render(msg("a new join code, kept in the ledger: phones that joined before must join again"))
    return render(msg("the join code is kept in the ledger: phones that joined stay joined"))


def register(app: typer.Typer) -> None:
    """Add `doko serve` to the `doko` app."""
    app.command()(serve)
