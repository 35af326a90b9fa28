"""Misleading sentences read in the answers this session changed (#35, round 5), each on the few lines that made it.

- the opening's call chain between two later sources when a chain as long runs through better ones (the lead):
  asked how unchanged files are skipped, "`PlaylistFolderController` calls `updateFolder`" (a playlist folder)
  instead of "`SongService.createOrUpdateSongFromScan` calls `isFileModified`" (the lead);
- a Java method's own head taken as a call by name: `User (+4)` (`getId`, `setId`, …) "is called by `BankAccount`",
  whose `public Long getId() {` defines its own `getId`;
- a write each case of a dispatch repeats word for word, given as the step's end: "`_transform_action_data` stores
  with `UserStory.objects.filter(…).update(…)`" (only for `createCard` and two other action types), past the
  caller's own write;
- a Java annotation said as a call: "`DeployController.stopServer` … calls `Log`" for `@Log("停止服务")` over it.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.claims import ClaimChecker
from codeqa.answer.explanation.calls.flow import chains, find_uses
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.answer.explanation.story.endings import outcome_of
from codeqa.records import Chunk, Hit

SONG_HEAD = """<?php

namespace App\\Models;

use LogicException;

class Song extends Model
{"""
IS_FILE_MODIFIED = """    /**
     * Determine if the song's associated file has been modified since the last scan.
     */
    public function isFileModified(int $lastModified): bool
    {
        throw_if($this->isEpisode(), new LogicException('Podcast episodes do not have associated files.'));

        return $this->mtime !== $lastModified;
    }"""
FOLDER_CONTROLLER = """<?php

namespace App\\Http\\Controllers\\API;

use App\\Http\\Controllers\\Controller;
use App\\Http\\Resources\\PlaylistFolderResource;
use App\\Models\\PlaylistFolder;
use App\\Services\\Playlist\\PlaylistFolderService;

class PlaylistFolderController extends Controller
{
    public function __construct(
        private readonly PlaylistFolderService $service,
    ) {}

    public function update(PlaylistFolder $playlistFolder, PlaylistFolderUpdateRequest $request)
    {
        $this->authorize('own', $playlistFolder);

        return PlaylistFolderResource::make($this->service->updateFolder($playlistFolder, $request->validated()));
    }
}"""
SCAN_HEAD = """<?php

namespace App\\Services;

use App\\Models\\Song;

class SongService
{"""
FROM_SCAN = """    public function createOrUpdateSongFromScan(
        ScanInformation $info,
        ScanConfiguration $config,
        ?Song $song = null,
    ): Song {
        $song ??= $this->songRepository->findOneByPath($info->path);
        $isFileNew = !$song;
        $isFileModified = $song && $song->isFileModified($info->mTime);
        $isFileNewOrModified = $isFileNew || $isFileModified;

        if (!$isFileNewOrModified && !$config->force) {
            return $song;
        }
        return $song;
    }"""
FOLDER_HEAD = """<?php

namespace App\\Services\\Playlist;

use App\\Models\\PlaylistFolder;

class PlaylistFolderService
{"""
UPDATE_FOLDER = """    public function updateFolder(PlaylistFolder $folder, array $changes): PlaylistFolder
    {
        $folder->update($changes);

        return $folder;
    }"""


def _chunk(path: str, symbol: str, text: str, layer: str, kind: str = "method", start: int = 1) -> Chunk:
    return Chunk(path, "php", start, start + text.count("\n"), text, symbol, kind, layer)


def test_the_opening_chain_runs_through_the_lead_when_one_as_long_does() -> None:
    song, scan_file, folder_file = (
        "app/Models/Song.php",
        "app/Services/SongService.php",
        "app/Services/Playlist/PlaylistFolderService.php",
    )
    lead = _chunk(song, "Song.isFileModified", IS_FILE_MODIFIED, "model", start=9)
    controller = _chunk("app/Http/Controllers/API/PlaylistFolderController.php", "PlaylistFolderController",
                        FOLDER_CONTROLLER, "api", kind="class")  # fmt: skip
    scan = _chunk(scan_file, "SongService.createOrUpdateSongFromScan", FROM_SCAN, "service", start=9)
    folder = _chunk(folder_file, "PlaylistFolderService.updateFolder", UPDATE_FOLDER, "service", start=9)
    heads = [
        _chunk(song, "Song", SONG_HEAD, "model", kind="class"),
        _chunk(scan_file, "SongService", SCAN_HEAD, "service", kind="class"),
        _chunk(folder_file, "PlaylistFolderService", FOLDER_HEAD, "service", kind="class"),
    ]
    chunks = [lead, controller, scan, folder]
    hits = [Hit(chunk, 1.0 - n / 10, chunk.id) for n, chunk in enumerate(chunks)]
    question = "When the music folder is re-read, how are files that haven't changed since last time skipped?"
    context = AnswerContext.from_chunks([*chunks, *heads], hits)
    opening = extractive_answer(question, hits, context=context).split("\n")[0]
    assert "calls `updateFolder`" not in opening
    assert "`SongService.createOrUpdateSongFromScan` (`app/Services/SongService.php:9-23`) calls `isFileModified`" in (
        opening
    )


def test_of_chains_as_long_the_one_of_the_better_sources() -> None:
    # steps 1 → 3 and 2 → 0: the first found is of the later sources
    assert chains([0, 1, 2, 3], {(1, 3), (2, 0)}) == [[2, 0]]
    assert chains([0, 1, 2, 3, 4], {(1, 2), (4, 0)}) == [[1, 2]]  # the lead's, through a far source, is not
    assert chains([0, 1, 2, 3], {(1, 3), (3, 2), (2, 0)}) == [[1, 3, 2, 0]]  # a longer chain still wins


BANK_ACCOUNT = """package io.github.jhipster.sample.domain;

import jakarta.persistence.*;

@Entity
public class BankAccount implements Serializable {

    @Id
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY)
    private User user;

    public Long getId() {
        return this.id;
    }

    public BankAccount id(Long id) {
        this.setId(id);
        return this;
    }

    public void setId(Long id) {
        this.id = id;
    }
}"""
USER = """package io.github.jhipster.sample.domain;

public class User extends AbstractAuditingEntity<Long> implements Serializable {

    private Long id;

    private String login;

    public Long getId() {
        return id;
    }

    public void setId(Long id) {
        this.id = id;
    }

    public String getLogin() {
        return login;
    }
}"""


def test_a_java_method_head_is_no_call_to_another_class_by_name() -> None:
    folder = "src/main/java/io/github/jhipster/sample/domain"
    account = Chunk(f"{folder}/BankAccount.java", "java", 1, 1 + BANK_ACCOUNT.count("\n"), BANK_ACCOUNT,
                    "BankAccount, BankAccount.getId, BankAccount.id, BankAccount.setId", "class", "model")  # fmt: skip
    user = Chunk(f"{folder}/User.java", "java", 1, 1 + USER.count("\n"), USER,
                 "User, User.getId, User.setId, User.getLogin", "class", "model")  # fmt: skip
    hits = [Hit(user, 1.0, user.id), Hit(account, 0.9, account.id)]
    context = AnswerContext.from_chunks([user, account], hits)
    use = ClaimChecker(context).link(account, user, context.imports([account.path, user.path]))
    assert use is None or use.verb != "calls"  # its `getId`, `setId` are its own; it holds a `User` field


TRANSFORM = """    def _transform_action_data(self, us, action, statuses, options):
        users_bindings = options.get('users_bindings', {})
        result = {
            "change_old": {},
            "change_new": {},
            "hist_type": HistoryType.change,
            "comment": "",
        }

        if action['type'] == "commentCard":
            result['comment'] = str(action['data']['text'])
        elif action['type'] == "convertToCardFromCheckItem":
            UserStory.objects.filter(id=us.id, created_date__gt=action['date']).update(
                created_date=action['date'],
                owner=users_bindings.get(action["idMemberCreator"], self._user) or self._user
            )
            result['hist_type'] = HistoryType.create
        elif action['type'] == "createCard":
            UserStory.objects.filter(id=us.id, created_date__gt=action['date']).update(
                created_date=action['date'],
                owner=users_bindings.get(action["idMemberCreator"], self._user) or self._user
            )
            result['hist_type'] = HistoryType.create
        return result"""
IMPORT_ACTION = """    def _import_action(self, us, action, statuses, options):
        key = make_key_from_model_object(us)
        action_data = self._transform_action_data(us, action, statuses, options)
        if action_data is None:
            return

        entry = HistoryEntry.objects.create(
            user=action_data['user'],
            key=key,
        )
        HistoryEntry.objects.filter(id=entry.id).update(created_at=action['date'])
        return HistoryEntry.objects.get(id=entry.id)"""


def test_a_write_each_case_repeats_is_not_the_steps_end() -> None:
    path = "taiga/importers/trello/importer.py"
    transform = Chunk(path, "python", 429, 429 + TRANSFORM.count("\n"), TRANSFORM,
                      "TrelloImporter._transform_action_data", "method", "service")  # fmt: skip
    found = outcome_of(transform, "TrelloImporter._transform_action_data")
    assert found is not None and found.verb != "stores with"
    importing = Chunk(path, "python", 397, 397 + IMPORT_ACTION.count("\n"), IMPORT_ACTION,
                      "TrelloImporter._import_action", "method", "service")  # fmt: skip
    own = outcome_of(importing, "TrelloImporter._import_action")  # a write made once still ends the step
    assert own is not None and own.verb == "stores with" and own.line == 407


STOP_SERVER = """\t@Log("停止服务")
\t@ApiOperation(value = "停止服务")
\t@PostMapping(value = "/stopServer")
\t@PreAuthorize("@el.check('deploy:edit')")
\tpublic ResponseEntity<Object> stopServer(@Validated @RequestBody Deploy resources){
\t\tString result = deployService.stopServer(resources);
\t\treturn new ResponseEntity<>(result,HttpStatus.OK);
\t}"""
LOG = """@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface Log {
    String value() default "";
}"""


def test_a_java_annotation_is_no_call() -> None:
    controller = Chunk("eladmin-system/src/main/java/me/zhengjie/modules/maint/rest/DeployController.java", "java",
                       151, 158, STOP_SERVER, "DeployController.stopServer", "method", "api")  # fmt: skip
    log = Chunk("eladmin-logging/src/main/java/me/zhengjie/annotation/Log.java", "java", 27, 31, LOG, "Log",
                "class", "other")  # fmt: skip
    uses = find_uses(controller, log)
    assert uses and uses[0].line == 151 and uses[0].verb == "uses"
