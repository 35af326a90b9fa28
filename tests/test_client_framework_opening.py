"""A client framework is said of the client's code only (seen on outline: a Koa server and a React client under one
``package.json``; the answer opened "In the React client, `discord.ts` (`plugins/discord/server/auth/discord.ts`)
hands sign-in to Passport"). React is named for a component file or one that imports it, never for server code that
only shares its manifest.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers import extractive_text

PACKAGE = """{
  "name": "wiki",
  "dependencies": {"koa": "^2.15.0", "koa-router": "^12.0.0", "react": "^18.2.0", "react-dom": "^18.2.0"}
}
"""
SERVER = """import Koa from "koa";
import Router from "koa-router";
import { authenticate } from "./auth";

export function start(port: number) {
  const app = new Koa();
  const router = new Router();
  router.post("/api/documents.create", authenticate, async (ctx) => {
    ctx.body = { ok: true };
  });
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      ctx.status = err.status || 500;
      ctx.body = { error: err.message };
    }
  });
  app.use(router.routes());
  app.listen(port);
}
"""
AUTH = """import type { Context, Next } from "koa";
import { verifyToken } from "./tokens";

export async function authenticate(ctx: Context, next: Next) {
  const token = ctx.headers.authorization?.replace("Bearer ", "");
  if (!token) {
    ctx.throw(401, "Authentication required");
  }
  ctx.state.user = await verifyToken(token);
  return next();
}
"""
TOKENS = """import jwt from "jsonwebtoken";

export async function verifyToken(token: string) {
  return jwt.verify(token, process.env.SECRET_KEY ?? "");
}
"""
COMPONENT = """import React from "react";
import { client } from "./ApiClient";

export function ErrorBanner({ error }: { error: Error }) {
  return <div className="error">{error.message}</div>;
}

export function App() {
  const [error, setError] = React.useState<Error | null>(null);
  React.useEffect(() => {
    client.post("/api/documents.create").catch(setError);
  }, []);
  return error ? <ErrorBanner error={error} /> : <main />;
}
"""
INDEXED_APPS = {
    "wiki": {
        "package.json": PACKAGE,
        "server/main.ts": SERVER,
        "server/auth.ts": AUTH,
        "server/tokens.ts": TOKENS,
        "app/App.tsx": COMPONENT,
    }
}


def test_server_code_under_a_shared_manifest_is_no_react_client(apps_home: Path) -> None:
    answer = extractive_text(apps_home, "wiki", "How does the server check the bearer token of a request?")
    opening = answer.split("\n")[0]
    assert "server/" in opening, opening
    assert "React" not in opening, opening


def test_a_component_is_still_the_react_client(apps_home: Path) -> None:
    opening = extractive_text(apps_home, "wiki", "How is an error banner shown in the app?").split("\n")[0]
    assert "app/App.tsx" in opening and "React" in opening, opening  # "In the React client": Koa serves it
