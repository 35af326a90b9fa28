"""Probe 25 (#35) on navidrome (a Go + React music server) and freescout (a Laravel help desk), in no data set.

- "Where would I add logging …?" on navidrome said "`CurrentLevel (+4)` … calls `parseArgs` … from
  `CurrentLevel.log`": ``log`` is a package-level Go function in the same chunk as the exported ``CurrentLevel``, no
  method of a class ``CurrentLevel`` (a capital names an exported Go function, not a class).
"""

from __future__ import annotations

from codeqa.answer.explanation.linenames import holder_at, name_at
from codeqa.records import Chunk

# navidrome log/log.go:190-243, shortened: the chunker lists the first five names and drops the rest (``…``)
GO_LOG = """func CurrentLevel() Level {
	loggerMu.RLock()
	defer loggerMu.RUnlock()
	return currentLevel
}

func Fatal(args ...any) {
	log(LevelFatal, args...)
	os.Exit(1)
}

func log(level Level, args ...any) {
	if !shouldLog(level, 3) {
		return
	}

	logger, msg := parseArgs(args)
	logger.Log(logrus.Level(level), msg)
}"""


def test_a_go_function_left_out_of_a_chunk_of_functions_is_no_method_of_the_first() -> None:
    chunk = Chunk("log/log.go", "go", 190, 208, GO_LOG, "CurrentLevel, IsGreaterOrEqualTo, Fatal, Error, Warn, …",
                  "function", "core")  # fmt: skip
    assert name_at(chunk, 206) == "log"  # `logger, msg := parseArgs(args)`: in `log`, not a made-up `CurrentLevel.log`
    assert holder_at(chunk, 201) == "log"  # the head line `func log(…)` itself
    assert name_at(chunk, 197) == "Fatal"  # a listed name stays as listed


def test_a_method_chunk_still_names_its_class_as_the_owner() -> None:
    # a Go method chunk whose first method is exported: the class is what the name is qualified by, not the method
    text = "func (t *MpvTrack) Unpause() {\n\tt.resume()\n}\n\nfunc (t *MpvTrack) stopAll() {\n\tt.kill()\n}"
    chunk = Chunk("core/playback/mpv/track.go", "go", 93, 99, text, "MpvTrack.Unpause", "method", "core")
    assert name_at(chunk, 98) == "MpvTrack.stopAll"
