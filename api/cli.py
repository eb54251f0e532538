"""``flask`` CLI commands of mjref (``flask --app app <command>``).

Every command prints JSON on stdout; errors leave as problem JSON on stderr with
exit status 2 (:mod:`api.clikit`, which holds the pieces commands share). This module
holds :func:`init_app`, the one place commands are registered; the hand calculators
(``analyze``, ``score``) are in :mod:`api.hand_commands`, which ``mjref`` (:mod:`mjref.cli`) also
runs without the app. ``mjref COMMAND`` runs every command here too.
"""
from __future__ import annotations

from flask import Flask

from api import auth, batch, database_cli, pins_cli, revalidate, tables
from api.hand_commands import analyze_command, score_command


def init_app(app: Flask) -> None:
    """Register every mjref command on ``app.cli``."""
    # ---- registration point: add commands here, one line each ----------------
    app.cli.add_command(analyze_command)
    app.cli.add_command(score_command)
    pins_cli.add_to(auth.tokens_cli)  # flask tokens pin|pins|unpin (issue #14)
    app.cli.add_command(auth.tokens_cli)  # flask tokens create|list|revoke|pin|pins|unpin
    tables.tables_cli.add_command(revalidate.revalidate_command)  # flask tables revalidate (issue #17 item 4)
    app.cli.add_command(tables.tables_cli)  # flask tables rebuild|revalidate
    app.cli.add_command(database_cli.db_cli)  # flask db migrate|copy (issue #16)
    app.cli.add_command(batch.rule_command)  # flask rule FILES... (issue #5 penalties, #17 batch)
    app.cli.add_command(batch.replay_command)  # flask replay FILES... (issue #4 referee, #17 batch)
    # ---------------------------------------------------------------------------
