"""False sentences read in 30 more answers (#35, round 3: 26 real-size, 4 dev 183), each on the few lines that made it.

- "runs the command" said of any chunk in a command folder or a file that imports a command library: a rake
  file's ``format_table_row``, click's own ``Parameter.type_cast_value``;
- a docblock's tags (``@inheritdoc */``, ``@extends …``, ``@author …``), a licence notice, or a comment over one
  line of a file's top-level code (``# Translators: …`` over ``_("1")``) quoted as the code's documentation;
- "Then ``get_room_calendar`` stores ``rooms.update(…)``" for a set changed in memory; "Then ``queryUser`` answers
  with ``…PageUtil.noData()…``" for the last-resort ``return`` after the ones that answer;
- "It reads ``ERROR_… = …``" after a sentence about another source (the handler does not read it); "It reads" a
  local of a function split over two chunks, or a value the reader sets itself (``maxDuration.value = …``).
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.code.values import values_read
from codeqa.answer.explanation.said.extractive import VERBS, extractive_answer
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.chunk.layers import layer_for
from codeqa.records import Chunk, Hit

BENCHMARKING = """namespace :benchmark do
  desc "Run cold & warm performance benchmarks and append to history"
  task ips: :environment do
    cold_row = format_table_row("COLD", cold_result)
  end

  private
    def format_table_row(type, data)
      # Wider deviation column accommodates strings like "± 0.12%"
      "| %-4s | %-5s |\\n" % [
        type,
        data[:ips]
      ]
    end
end
"""
TYPE_CAST = '''    def type_cast_value(self, ctx: Context, value: t.Any) -> t.Any:
        """Convert and validate a value against the parameter's :attr:`type`."""
        if value is None:
            return () if self.multiple or self.nargs == -1 else None
        return self.type(value, param=self, ctx=ctx)'''
QUERY_USER = """    @GetMapping
    @PreAuthorize("@el.check('user:list')")
    public ResponseEntity<PageResult<UserDto>> queryUser(UserQueryCriteria criteria, Pageable pageable){
        List<Long> dataScopes = dataService.getDeptIds(userService.findByName(SecurityUtils.getCurrentUsername()));
        if (!CollectionUtils.isEmpty(criteria.getDeptIds()) && !CollectionUtils.isEmpty(dataScopes)){
            criteria.getDeptIds().retainAll(dataScopes);
            if(!CollectionUtil.isEmpty(criteria.getDeptIds())){
                return new ResponseEntity<>(userService.queryAll(criteria,pageable),HttpStatus.OK);
            }
        } else {
            criteria.getDeptIds().addAll(dataScopes);
            return new ResponseEntity<>(userService.queryAll(criteria,pageable),HttpStatus.OK);
        }
        return new ResponseEntity<>(PageUtil.noData(),HttpStatus.OK);
    }"""
ROOM_CALENDAR = """def get_room_calendar(start_date, end_date, room_ids):
    bookings = _bookings_query(start_date, end_date, room_ids).all()
    rooms = set()
    rooms.update(b.reservation.room for b in bookings)
    return sorted(rooms, key=lambda r: r.full_name)"""
OAUTH = """def setup_oauth_provider(app):
    app.config.update({
        'OAUTH2_TOKEN_EXPIRES_IN': {'authorization_code': 0},
    })
    auth_server.init_app(app)"""


def _chunk(path: str, language: str, symbol: str, text: str, layer: str = "service", kind: str = "function",
           start: int = 1) -> Chunk:  # fmt: skip
    return Chunk(path, language, start, start + text.count("\n"), text, symbol, kind, layer)


def _opening(question: str, *chunks: Chunk) -> str:
    hits = [Hit(chunk, 1.0 - n / 10, chunk.id) for n, chunk in enumerate(chunks)]
    return extractive_answer(question, hits, context=AnswerContext.from_chunks(list(chunks), hits)).split("\n")[0]


def test_runs_the_command_needs_a_command_defined_in_the_chunk() -> None:
    helper_text = BENCHMARKING.split("  private\n")[1].rsplit("\nend", 1)[0]
    helper = _chunk("lib/tasks/benchmarking.rake", "ruby", "format_table_row", helper_text,
                    str(layer_for("lib/tasks/benchmarking.rake", BENCHMARKING)))  # fmt: skip
    assert str(helper.layer) == "cli", helper
    assert role_phrase(helper, VERBS, "is here") == "is a function", helper.text
    task = _chunk("lib/tasks/benchmarking.rake", "ruby", "", BENCHMARKING.split("\n  private")[0], "cli", "module")
    assert role_phrase(task, VERBS, "is here") == "runs the command"  # a rake task does
    click = _chunk("src/click/core.py", "python", "Parameter.type_cast_value", TYPE_CAST, "cli", "method")
    assert role_phrase(click, VERBS, "is here") == "is a method"
    handle = _chunk("app/Console/Commands/SetupDummyAccount.php", "php", "SetupDummyAccount.handle",
                    "    public function handle(): void\n    {\n        $this->start();\n    }",
                    "cli", "method")  # fmt: skip
    assert role_phrase(handle, VERBS, "is here") == "runs the command"  # a console command's entry does


def test_docblock_tags_a_licence_and_a_note_on_one_line_are_not_documentation() -> None:
    inherit = _chunk("app/Values/SmartPlaylistQueryModifier.php", "php",
                     "SmartPlaylistQueryModifier.generateRawParameters",
                     "    /** @inheritdoc */\n    public static function generateRawParameters(string $column): array\n"
                     "    {\n        return [];\n    }", kind="method")  # fmt: skip
    assert summary(inherit) == ""
    extends = _chunk("app/Repositories/PodcastRepository.php", "php", "PodcastRepository",
                     "/**\n * @extends Repository<Podcast>\n * @implements ScoutableRepository<Podcast>\n */\n"
                     "class PodcastRepository extends Repository implements ScoutableRepository\n{\n}",
                     kind="class")  # fmt: skip
    assert summary(extends) == ""
    author = _chunk("src/JwtAccessDeniedHandler.java", "java", "JwtAccessDeniedHandler",
                    "/**\n * @author Zheng Jie\n */\n@Component\npublic class JwtAccessDeniedHandler {\n}",
                    kind="class")  # fmt: skip
    assert summary(author) == ""
    licence = _chunk("src/SpringSecurityConfig.java", "java", "",
                     "/*\n *  Copyright 2019-2025 Zheng Jie\n *\n"
                     " *  Licensed under the Apache License, Version 2.0\n */\n"
                     "package me.zhengjie.modules.security.config;\n\nimport lombok.RequiredArgsConstructor;",
                     "config", "module")  # fmt: skip
    assert summary(licence) == ""
    translations = _chunk("taiga/projects/translations.py", "python", "",
                          '# Translators: User story point value (value = 1)\n_("1")\n'
                          '# Translators: User story point value (value = 2)\n_("2")',
                          "config", "module", start=39)  # fmt: skip
    assert summary(translations) == ""
    statement = _chunk("src/app.module.ts", "typescript", "", "// the database the config chooses\n"
                       "const databaseModule = (databaseConfig() as DatabaseConfig)\n  .isDocumentDatabase\n"
                       "  ? MongooseModule.forRootAsync({})\n  : TypeOrmModule.forRootAsync({});\n"
                       "@Module({ imports: [databaseModule] })", "config", "module", start=31)  # fmt: skip
    assert summary(statement) == "the database the config chooses"  # a statement over several lines is its own
    documented = _chunk("app/Models/Song.php", "php", "Song.isFileModified",
                        "    /**\n     * Determine if the song's file has been modified since the last scan.\n"
                        "     * @param int $lastModified\n     */\n"
                        "    public function isFileModified(int $lastModified): bool\n    {\n    }",
                        kind="method")  # fmt: skip
    assert summary(documented) == "Determine if the song's file has been modified since the last scan."
    inline = _chunk("src/main/java/web/rest/UserResource.java", "java", "UserResource.createUser",
                    "    /**\n     * {@code POST  /admin/users}  : Creates a new user.\n"
                    "     * @param userDTO the user to create.\n     */\n    @PostMapping(\"/users\")\n"
                    "    public ResponseEntity<User> createUser(@Valid @RequestBody AdminUserDTO userDTO) {\n    }",
                    kind="method")  # fmt: skip
    assert summary(inline) == "{@code POST /admin/users} : Creates a new user."  # an inline tag is prose


def test_a_set_or_a_config_changed_in_memory_is_not_stored() -> None:
    question = "What happens to the dates of a repeating booking of a room that clash with other bookings?"
    calendar = _chunk("indico/modules/rb/operations/bookings.py", "python", "get_room_calendar", ROOM_CALENDAR)
    assert "stores" not in _opening(question, calendar)
    oauth = _chunk("indico/core/oauth/oauth2.py", "python", "setup_oauth_provider", OAUTH)
    assert "stores" not in _opening("How is the OAuth token for the booking client configured?", oauth)
    flips = _chunk("hc/api/management/commands/sendalerts.py", "python", "Command.process_one_flip",
                   "    def process_one_flip(self) -> bool:\n"
                   "        q = Flip.objects.filter(id=flip.id, processed=None)\n"
                   "        num_updated = q.update(processed=now())\n        return True", kind="method")  # fmt: skip
    opening = _opening("When a check flips, how is the flip marked as processed?", flips)
    assert "stores `num_updated = q.update(processed=now())`" in opening, opening  # a query's update still stores


def test_the_last_resort_return_is_not_the_answer() -> None:
    controller = _chunk("eladmin-system/src/main/java/me/zhengjie/modules/system/rest/UserController.java", "java",
                        "UserController.queryUser", QUERY_USER, "api", "method")  # fmt: skip
    opening = _opening("Where is it checked on the server that someone may look at the user list?", controller)
    assert "noData" not in opening, opening


def test_the_value_read_is_said_of_its_reader() -> None:
    handler = _chunk("taiga/base/exceptions.py", "python", "exception_handler",
                     "def exception_handler(exc):\n    if isinstance(exc, APIException):\n"
                     "        return response.Response(format_exception(exc), status=exc.status_code)\n"
                     "    return None")  # fmt: skip
    check = _chunk("taiga/projects/services/projects.py", "python", "check_if_project_can_be_created_or_updated",
                   "def check_if_project_can_be_created_or_updated(project):\n    if project.owner is None:\n"
                   "        return (False, ERROR_PROJECT_WITHOUT_OWNER, 0)\n    return (True, None, 0)",
                   start=78)  # fmt: skip
    errors = _chunk("taiga/projects/services/projects.py", "python", "",
                    "ERROR_MAX_PUBLIC_PROJECTS = 'max_public_projects'\n"
                    "ERROR_PROJECT_WITHOUT_OWNER = 'project_without_owner'", "service", "module", start=23)  # fmt: skip
    opening = _opening("Why is a project refused when the project owner is missing, and what error code is sent?",
                       handler, check, errors)  # fmt: skip
    assert "ERROR_PROJECT_WITHOUT_OWNER = " in opening, opening  # the value is still said ...
    assert "It reads" not in opening and "`check_if_project_can_be_created_or_updated` reads" in opening, opening


def test_a_local_of_a_split_function_and_a_value_the_reader_sets_are_not_read() -> None:
    head = _chunk("src/api/posts.js", "javascript", "", "postsAPI.edit = async function (caller, data) {\n"
                  "\tconst editResult = await posts.edit(data);\n"
                  "\tconst selfPost = parseInt(caller.uid, 10) === parseInt(editResult.post.uid, 10);",
                  "api", "module", start=87)  # fmt: skip
    tail = _chunk("src/api/posts.js", "javascript", "", "\tif (!selfPost && editResult.post.changed) {\n"
                  "\t\tawait events.log({ type: `post-edit`, uid: caller.uid });\n\t}\n};",
                  "api", "module", start=124)  # fmt: skip
    assert values_read([KeyLine(124, tail.text.split("\n")[0])], tail, [head]) == []
    state = _chunk("src/EmbedAudioPlayer.vue", "vue", "", "const maxDuration = ref(0)", "view", "module", start=34)
    player = _chunk("src/EmbedAudioPlayer.vue", "vue", "", "audio.addEventListener('loadedmetadata', () => {\n"
                    "  maxDuration.value = audio.duration\n})\n"
                    "const remaining = () => secondsToHis(maxDuration.value - audio.currentTime)",
                    "view", "module", start=110)  # fmt: skip
    assert values_read([KeyLine(113, player.text.split("\n")[3])], player, [state]) == []
    reader = _chunk("src/Seek.vue", "vue", "", "const seek = (p) => p * maxDuration.value", "view", "module")
    read = values_read([KeyLine(1, reader.text)], reader, [state])
    assert [value.name for value in read] == ["maxDuration"]  # a reader that only reads it still does
