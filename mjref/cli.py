"""``mjref``: one command for everything mjref does from a terminal (issue #19 item 5).

    mjref analyze "123m456m789m234s11s46p"     # 聽牌了嗎 ready or not, the waits
    mjref score hand.json                       # 幾台 the 台 and the payments (``-``: stdin)
    mjref serve --port 8000                     # nginx + uWSGI, as make run starts it
    mjref replay data/samples/win_self_drawn.jsonl
    mjref rule data/samples/pen_false_win.jsonl
    mjref tokens create --role admin --label 管理員

``analyze`` and ``score`` load neither Flask nor the app (the speed of a calculator,
:mod:`api.hand_commands`), nor do ``replay`` and ``rule`` (:mod:`api.batch`: a log's hands
need the referee and penalties only; the app's imports were 0.6 s of CPU before the first
hand). ``serve`` is :func:`mjref.serve.main`. Every other command is the app's own ``flask``
command (:mod:`api.cli`), found in ``create_app()``'s CLI when asked for; the light ones are
the very command objects the app registers, so the two never differ; ``flask --app app …``
keeps working. Unlike a bare ``flask``, ``mjref`` cannot pick up another project's Flask on
the PATH.
"""
from __future__ import annotations

import click

#: commands that need no app, each imported when asked for (``replay`` need not load the
#: calculators' marshmallow, nor ``analyze`` the batch): name → (module, attribute)
LIGHT_LATER = {"analyze": ("api.hand_commands", "analyze_command"), "score": ("api.hand_commands", "score_command"),
               "replay": ("api.batch", "replay_command"), "rule": ("api.batch", "rule_command")}


@click.command("serve", context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                                          "help_option_names": []})
@click.pass_context
def serve_command(ctx: click.Context) -> None:
    """啟動服務（nginx + uWSGI）Serve mjref: the arguments of ``python -m mjref.serve`` (--help lists them)."""
    from mjref import serve

    ctx.exit(serve.main(list(ctx.args)))


class MjrefGroup(click.Group):
    """The light commands and ``serve`` directly; the rest from the app's CLI, loaded on demand."""

    def _app_group(self, ctx: click.Context) -> click.Group:
        from flask.cli import FlaskGroup, ScriptInfo

        from app import create_app

        if not isinstance(ctx.obj, ScriptInfo):
            ctx.obj = ScriptInfo(create_app=create_app)
        return FlaskGroup(create_app=create_app, add_default_commands=False, add_version_option=False,
                          load_dotenv=False, set_debug_flag=False)

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = set(super().list_commands(ctx))
        names.update(self._app_group(ctx).list_commands(ctx))
        return sorted(names)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        command = super().get_command(ctx, name)
        if command is not None:
            return command
        if name in LIGHT_LATER:
            import importlib

            module, attribute = LIGHT_LATER[name]
            return getattr(importlib.import_module(module), attribute)
        return self._app_group(ctx).get_command(ctx, name)


@click.group(cls=MjrefGroup, context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """mjref 台灣十六張麻將裁判 Taiwanese 16-tile mahjong referee: hand calculators, the server,
    batch checks of logs, tokens. ``mjref COMMAND --help`` tells each command's options."""


main.add_command(serve_command)

__all__ = ["main"]
