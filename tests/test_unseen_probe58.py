"""Calls the lead checked in stop 58 (#35), each on the few lines that made it.

- Go: ntfy's packages sit at its repository's root (``heckel.io/ntfy/v2/user`` is ``user/``). The check that the
  import path's last two parts end the folder's path (``v2/user`` against ``/user``) dropped every true link from
  ``server/`` to ``user.NewManager``; an import path that ends with the whole folder names it. The standard library's
  ``net/http`` still names no local ``http/`` folder, and another module's ``…/lib/user`` no folder ``app/user``.
- Misago's avatar code ``image.save(buffer, "PNG")`` was said to "store": an image saved into a buffer in memory is
  no record written (probe26 left it as misleading).
- "hands sign-in to Passport (`passport.use`) and hands sign-in to Passport (`passport.authenticate`) when
  `strategy.url`" (NodeBB): one construct's two uses, one under a test, are said in one bracket, each test beside its
  own name.
"""

from __future__ import annotations

from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.calls.gopackages import go_imported, names_folder
from codeqa.answer.explanation.code.effects import STORES
from codeqa.records import Chunk

SERVER_GO = """package server

import (
	"net/http"

	"heckel.io/ntfy/v2/user"
)

func createUserManager(conf *Config) (*user.Manager, error) {
	return user.NewManager(conf.AuthFile, conf.AuthStartupQueries, conf.AuthDefault)
}
"""
MANAGER = "func NewManager(filename, startupQueries string, defaultAccess Permission) (*Manager, error) {"


def test_a_go_package_at_the_root_of_the_repository_is_named_by_the_end_of_its_import_path() -> None:
    caller = Chunk("server/server.go", "go", 9, 11, "\n".join(SERVER_GO.split("\n")[8:11]), "createUserManager",
                   "function", "core")  # fmt: skip
    line = "return user.NewManager(conf.AuthFile, conf.AuthStartupQueries, conf.AuthDefault)"
    use = Use("NewManager", 10, "calls", line)
    root = Chunk("user/manager.go", "go", 40, 40, MANAGER, "NewManager", "function", "model")
    assert go_imported("user", root, SERVER_GO) is True
    assert holds_by_name(caller, root, use, SERVER_GO)
    elsewhere = Chunk("tools/user/manager.go", "go", 40, 40, MANAGER, "NewManager", "function", "model")
    assert not holds_by_name(caller, elsewhere, use, SERVER_GO)  # another folder named user
    assert names_folder("heckel.io/ntfy/v2/user", "user")
    assert names_folder("miniflux.app/v2/internal/storage", "backend/internal/storage")  # a module in a subfolder
    assert not names_folder("net/http", "http")  # the standard library is no folder of the repository
    assert not names_folder("github.com/other/lib/user", "app/user")


def test_an_image_saved_into_a_buffer_in_memory_is_no_record_stored() -> None:
    for line in ('image.save(buffer, "PNG")', 'thumbnail.save(buf, format="JPEG")', "workbook.save(io.BytesIO())"):
        assert not STORES.search(line), line
    for line in ("avatar.save()", "user.save(update_fields=['avatars'])", "form.save(commit=False)"):
        assert STORES.search(line), line


def test_two_uses_of_one_construct_one_under_a_test_are_said_in_one_bracket() -> None:
    from codeqa.answer.explanation.said.phrasing import merged

    said = merged(["hands sign-in to Passport (`passport.use`)",
                   "hands sign-in to Passport (`passport.authenticate`) when `strategy.url`"])  # fmt: skip
    assert said == "hands sign-in to Passport (`passport.use`, and `passport.authenticate` when `strategy.url`)"
    assert said.count("hands sign-in") == 1  # NodeBB's lead said it twice, one after the other
    apart = merged(["stores `a` in the session when `x`", "stores `b` in the session"])
    assert apart == "stores `a` in the session when `x`, and stores `b` in the session"  # no bracket: as before
