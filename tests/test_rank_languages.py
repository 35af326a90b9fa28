"""Issue 17's class 5, natural questions in TypeScript, C and Haskell, each on a small real repository indexed by
the real pipeline: a question in plain words, without the code's identifiers, puts the defining file first (the
``--files`` ranking) and its answering chunk in the top three chunks. TypeScript and C are cut by their tree-sitter
grammars, Haskell too (one chunk per function: its signature and all its equations).
"""

from __future__ import annotations

import pytest

from codeqa.chunk.treesitter import supports
from codeqa.config import Settings
from tests.conftest import init_repo
from tests.helpers import build_index, retrieve_named

TS = {
    "src/auth/passwords.ts": """import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const KEY_LENGTH = 64;

// Stored as "salt:derived", both hex; a fresh salt per user.
export async function hashPassword(plain: string): Promise<string> {
  const salt = randomBytes(16);
  const derived = await scryptAsync(plain, salt, KEY_LENGTH);
  return `${salt.toString("hex")}:${derived.toString("hex")}`;
}

export async function verifyPassword(plain: string, stored: string): Promise<boolean> {
  const [saltHex, keyHex] = stored.split(":");
  const derived = await scryptAsync(plain, Buffer.from(saltHex, "hex"), KEY_LENGTH);
  return timingSafeEqual(derived, Buffer.from(keyHex, "hex"));
}
""",
    "src/routes/users.ts": """import { Router } from "express";
import { hashPassword } from "../auth/passwords";
import { UserRepository } from "../db/users";

export function userRoutes(users: UserRepository): Router {
  const router = Router();

  router.post("/users", async (req, res) => {
    const { email, password } = req.body;
    if (!email || !password || password.length < 8) {
      return res.status(400).json({ error: "email and a password of at least 8 characters are required" });
    }
    const user = await users.create({ email, passwordHash: await hashPassword(password) });
    res.status(201).json({ id: user.id, email: user.email });
  });

  return router;
}
""",
    "src/db/users.ts": """import { Pool } from "pg";

export interface User {
  id: number;
  email: string;
  passwordHash: string;
}

export class UserRepository {
  constructor(private readonly pool: Pool) {}

  async create(user: Omit<User, "id">): Promise<User> {
    const { rows } = await this.pool.query(
      "INSERT INTO users (email, password_hash) VALUES ($1, $2) RETURNING id, email, password_hash",
      [user.email, user.passwordHash],
    );
    return { id: rows[0].id, email: rows[0].email, passwordHash: rows[0].password_hash };
  }
}
""",
}

C = {
    "src/table.c": """#include <stdlib.h>
#include <string.h>
#include "kv.h"

static unsigned long hash_key(const char *key) {
    unsigned long h = 5381;
    while (*key) h = h * 33 + (unsigned char)*key++;
    return h;
}

/* Doubles the slot array and re-inserts every entry; called when three quarters are used. */
static int grow(struct table *t) {
    size_t old_cap = t->cap;
    struct entry *old = t->slots;
    struct entry *slots = calloc(old_cap * 2, sizeof *slots);
    if (!slots) return -1;
    t->slots = slots;
    t->cap = old_cap * 2;
    t->len = 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].key) table_put(t, old[i].key, old[i].value);
    free(old);
    return 0;
}

int table_put(struct table *t, char *key, char *value) {
    if ((t->len + 1) * 4 > t->cap * 3 && grow(t) != 0) return -1;
    size_t i = hash_key(key) & (t->cap - 1);
    while (t->slots[i].key && strcmp(t->slots[i].key, key) != 0) i = (i + 1) & (t->cap - 1);
    if (!t->slots[i].key) t->len++;
    t->slots[i].key = key;
    t->slots[i].value = value;
    return 0;
}

char *table_get(const struct table *t, const char *key) {
    size_t i = hash_key(key) & (t->cap - 1);
    while (t->slots[i].key) {
        if (strcmp(t->slots[i].key, key) == 0) return t->slots[i].value;
        i = (i + 1) & (t->cap - 1);
    }
    return NULL;
}
""",
    "src/protocol.c": """#include <stdio.h>
#include <string.h>
#include "kv.h"

/* One request per line: GET key | SET key value. Replies are written to out. */
int handle_line(struct table *t, char *line, FILE *out) {
    char *cmd = strtok(line, " \\r\\n");
    char *key = strtok(NULL, " \\r\\n");
    if (!cmd || !key) {
        fputs("ERR expected a command and a key\\n", out);
        return -1;
    }
    if (strcmp(cmd, "GET") == 0) {
        char *value = table_get(t, key);
        fprintf(out, "%s\\n", value ? value : "NIL");
    } else if (strcmp(cmd, "SET") == 0) {
        char *value = strtok(NULL, "\\r\\n");
        if (!value || table_put(t, strdup(key), strdup(value)) != 0) {
            fputs("ERR set failed\\n", out);
            return -1;
        }
        fputs("OK\\n", out);
    } else {
        fprintf(out, "ERR unknown command %s\\n", cmd);
        return -1;
    }
    return 0;
}
""",
    "include/kv.h": """#ifndef KV_H
#define KV_H
#include <stddef.h>
#include <stdio.h>

struct entry { char *key; char *value; };
struct table { struct entry *slots; size_t cap; size_t len; };

int table_put(struct table *t, char *key, char *value);
char *table_get(const struct table *t, const char *key);
int handle_line(struct table *t, char *line, FILE *out);

#endif
""",
}

HASKELL = {
    "src/Eval.hs": """module Eval (eval, Env, Value (..)) where

import qualified Data.Map.Strict as Map
import Syntax

data Value = IntV Integer | Closure String Expr Env

type Env = Map.Map String Value

-- | Evaluate an expression; a free variable is an error naming it.
eval :: Env -> Expr -> Either String Value
eval _ (Lit n) = Right (IntV n)
eval env (Var x) = maybe (Left ("unbound variable: " ++ x)) Right (Map.lookup x env)
eval env (Lam x body) = Right (Closure x body env)
eval env (App f a) = do
  fv <- eval env f
  av <- eval env a
  case fv of
    Closure x body cenv -> eval (Map.insert x av cenv) body
    IntV _ -> Left "applied a number as a function"
eval env (Add a b) = do
  x <- eval env a
  y <- eval env b
  case (x, y) of
    (IntV m, IntV n) -> Right (IntV (m + n))
    _ -> Left "added something that is not a number"
""",
    "src/Syntax.hs": """module Syntax (Expr (..)) where

data Expr
  = Lit Integer
  | Var String
  | Lam String Expr
  | App Expr Expr
  | Add Expr Expr
  deriving (Show, Eq)
""",
    "src/Parser.hs": """module Parser (parseExpr) where

import Syntax
import Text.Parsec
import Text.Parsec.String (Parser)

-- | Parse a whole line: numbers, names, \\\\x -> e, application and +.
parseExpr :: String -> Either ParseError Expr
parseExpr = parse (spaces *> expr <* eof) "<input>"

expr :: Parser Expr
expr = chainl1 app (Add <$ symbol "+")

app :: Parser Expr
app = foldl1 App <$> many1 atom

atom :: Parser Expr
atom = Lit . read <$> lexeme (many1 digit)
  <|> Var <$> identifier
  <|> lambda
  <|> between (symbol "(") (symbol ")") expr

lambda :: Parser Expr
lambda = Lam <$> (symbol "\\\\" *> identifier) <*> (symbol "->" *> expr)

identifier :: Parser String
identifier = lexeme (many1 letter)

symbol :: String -> Parser String
symbol = lexeme . string

lexeme :: Parser a -> Parser a
lexeme p = p <* spaces
""",
    "app/Main.hs": """module Main (main) where

import qualified Data.Map.Strict as Map
import Eval
import Parser
import System.IO

main :: IO ()
main = do
  putStr "> " >> hFlush stdout
  eof <- isEOF
  if eof
    then pure ()
    else do
      line <- getLine
      case parseExpr line of
        Left err -> print err
        Right e -> putStrLn (either ("error: " ++) showValue (eval Map.empty e))
      main

showValue :: Value -> String
showValue (IntV n) = show n
showValue Closure {} = "<function>"
""",
}


@pytest.fixture(scope="module")
def repos(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    base = tmp_path_factory.mktemp("rank-languages")
    settings = Settings(home=base / "home")
    for name, files in (("ts", TS), ("c", C), ("haskell", HASKELL)):
        build_index(str(init_repo(base / name, files)), settings, name=name)
    return settings


@pytest.mark.parametrize(
    ("name", "question", "path", "answer"),
    [
        ("ts", "where are passwords hashed before they are stored?", "src/auth/passwords.ts", "hashPassword("),
        ("ts", "where is the salt for a new account made?", "src/auth/passwords.ts", "randomBytes(16)"),
        ("c", "how does the store make room when it fills up?", "src/table.c", "static int grow("),
        ("c", "what happens when two keys land in the same slot?", "src/table.c", "i = (i + 1) & (t->cap - 1)"),
        ("haskell", "how does the interpreter find the value bound to a name?", "src/Eval.hs", "Map.lookup x env"),
        ("haskell", "how is a line of input turned into a syntax tree?", "src/Parser.hs", "parseExpr ="),
    ],
)
def test_a_natural_question_finds_the_defining_file_and_chunk(
    repos: Settings, name: str, question: str, path: str, answer: str
):
    result = retrieve_named(name, question, repos)
    assert result.files[0].path == path, [f.path for f in result.files[:3]]
    top = result.hits[:3]
    assert any(h.chunk.path == path and answer in h.chunk.text for h in top), [
        (h.chunk.path, h.chunk.symbol) for h in top
    ]


def test_each_fixture_language_is_chunked_as_stated(repos: Settings):
    assert supports("typescript") and supports("c") and supports("haskell")
    ts = retrieve_named("ts", "where are passwords hashed before they are stored?", repos).hits
    c = retrieve_named("c", "how does the store make room when it fills up?", repos).hits
    haskell = retrieve_named("haskell", "how does the interpreter find the value bound to a name?", repos).hits
    assert ("hashPassword", "function") in {(h.chunk.symbol, h.chunk.kind) for h in ts}  # cut at a definition
    assert ("grow", "function") in {(h.chunk.symbol, h.chunk.kind) for h in c}
    assert ("eval", "function") in {(h.chunk.symbol, h.chunk.kind) for h in haskell}, [
        (h.chunk.symbol, h.chunk.kind) for h in haskell
    ]
