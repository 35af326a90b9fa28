"""A line is said to be in the definition that holds it (issue #35, failure class "calls linked by bare name"): a
local function inside a method is not a method of the class, so a line of it is named by the local function's own
name — never a made-up ``Groups.addMembers`` — and a method indented under Ruby's ``private`` is not taken for a local
function of the method above it."""

from __future__ import annotations

from codeqa.answer.explanation.code.linenames import name_at
from codeqa.records import Chunk

GROUPS = """Groups.getOwnersAndMembers = async function (groupName, uid, start, stop) {
\tconst ownerUids = await db.getSetMembers(`group:${groupName}:owners`);
\tlet done = false;
\tasync function addMembers(start, stop) {
\t\tlet batch = await user.getUsersFromSet(`group:${groupName}:members`, uid, start, stop);
\t\treturn batch;
\t}
\treturn await addMembers(0, -1);
};"""

PYTHON = """class Exporter:
    def export(self, rows):
        def clean(row):
            return row.strip()

        return [clean(row) for row in rows]

    def flush(self):
        return None"""


def test_a_line_of_a_local_function_is_named_after_the_definition_holding_it() -> None:
    chunk = Chunk("src/groups/index.js", "javascript", 192, 200, GROUPS, "Groups.getOwnersAndMembers", "method", "core")
    assert name_at(chunk, 196) == "addMembers"  # `let batch = …` is in the local `addMembers`, no method of Groups
    assert name_at(chunk, 193) == "Groups.getOwnersAndMembers"
    unnamed = Chunk("src/groups/index.js", "javascript", 192, 200, GROUPS, "", "module", "core")
    assert name_at(unnamed, 196) == "addMembers"
    python = Chunk("app/export.py", "python", 1, 9, PYTHON, "Exporter, Exporter.export, Exporter.flush", "class",
                   "core")  # fmt: skip
    assert name_at(python, 4) == "clean"  # `return row.strip()` of the local `clean`, no method of Exporter
    assert name_at(python, 6) == "Exporter.export"
    assert name_at(python, 9) == "Exporter.flush"


RUBY = """  def confirm!
    update!(status: "confirmed")
  end

  private
    def transfer_has_same_family
      return unless inflow_transaction&.entry
      errors.add(:base, "Must be from same family") unless to_account&.family == from_account&.family
    end"""


def test_a_private_method_indented_under_private_is_not_taken_for_a_local_of_the_method_above() -> None:
    chunk = Chunk("app/models/transfer.rb", "ruby", 43, 51, RUBY, "Transfer.confirm!", "method", "model")
    assert name_at(chunk, 50) == "Transfer.transfer_has_same_family"  # `def confirm! … end` ended above it


def test_a_function_exported_from_a_file_of_several_is_named_without_the_file() -> None:
    text = "exports.getLogin = (req, res) => {\n  if (req.user) {\n    return res.redirect('/');\n  }\n};\n\n" \
           "exports.getReset = (req, res) => {\n  res.render('account/reset');\n};"  # fmt: skip
    chunk = Chunk("controllers/user.js", "javascript", 10, 18, text, "", "module", "api")
    assert name_at(chunk, 12) == "getLogin"  # not `user.getLogin`: `user.js` is a file, not an object
    assert name_at(chunk, 17) == "getReset"


def test_the_pieces_of_one_split_definition_count_as_one_definition_two_overloads_as_two() -> None:
    from codeqa.answer.context import AnswerContext
    from codeqa.records import Hit

    head = Chunk("src/auth.js", "javascript", 266, 295, "function continueLogin(strategy, req, res, next) {\n" * 30,
                 "continueLogin", "function", "api")  # fmt: skip
    rest = Chunk("src/auth.js", "javascript", 297, 319, "\t\tawait doLogin(req);\n" * 23, "continueLogin", "function",
                 "api")  # fmt: skip
    first = Chunk("src/Tables.java", "java", 10, 14, "public List getTables() {\n" * 5, "Tables.getTables", "method",
                  "core")  # fmt: skip
    between = Chunk("src/Tables.java", "java", 16, 18, "public void clear() {\n" * 3, "Tables.clear", "method", "core")
    second = Chunk("src/Tables.java", "java", 20, 24, "public List getTables(String s) {\n" * 5, "Tables.getTables",
                   "method", "core")  # fmt: skip
    chunks = [head, rest, first, between, second]
    context = AnswerContext.from_chunks(chunks, [Hit(chunk, 1.0, chunk.id) for chunk in chunks])
    assert len(context.definers["continuelogin"]) == 2  # two rows ...
    assert context.definitions_of("continueLogin") == 1  # ... of one definition
    assert context.definitions_of("getTables") == 2  # overloads apart are two

    one = Chunk("src/Rows.java", "java", 10, 14, "public List getRows() {\n" * 5, "Rows.getRows", "method", "core")
    other = Chunk("src/Rows.java", "java", 15, 19, "public List getRows(String s) {\n" * 5, "Rows.getRows", "method",
                  "core")  # fmt: skip
    adjacent = AnswerContext.from_chunks([one, other], [Hit(one, 1.0, one.id), Hit(other, 0.9, other.id)])
    assert adjacent.definitions_of("getRows") == 2  # an overload right below the other opens on its signature
