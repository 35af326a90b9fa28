"""Read on the dev apps with a server and a client: ten answers opened on client code while every key fact was on the
server. Koel (Laravel + Vue), asked "When a listener presses play, how does the server decide how to deliver the
audio …?", opened on `EmbedAudioPlayer.vue`; Indico (Flask + React), asked where uploaded files end up, on
`SingleFileManager.jsx`; Umami (Next.js), asked who may change a site's statistics and where that is checked, on
`UpdateNotice.tsx`; NodeBB, asked what is checked before a reply is saved, on `public/src/client/topic/posts.js`.
A question about what the user sees in the browser (the embedded script, a page) still opens on client code.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.clientside import asks_about_the_browser, runs_in_browser
from codeqa.answer.explanation.explain import explain
from codeqa.chunk import chunk_file
from codeqa.records import Hit, SourceFile

# resources/assets/js/components/…/AudioPlayer.vue and app/Services/Streamer/Streamer.php (Koel, shortened)
PLAYER = """<template>
  <button @click="play">Play</button>
</template>

<script setup lang="ts">
const play = async () => {
  // the server decides how to deliver the audio: the song's play URL streams or transcodes it
  audio.src = songStore.getSourceUrl(song)
  await audio.play()
}
</script>
"""
STREAMER = """<?php

namespace App\\Services\\Streamer;

class Streamer
{
    public function __construct(private Song $song, private ?RequestedStreamingConfig $config = null)
    {
        // decide how to deliver the audio: transcode on the fly or stream the file as it is
        if ($this->config?->transcode || self::shouldTranscode($this->song)) {
            $this->adapter = app(TranscodingStreamerAdapter::class);
        } else {
            $this->adapter = app(LocalStreamerAdapter::class);
        }
    }

    public function stream()
    {
        return $this->adapter->stream($this->song, $this->config);
    }
}
"""
SERVER = "When a listener presses play, how does the server decide how to deliver the audio?"
BROWSER = "When a listener clicks the play button on the page, what does the browser do?"


def _lead(question: str) -> str:
    files = [("resources/assets/js/components/AudioPlayer.vue", "vue", PLAYER),
             ("app/Services/Streamer/Streamer.php", "php", STREAMER)]  # fmt: skip
    chunks = [c for path, language, text in files for c in chunk_file(SourceFile(path, language, text, len(text)))]
    hits = [Hit(c, 1.0 if c.language == "vue" else 0.5, c.id) for c in chunks]  # the component is retrieved first
    explanation = explain(question, AnswerContext.from_chunks(chunks, hits))
    return explanation.best_first[0].chunk.path


def test_client_code_does_not_open_a_question_about_the_server() -> None:
    assert _lead(SERVER) == "app/Services/Streamer/Streamer.php"


def test_client_code_opens_a_question_about_the_browser() -> None:
    assert asks_about_the_browser(BROWSER) and not asks_about_the_browser(SERVER)
    assert _lead(BROWSER) == "resources/assets/js/components/AudioPlayer.vue"


def test_what_runs_in_the_browser() -> None:
    def chunk(path: str, language: str) -> object:
        text = "x = 1\n"
        return chunk_file(SourceFile(path, language, text, len(text)))[0]

    assert runs_in_browser(chunk("web/src/Upload.tsx", "tsx"))
    assert runs_in_browser(chunk("public/src/client/topic/posts.js", "javascript"))
    assert not runs_in_browser(chunk("public/index.php", "php"))  # Laravel's entry runs on the server
    assert not runs_in_browser(chunk("src/topics/create.js", "javascript"))
