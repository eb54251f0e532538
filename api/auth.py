"""API tokens and roles, as the API applies them: the guard on every blueprint (the token
checked before the body is read), the tokens API (admin) and the ``flask tokens`` commands.

Tokens, roles and read areas themselves — who may do and read what — are
:mod:`services.caller`, shared with the pages.

CLI: ``flask tokens create --role admin``, ``flask tokens create --role table --table T1``,
``flask tokens list``, ``flask tokens revoke ID``. API (admin): ``/api/v1/tokens``.
"""
from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable

import click
from flask import Flask, current_app, jsonify, request
from flask.cli import AppGroup
from marshmallow import Schema, fields, validate

from api.clikit import cli_db, emit, reports_errors
from api.openapi import BEARER, Blueprint, link, links
from services.problems import not_found
from services.caller import (  # who is calling, shared with the pages; re-exported for the API's views (__all__)
    ROLES, Principal, TokenRequestError, _TokenCache, _need_token, cached_principal, check_post_events, check_read,
    create_token, current_principal, note_revocation, principal_of, require, revocation_marker,
)
from store import get_db, get_writer
from store.dialect import is_postgres
from store import tokens as token_store

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: who may write by default: the officials
OFFICIALS = ("official", "admin")


def declared_security(view: Callable | None) -> list[dict] | None:
    """The OpenAPI security an operation declares (``@blp.doc(security=...)``), ``None`` if none."""
    return (getattr(view, "_apidoc", None) or {}).get("manual_doc", {}).get("security")


def guard(blueprint, roles: tuple[str, ...] = OFFICIALS, *, area: str | None = None,
          endpoints: dict[str, tuple[str, ...]] | None = None) -> None:
    """Auth first (issue #12 item 5): a blueprint's requests are refused for their token
    (401, 403) before anything reads or validates their body — flask-smorest's
    ``@blp.arguments`` parses and validates before the view runs, and so before any check
    in the view.

    What is checked follows the operation's declared security (:func:`declared_security`):

    * a token only (``BEARER``): a valid token, with one of *roles* (or ``endpoints[name]``
      for the endpoint ``name``): 401 without one, 403 for another role;
    * a token or none (``MAYBE_BEARER``): a token that is given must be valid (401), and a
      write to the read area *area* (the ``tools`` calculators) is a :func:`check_read`.

    The views keep their own checks (a table token's own table, a read's area): they run
    on the principal found here, cached in ``g``.
    """
    endpoints = endpoints or {}

    @blueprint.before_request
    def auth_first() -> None:
        if request.method == "OPTIONS":  # Flask's own answer (Allow), no body to protect
            return
        view = current_app.view_functions.get(request.endpoint)
        security = declared_security(view)
        if security is None:
            return
        if {} in security:
            if area is not None and request.method in WRITE_METHODS:
                check_read(area)
            else:
                current_principal()  # a token given must be valid
            return
        require(*endpoints.get(request.endpoint.rpartition(".")[2], roles))


def read_access(area: str, table_arg: str | None = None) -> Callable:
    """View decorator: :func:`check_read` for *area*; *table_arg* names the view argument
    holding the table id."""

    def decorator(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapper(*args, **kwargs):
            check_read(area, kwargs.get(table_arg) if table_arg else None)
            return view(*args, **kwargs)

        return wrapper

    return decorator


def requires(*roles: str) -> Callable:
    """View decorator: :func:`require`."""

    def decorator(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapper(*args, **kwargs):
            require(*roles)
            return view(*args, **kwargs)

        return wrapper

    return decorator


# --- the tokens API (admin) -----------------------------------------------------------------

blp = Blueprint("tokens", __name__, url_prefix="/api/v1", description="權杖 API tokens (admin)")
guard(blp, ("admin",), endpoints={"whoami": ROLES})  # auth first (issue #12 item 5)


class TokenRequestSchema(Schema):
    role = fields.String(required=True, validate=validate.OneOf(ROLES), metadata={"description": "角色 role"})
    table = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=64),
                          metadata={"description": "桌 the table of a table token"})
    label = fields.String(load_default="", validate=validate.Length(max=200), metadata={"description": "備註 label"})


class TokenSchema(Schema):
    id = fields.Integer()
    prefix = fields.String(metadata={"description": "權杖開頭 the token's first characters"})
    role = fields.String()
    table = fields.String(allow_none=True)
    label = fields.String()
    created_at = fields.String()
    revoked_at = fields.String(allow_none=True)


class NewTokenSchema(TokenSchema):
    token = fields.String(metadata={"description": "權杖本身，只顯示這一次 the secret, shown once"})


class TokenListSchema(Schema):
    tokens = fields.List(fields.Nested(TokenSchema))


class WhoAmISchema(Schema):
    token = fields.Integer()
    role = fields.String()
    table = fields.String(allow_none=True)
    label = fields.String()


@blp.post("/tokens")
@blp.arguments(TokenRequestSchema)
@blp.response(201, NewTokenSchema)
@blp.doc(security=BEARER)
@blp.doc(**links(201, RevokeToken=link("/api/v1/tokens/{token_id}", "delete", token_id="$response.body#/id")))
@requires("admin")
def create_token_view(data: dict):
    """建立權杖 Create a token (admin). The secret is in the answer, once."""
    secret, row = get_writer().submit(lambda tx: create_token(tx.db, role=data["role"], table=data["table"],
                                                              label=data["label"]))
    response = jsonify({**row, "token": secret})
    response.status_code = 201
    return response


@blp.get("/tokens")
@blp.response(200, TokenListSchema)
@blp.doc(security=BEARER)
@requires("admin")
def list_tokens_view():
    """權杖清單 The live tokens (admin); never their secrets."""
    return jsonify({"tokens": token_store.list_tokens(get_db())})


@blp.delete("/tokens/<int(max=2147483647):token_id>")
@blp.response(200, TokenSchema)
@blp.doc(security=BEARER)
@requires("admin")
def revoke_token_view(token_id: int):
    """撤銷權杖 Revoke a token (admin); it stops working at once."""
    row = get_writer().submit(lambda tx: token_store.revoke_token(tx.db, token_id))
    if row is None:
        raise not_found("token", "權杖", token_id, "token_id")
    current_app.extensions["mjref.token_cache"].forget(token_id)
    note_revocation(current_app.config["DATABASE"])  # the other server processes drop their caches
    return jsonify(row)


@blp.get("/whoami")
@blp.response(200, WhoAmISchema)
@blp.doc(security=BEARER)
def whoami():
    """目前的權杖 Who the token is: role, table, label."""
    principal = current_principal()
    if principal is None:
        raise _need_token()
    return jsonify(principal.to_dict())


# --- CLI ----------------------------------------------------------------------------------


tokens_cli = AppGroup("tokens", help="API 權杖 API tokens: create, list, revoke.")


@tokens_cli.command("create")
@click.option("--role", required=True, type=click.Choice(ROLES), help="角色 role")
@click.option("--table", default=None, help="桌 the table of a table token")
@click.option("--label", default="", help="備註 a label (who holds it)")
def tokens_create(role: str, table: str | None, label: str) -> None:
    """建立權杖並印出（只顯示一次）。Create a token and print it (shown once)."""

    @reports_errors
    def run() -> None:
        db = cli_db()
        try:
            with db.atomic():
                secret, row = create_token(db, role=role, table=table, label=label)
        finally:
            db.close()
        emit({**row, "token": secret})
        click.echo(f"# 請保存此權杖，它不會再顯示 / keep this token: it is not shown again\n"
                   f"# curl -H 'Authorization: Bearer {secret}' ...", err=True)

    run()


@tokens_cli.command("list")
@click.option("--all", "include_revoked", is_flag=True, help="也列出已撤銷的 include revoked tokens")
def tokens_list(include_revoked: bool) -> None:
    """列出權杖（不含密鑰）。List tokens (never their secrets)."""

    db = cli_db()
    try:
        emit({"tokens": token_store.list_tokens(db, include_revoked=include_revoked)})
    finally:
        db.close()


@tokens_cli.command("revoke")
@click.argument("token_id", type=int)
def tokens_revoke(token_id: int) -> None:
    """撤銷權杖。Revoke a token (running servers stop accepting it at once)."""

    db = cli_db()
    try:
        with db.atomic():
            row = token_store.revoke_token(db, token_id)
    finally:
        db.close()
    if row is not None:
        note_revocation(current_app.config["DATABASE"])  # running servers drop their cached tokens at once
    if row is None:
        click.echo(json.dumps({"code": "not_found", "field": "token_id", "detail": f"no token {token_id}",
                               "detail_zh": f"找不到權杖 {token_id}"}, ensure_ascii=False), err=True)
        sys.exit(2)
    emit(row)


def init_app(app: Flask) -> None:
    database = app.config["DATABASE"]
    app.extensions["mjref.token_cache"] = _TokenCache(
        float(app.config.get("TOKEN_CACHE_SECONDS", 10)),
        None if is_postgres(database) else revocation_marker(database),
        in_database=is_postgres(database))


#: the API's own names, and those of :mod:`services.caller` its views reach as ``auth.…``
__all__ = ["OFFICIALS", "ROLES", "WRITE_METHODS", "Principal", "TokenRequestError", "blp", "cached_principal",
           "check_post_events",
           "check_read", "create_token", "current_principal", "guard", "init_app", "principal_of", "read_access",
           "require", "requires", "tokens_cli"]

