"""False on hoppscotch (a NestJS app with a Rust desktop plugin, in no data set), asked what happens when an API
request fails: "``ApiError`` (``…/src/api/error.rs:3-48``) … Its documentation says: “[derive(Debug, Error)]”", a
Rust attribute over the enum said as its documentation (the ``#`` read as a line comment). An attribute is no
documentation; a doc comment above it still documents the definition. The same sentence said the enum "defines a
class": Rust has no classes; it defines an enum."""

from __future__ import annotations

from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.chunk import chunk_file
from codeqa.records import Chunk, SourceFile

# the head of packages/hoppscotch-desktop/plugin-workspace/tauri-plugin-appload/src/api/error.rs (shortened)
ERRORS = """use thiserror::Error;

#[derive(Debug, Error)]
pub enum ApiError {
    #[error("HTTP request failed: {0}")]
    RequestFailed(#[from] reqwest::Error),

    #[error("Invalid server response: {0}")]
    InvalidResponse(String),

    #[error("Bundle not found: {0}")]
    BundleNotFound(String),
}

impl ApiError {
    pub fn from_status(status: u16, message: String) -> Self {
        match status {
            404 => ApiError::BundleNotFound(message),
            _ => ApiError::InvalidResponse(message),
        }
    }
}
"""


def _defining(text: str, head: str) -> Chunk:
    chunks = chunk_file(SourceFile("src/api/error.rs", "rust", text, len(text)))
    return next(chunk for chunk in chunks if head in chunk.text)


def test_a_rust_attribute_is_not_the_documentation_of_what_it_decorates():
    chunk = _defining(ERRORS, "pub enum ApiError")
    assert "#[derive(Debug, Error)]" in chunk.text  # the chunk holds the attribute line, above the head
    assert summary(chunk) == ""


def test_a_doc_comment_above_an_attribute_still_documents_the_definition():
    text = ERRORS.replace("#[derive(Debug, Error)]", "/// Errors the bundle API returns.\n#[derive(Debug, Error)]")
    assert summary(_defining(text, "pub enum ApiError")) == "Errors the bundle API returns."


def test_a_php_attribute_is_not_documentation_either():
    text = """<?php

namespace App\\Http\\Controllers;

class HealthController
{
    #[Route('/health', methods: ['GET'])]
    public function show(): array
    {
        return ['status' => 'ok', 'time' => time()];
    }
}
"""
    chunks = chunk_file(SourceFile("app/Http/Controllers/HealthController.php", "php", text, len(text)))
    shown = next(chunk for chunk in chunks if "function show" in chunk.text)
    assert "Route(" not in summary(shown)


def test_a_rust_enum_or_struct_is_no_class():
    enum = _defining(ERRORS, "pub enum ApiError")
    assert str(enum.kind) == "class"  # the chunker's kind for any type definition
    assert role_phrase(enum, {}, "") == "defines an enum"
    text = "pub(crate) struct ApiClient {\n    base_url: Url,\n    client: reqwest::Client,\n}\n"
    assert role_phrase(_defining(text, "struct ApiClient"), {}, "") == "defines a struct"
