"""False sentences on two apps in no data set (probe34: kutt, an Express URL shortener, and halo, a Spring WebFlux
blog), each a call claim made by name:

- "`authenticate` … uses `admin` (`auth.handler.js:84-95`)" for ``req.user = { ...user, admin: utils.isAdmin(user) }``:
  an object's key names a property, not the file's ``function admin`` (``flow._key``);
- "`add` … calls `update` (`user.queries.js:67-96`)" for knex's ``knex("users")`` … ``.update({…})``, and
  "`AttachmentEndpoint.endpoint` … calls `build` (`ListOptions.java:132-143`) and `build`
  (`ControllerBuilder.java:100-124`)" for springdoc builders' ``.build()``: a member call whose receiver is on a line
  above, of a type nobody declares, is the method of whatever the chain holds; its name points at one definition only
  when the index has one (``chained``).

Asked who calls ``generateId``: "`getCustomCSSFileNames` (`utils.js:387-436`) — line 414 uses `generateId`" for the
file's ``module.exports = {`` list below that function: CommonJS's ``module.exports`` opens no Ruby ``module``, so
the list is the file's top level, no line of the function (``claims._TOP_DEFINITION``).

Asked how the admin lists and deletes users: "`confirmUserDelete` … is used by `renders.handler.js`
(`renders.handler.js:307-337`)", the file's ``module.exports = {`` list: a name a file exports is no use of it
(``flow.EXPORTED_ENTRY``).

Asked how templates get their helpers: "`getCustomCSSFileNames` (`utils.js:387-436`) is the closest match found:
`registerHandlebarsHelpers` (`utils.js:427`)", a line of the export list below that function: the file's line
(``quoted_line.quoted_holder``).

And "`Theme.CustomTemplates` … handles the request" for a ``@Data`` class under halo's ``api/`` module, whose only
sign of a request was its comment's "the content type they render.": a comment shows no role (``roles_said._code``).
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.claims import ClaimChecker, _module_level
from codeqa.answer.explanation.calls.flow import Use, find_uses
from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.said.extractive import VERBS
from codeqa.answer.explanation.said.quoted_line import quoted_holder
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.records import Chunk, Hit
from tests.helpers import FileTexts

# server/handlers/auth.handler.js:16-95 (the middle cut)
AUTH_HANDLER = """function authenticate(type, error, isStrict, redirect) {
  return function auth(req, res, next) {
    if (req.user) return next();

    passport.authenticate(type, (err, user, info) => {
      if (user) {
        res.locals.isAdmin = utils.isAdmin(user);
        req.user = {
          ...user,
          admin: utils.isAdmin(user)
        };
      }
      return next();
    })(req, res, next);
  }
}"""
ADMIN = """function admin(req, res, next) {
  if (req.user.admin) return next();
  throw new CustomError("Unauthorized", 401);
}"""


def test_an_objects_key_is_no_use_of_the_function_so_named() -> None:
    path = "server/handlers/auth.handler.js"
    user = Chunk(path, "javascript", 16, 16 + AUTH_HANDLER.count("\n"), AUTH_HANDLER, "authenticate", "function", "api")
    used = Chunk(path, "javascript", 92, 95, ADMIN, "admin", "function", "api")
    assert find_uses(user, used) == []
    for line, used_here in (
        ("const role = isStrict ? admin : guest;", True),  # a ternary's branch
        ("router.use({ admin });", True),  # a shorthand property: the variable's value
        ("  admin: admin,", True),  # the key is none, the value is one
        ("case admin:", True),
        ("const flags = { verified: true, admin: false };", False),
        ("  admin : false,", False),
        ("const { admin: isAdmin } = req.user;", False),  # a destructured property renamed
    ):
        chunk = Chunk("server/x.js", "javascript", 1, 1, line, "x", "function", "api")
        assert bool(find_uses(chunk, used)) is used_here, line


def test_a_ruby_hash_key_is_no_use_but_a_call_with_a_symbol_is() -> None:
    used = Chunk("app/models/user.rb", "ruby", 10, 12, "  def admin\n    role == 'admin'\n  end", "User.admin",
                 "method", "model")  # fmt: skip
    for line, used_here in (("  link_to 'x', path, data: { admin: true }", False), ("  admin :users", True),
                            ("  render json: { admin: admin }", True), ("  x = admin ? 1 : 2", True)):  # fmt: skip
        chunk = Chunk("app/views/x.rb", "ruby", 1, 1, line, "x", "method", "view")
        assert bool(find_uses(chunk, used)) is used_here, line


# server/queries/user.queries.js: `add` updates through knex's query builder; `remove` calls the file's own `update`
USER_QUERIES = """const knex = require("../knex");

async function add(params, user) {
  const data = { email: params.email, password: params.password };

  if (user) {
    await knex("users")
      .where("id", user.id)
      .update({ ...data, updated_at: utils.dateToUTC(new Date()) });
  } else {
    await knex("users").insert(data);
  }
  return { ...user, ...data };
}

async function update(match, update, methods) {
  const user = await knex("users").where(match).first();
  return user;
}

async function ban(match) {
  return update(match, { banned: true });
}
"""
LINK_UPDATE = """async function update(match, update) {
  await knex("links")
    .where(match)
    .update({ ...update, updated_at: utils.dateToUTC(new Date()) });
}"""


def _piece(path: str, text: str, first: int, last: int, symbol: str) -> Chunk:
    lines = text.split("\n")[first - 1 : last]
    return Chunk(path, "javascript", first, last, "\n".join(lines), symbol, "function", "model")


def test_a_chained_member_call_is_no_call_of_one_of_the_files_namesakes() -> None:
    path = "server/queries/user.queries.js"
    add, update, ban = (_piece(path, USER_QUERIES, 3, 14, "add"), _piece(path, USER_QUERIES, 16, 19, "update"),
                        _piece(path, USER_QUERIES, 21, 23, "ban"))  # fmt: skip
    links = Chunk("server/queries/link.queries.js", "javascript", 264, 267, LINK_UPDATE, "update", "function", "model")
    chunks = [add, update, ban, links]
    context = AnswerContext.from_chunks(chunks, [Hit(add, 1.0, add.id)])
    assert context.definitions_of("update") == 2
    checker = ClaimChecker(context)
    imports = context.imports([c.path for c in chunks])
    assert checker.link(add, update, imports) is None  # knex's `.update({…})`, not the file's `update`
    called = checker.link(ban, update, imports)
    assert called is not None and called.verb == "calls" and called.line == 22  # a bare call is the file's own


def test_a_chained_call_holds_by_name_only_where_the_index_defines_the_name_once() -> None:
    path = "server/queries/user.queries.js"
    add, update = _piece(path, USER_QUERIES, 3, 14, "add"), _piece(path, USER_QUERIES, 16, 19, "update")
    use = Use("update", 9, "calls", ".update({ ...data, updated_at: utils.dateToUTC(new Date()) });")
    files = {path: USER_QUERIES}
    assert not holds_by_name(add, update, use, USER_QUERIES, FileTexts(files, {"update": 3}))
    assert holds_by_name(add, update, use, USER_QUERIES, FileTexts(files))  # one definition: the benefit of the doubt


# application/src/main/java/run/halo/app/core/attachment/endpoint/AttachmentEndpoint.java:45-76 (cut)
ENDPOINT = """    @Override
    public RouterFunction<ServerResponse> endpoint() {
        var tag = "AttachmentV1alpha1Console";
        return SpringdocRouteBuilder.route()
                .POST(
                        "/attachments/upload",
                        contentType(MediaType.MULTIPART_FORM_DATA),
                        request -> request.body(BodyExtractors.toMultipartData())
                                .flatMap(attachment -> ServerResponse.ok().bodyValue(attachment)),
                        builder -> builder.operationId("UploadAttachment")
                                .description("Upload an attachment from a multipart file with the specified storage "
                                        + "policy and optional group.")
                                .tag(tag)
                                .response(responseBuilder().implementation(Attachment.class))
                                .build())
                .build();
    }"""
LIST_OPTIONS_BUILD = """        public ListOptions build() {
            var listOptions = new ListOptions();
            listOptions.setLabelSelector(labelSelector);
            return listOptions;
        }"""


def test_a_java_builders_build_is_no_call_of_a_namesake_when_several_classes_define_it() -> None:
    path = "application/src/main/java/run/halo/app/core/attachment/endpoint/AttachmentEndpoint.java"
    user = Chunk(path, "java", 45, 45 + ENDPOINT.count("\n"), ENDPOINT, "AttachmentEndpoint.endpoint", "method", "api")
    used = Chunk("api/src/main/java/run/halo/app/extension/ListOptions.java", "java", 132, 136, LIST_OPTIONS_BUILD,
                 "ListOptions.Builder.build", "method", "core")  # fmt: skip
    whole = "\n" * 44 + ENDPOINT
    files = {path: whole}
    for line in (59, 60):
        use = Use("build", line, "calls", whole.split("\n")[line - 1].strip())
        assert not holds_by_name(user, used, use, whole, FileTexts(files, {"build": 2})), line


# app/Builders/SongBuilder.php:69-71, 126-136 (dev koel): a chain begun on `$this` alone calls the class's own method
ACCESSIBLE = """    public function accessible(): self
    {
        return $this->where('songs.is_public', true);"""
WITH_USER_CONTEXT = """    public function withUserContext(
        bool $includeFavoriteStatus = true,
        bool $favoritesOnly = false,
        bool $includePlayCount = true,
    ): self {
        return $this
            ->accessible()
            ->when($includeFavoriteStatus, static fn (self $query) => $query->withFavoriteStatus($favoritesOnly))
            ->withRatingSubquery();
    }"""
COUNT_ACCESSIBLE = """    public function countAccessibleByIds(array $ids, ?User $scopedUser = null): int
    {
        return Song::query(user: $scopedUser ?? $this->auth->user())
            ->accessible()
            ->whereIn('songs.id', $ids)
            ->count();
    }"""


def test_a_chains_first_call_on_this_alone_is_the_classs_own_method() -> None:
    path = "app/Builders/SongBuilder.php"
    used = Chunk(path, "php", 69, 71, ACCESSIBLE, "SongBuilder.accessible", "method", "model")
    user = Chunk(path, "php", 126, 135, WITH_USER_CONTEXT, "SongBuilder.withUserContext", "method", "model")
    whole = "\n" * 125 + WITH_USER_CONTEXT
    files, counts = {path: whole}, {"accessible": 4, "withRatingSubquery": 4}  # Album, Artist, Song, RadioStation
    assert holds_by_name(user, used, Use("accessible", 132, "calls", "->accessible()"), whole, FileTexts(files, counts))
    later = Chunk(path, "php", 140, 142, ACCESSIBLE.replace("accessible", "withRatingSubquery"),
                  "SongBuilder.withRatingSubquery", "method", "model")  # fmt: skip
    use = Use("withRatingSubquery", 134, "calls", "->withRatingSubquery();")  # on what `->when(…)` returns
    assert not holds_by_name(user, later, use, whole, FileTexts(files, counts))
    other = "app/Repositories/SongRepository.php"
    repository = Chunk(other, "php", 327, 333, COUNT_ACCESSIBLE, "SongRepository.countAccessibleByIds", "method",
                       "service")  # fmt: skip
    text = "\n" * 326 + COUNT_ACCESSIBLE
    use = Use("accessible", 330, "calls", "->accessible()")  # on what a static call returns: its declared type
    files = {other: text, path: whole}
    assert holds_by_name(repository, used, use, text, FileTexts(files, counts, {"Song.query": "SongBuilder"}))
    assert not holds_by_name(repository, used, use, text, FileTexts(files, counts, {"Song.query": "AlbumBuilder"}))
    assert not holds_by_name(repository, used, use, text, FileTexts(files, counts))  # no type known: the name guesses
    assert holds_by_name(repository, used, use, text, FileTexts(files))  # defined once: it holds


# app/Models/Song.php:126-128 (koel); a Java builder's static factory
SONG_QUERY = """    public static function query(?PlayableType $type = null, ?User $user = null): SongBuilder
    {
        return parent::query()"""
POST_BUILDER = """    public static Post.Builder builder() {
        return new Builder();
    }"""


def test_the_index_tells_the_type_a_static_method_is_declared_to_return() -> None:
    from codeqa.answer.explanation.calls.implements import Implementations

    song = Chunk("app/Models/Song.php", "php", 126, 128, SONG_QUERY, "Song.query", "method", "model")
    fluent = Chunk("app/Models/Album.php", "php", 40, 42, SONG_QUERY.replace(": SongBuilder", ": static"),
                   "Album.query", "method", "model")  # fmt: skip
    post = Chunk("src/main/java/app/Post.java", "java", 30, 32, POST_BUILDER, "Post.builder", "method", "model")
    context = AnswerContext.from_chunks([song, fluent, post], [Hit(song, 1.0, song.id)])
    index = Implementations(context, lambda path: "")
    assert index.returns("Song", "query") == "SongBuilder"
    assert index.returns("Album", "query") == "Album"  # `: static`: the class itself
    assert index.returns("Post", "builder") == "Builder"
    assert index.returns("Artist", "query") is None  # no such definition in the index


# api/src/main/java/run/halo/app/core/extension/Theme.java:178-189 (halo's `api/` module: the layer says "api")
CUSTOM_TEMPLATES = """    /** Custom template descriptors grouped by the content type they render. */
    @Data
    public static class CustomTemplates {
        /** Custom templates available for posts. */
        private List<TemplateDescriptor> post;

        /** Custom templates available for single pages. */
        private List<TemplateDescriptor> page;
    }"""


def test_a_comments_words_show_no_role() -> None:
    path = "api/src/main/java/run/halo/app/core/extension/Theme.java"
    chunk = Chunk(path, "java", 178, 186, CUSTOM_TEMPLATES, "Theme.CustomTemplates", "class", "api")
    assert role_phrase(chunk, VERBS, "is here") == "defines a class"
    code = CUSTOM_TEMPLATES.replace("    private List<TemplateDescriptor> page;", "    return render(page);")
    answers = Chunk(path, "java", 178, 186, code, "Theme.CustomTemplates", "class", "api")
    assert role_phrase(answers, VERBS, "is here") == "handles the request"  # the same words in code show it


# server/utils/utils.js:402-416 (kutt): the chunk is named after the function above the export list
EXPORTS = """function getCustomCSSFileNames() {
  return custom_css_file_names;
}

module.exports = {
  addProtocol,
  customAddressRegex,
  generateId,
  getCustomCSSFileNames,
  ...knexUtils,
}"""
GENERATE_ID = """async function generateId(query, domain_id) {
  const address = nanoid();
  const link = await query.link.find({ address, domain_id });
  return address;
}"""


def test_a_commonjs_export_list_is_no_line_of_the_function_above_it() -> None:
    path = "server/utils/utils.js"
    user = Chunk(path, "javascript", 402, 412, EXPORTS, "getCustomCSSFileNames", "function", "util")
    assert _module_level(user, 409)  # `  generateId,` under `module.exports = {`
    assert not _module_level(user, 403)  # `  return custom_css_file_names;` in the function
    used = Chunk(path, "javascript", 68, 72, GENERATE_ID, "generateId", "function", "util")
    context = AnswerContext.from_chunks([user, used], [Hit(used, 1.0, used.id)])
    assert ClaimChecker(context).link(user, used, context.imports([path])) is None
    ruby = Chunk("app/helpers/jobs_helper.rb", "ruby", 1, 4, "module JobsHelper\n  def label\n    generate_id\n  end",
                 "JobsHelper", "class", "view")  # fmt: skip
    assert not _module_level(ruby, 3)  # a Ruby module's body is inside a definition


# server/handlers/renders.handler.js:176-189 and 307-337 (kutt)
CONFIRM_USER_DELETE = """async function confirmUserDelete(req, res) {
  const user = await query.user.find({ id: req.query.id });
  res.render("partials/admin/dialog/delete_user", { id: user.id });
}"""
RENDERS_EXPORTS = """module.exports = {
  addDomainAdmin,
  confirmUserBan,
  confirmUserDelete,
  deleteUser: confirmUserDelete,
  ...knexUtils,
}"""


def test_a_name_in_an_export_list_is_exported_not_used() -> None:
    path = "server/handlers/renders.handler.js"
    used = Chunk(path, "javascript", 176, 179, CONFIRM_USER_DELETE, "confirmUserDelete", "function", "api")
    exports = Chunk(path, "javascript", 307, 313, RENDERS_EXPORTS, "", "module", "api")
    assert find_uses(exports, used) == []
    for line, used_here in (
        ("module.exports = { confirmUserBan, confirmUserDelete };", False),
        ("exports.confirmUserDelete = confirmUserDelete;", False),
        ("export { confirmUserDelete };", False),
        ("export default confirmUserDelete;", False),
        ("router.get('/users/delete', asyncHandler(confirmUserDelete));", True),
        ("module.exports = {\n  run(req, res) {\n    return confirmUserDelete(req, res);\n  },\n};", True),
        ("module.exports = {\n  confirmUserBan,\n};\nrouter.get('/x', confirmUserDelete);", True),  # after its `}`
    ):
        chunk = Chunk(path, "javascript", 1, 1 + line.count("\n"), line, "", "module", "api")
        assert bool(find_uses(chunk, used)) is used_here, line


def test_a_quoted_line_of_an_export_list_is_the_files_not_the_functions_above() -> None:
    chunk = Chunk("server/utils/utils.js", "javascript", 402, 412, EXPORTS, "getCustomCSSFileNames", "function",
                  "util")  # fmt: skip
    assert quoted_holder(chunk, KeyLine(409, "  generateId,")) == "utils.js"
    assert quoted_holder(chunk, KeyLine(403, "  return custom_css_file_names;")) == "getCustomCSSFileNames"
