"""``gloom serve``: play in the browser (issue 6). The server itself lives in
:mod:`gloomtable.server`; this is only its command-line face. Every limit of
:class:`gloomtable.server.limits.ServerLimits` is a flag too (docs/security.md)."""

from __future__ import annotations

import inspect
from typing import Annotated, Any

import typer

from gloomtable.i18n.cli_language import _
from gloomtable.server.limits import from_namespace, typer_parameters
from gloomtable.server.lobby import LobbySettings
from gloomtable.server.store import default_db

_D = LobbySettings()


def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option(help=_("Address to listen on."))] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help=_("Port to listen on."))] = 8000,
    db: Annotated[str, typer.Option(
        help=_("SQLite file where tables are kept, or postgresql://USER@HOST/DB to share tables "
               "between several server processes (docs/deploy.md). Default: $GLOOMTABLE_DB, else "
               "$XDG_DATA_HOME/gloomtable/tables.db, else ~/.local/share/gloomtable/tables.db."),
        show_default=False)] = "",
    allow_fixed_deals: Annotated[bool, typer.Option(
        help=_("Accept a table's seed (a deal its creator chose); such tables say so and are never listed."))
    ] = False,
    max_open_tables: Annotated[int, typer.Option(min=1, help=_("Unfinished tables kept at once."))
                               ] = _D.max_open_tables,
    idle_table_expiry: Annotated[float, typer.Option(
        min=0, help=_("Seconds before an unfinished table nobody took a seat at or watched is deleted."))
    ] = _D.idle_expiry,
    abandoned_table_expiry: Annotated[float, typer.Option(
        min=0, help=_("Seconds before an unfinished table with no page open and no move is deleted."))
    ] = _D.abandoned_expiry,
    finished_table_keep: Annotated[float, typer.Option(
        min=0, help=_("Seconds a finished table stays in memory after its last page leaves."))
    ] = _D.finished_keep,
    finished_table_expiry: Annotated[float, typer.Option(
        min=0, help=_("Seconds after its end a finished table is deleted from the store "
                      "(unless a page of it is open)."))
    ] = _D.finished_expiry,
    bot_workers: Annotated[int, typer.Option(min=1, help=_("Threads for bot searches."))] = _D.bot_workers,
    bot_only_min_delay_ms: Annotated[int, typer.Option(
        min=0, help=_("Least pause before each automatic move at a table where no person has a page open."))
    ] = _D.bot_only_min_delay_ms,
    sets: Annotated[str, typer.Option(
        help=_("Gloom deck files and Crazy Creatures variant set files, separated by commas; "
        "tables name them by their set id."))
    ] = "",
    log_level: Annotated[str, typer.Option(
        help=_("Least level of the lines logged: debug, info, warning, error; debug adds tracebacks."))
    ] = "info",
    log_format: Annotated[str, typer.Option(help=_("text, or json: one JSON object a line."))] = "text",
    access_log: Annotated[bool, typer.Option(help=_("One line per HTTP request and websocket."))] = False,
    config: Annotated[str, typer.Option(
        help=_("A TOML file of settings: keys are these flags' names; the command line and "
               "GLOOMTABLE_<FLAG> environment variables win over it (docs/deploy.md)."))] = "",
    print_config: Annotated[bool, typer.Option(
        help=_("Print the settings as they resolve (passwords in URLs masked) and exit."))] = False,
    **limits: Any,
) -> None:
    """Serve the lobby and live tables in the browser; prints the address to open."""
    from gloomtable.server.settings import SettingsError, as_toml, layered

    values: dict[str, Any] = dict(
        host=host, port=port, db=db, allow_fixed_deals=allow_fixed_deals, max_open_tables=max_open_tables,
        idle_table_expiry=idle_table_expiry, abandoned_table_expiry=abandoned_table_expiry,
        finished_table_keep=finished_table_keep, finished_table_expiry=finished_table_expiry,
        bot_workers=bot_workers, bot_only_min_delay_ms=bot_only_min_delay_ms, sets=sets,
        log_level=log_level, log_format=log_format, access_log=access_log, **limits)
    try:
        found = layered({name.replace("_", "-"): type(v) for name, v in values.items()}, config or None)
    except SettingsError as exc:  # one line, not a box that wraps the file's path
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    for flag, value in found.items():  # the command line wins: only what it left at its default
        name = flag.replace("-", "_")
        source = ctx.get_parameter_source(name)  # (typer may carry its own click: compared by name)
        if source is None or source.name in ("DEFAULT", "DEFAULT_MAP"):
            values[name] = value
    if print_config:
        typer.echo(as_toml({name.replace("_", "-"): v for name, v in values.items()}))
        return
    if not 0 < values["port"] < 65536:
        raise typer.BadParameter(f"port must be 1..65535, got {values['port']}")
    _run(values)


def _run(values: dict[str, Any]) -> None:
    """Start the server with the resolved ``values`` (by parameter name)."""
    from gloomtable.server.run import serve as run

    v = dict(values)
    host, port, db, sets = v.pop("host"), v.pop("port"), v.pop("db"), v.pop("sets")
    allow_fixed_deals, max_open_tables = v.pop("allow_fixed_deals"), v.pop("max_open_tables")
    idle_table_expiry, abandoned_table_expiry = v.pop("idle_table_expiry"), v.pop("abandoned_table_expiry")
    finished_table_keep, finished_table_expiry = v.pop("finished_table_keep"), v.pop("finished_table_expiry")
    bot_workers, bot_only_min_delay_ms = v.pop("bot_workers"), v.pop("bot_only_min_delay_ms")
    log_level, log_format, access_log = v.pop("log_level"), v.pop("log_format"), v.pop("access_log")
    limits = v

    lobby = LobbySettings(allow_fixed_deals=allow_fixed_deals, max_open_tables=max_open_tables,
                          idle_expiry=idle_table_expiry, abandoned_expiry=abandoned_table_expiry,
                          finished_keep=finished_table_keep, finished_expiry=finished_table_expiry,
                          bot_workers=bot_workers, bot_only_min_delay_ms=bot_only_min_delay_ms,
                          sets=tuple(s.strip() for s in sets.split(",") if s.strip()))
    try:
        config = from_namespace(limits)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    run(host=host, port=port, db=db or str(default_db()), lobby=lobby, limits=config,
        log_level=log_level, log_format=log_format, access_log=access_log)


# eval_str: this module's annotations are strings (PEP 563), and typer reads a given
# __signature__ as it is: unevaluated, every Option (its help, its min and max) was lost
_base = [p for p in inspect.signature(serve, eval_str=True).parameters.values()
         if p.kind is not p.VAR_KEYWORD]
serve.__signature__ = inspect.Signature(_base + typer_parameters())  # type: ignore[attr-defined]
