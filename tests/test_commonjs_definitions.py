"""CommonJS apps define their functions by assignment (NodeBB's ``Topics.reply = async function (data)`` inside
``module.exports = function (Topics)``, hackathon-starter's ``exports.postLogin = async (req, res, next) =>``). The
chunker names those chunks after them, so retrieval and answers see ``Topics.reply`` where they saw "the file's
top-level code". Named, they are also linked by name, where an array's ``join`` must not pass for ``Groups.join``."""

from __future__ import annotations

from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.flow import Use
from codeqa.chunk import chunk_file
from codeqa.records import Chunk, SourceFile

# the shape of NodeBB's src/notifications.js and src/groups/join.js
PUSH = """async function pushToUids(uids, notification) {
	const data = await plugins.hooks.fire('filter:notification.push', { notification, uids });
	if (payload.notification.bodyLong) {
		bodyLong = [payload.notification.bodyLong, bodyLong].join('\\n');
	}
	const cacheKey = `${notification.mergeId}|${results.uidsToEmail.join(',')}`;
}"""
JOIN = """module.exports = function (Groups) {
	Groups.join = async function (groupNames, uid) {
		if (!groupNames) {
			throw new Error('[[error:invalid-data]]');
		}
		await db.sortedSetsAdd(groupNames.map(groupName => `group:${groupName}:members`), Date.now(), uid);
	};
};"""


def test_a_function_assigned_to_a_member_is_a_named_chunk():
    chunks = chunk_file(SourceFile("src/groups/join.js", "javascript", JOIN, len(JOIN)))
    assert [c.symbol for c in chunks] == ["Groups.join"] and chunks[0].kind == "method"


def test_a_method_of_a_value_built_on_the_line_is_no_call_to_a_namesake():
    user = Chunk("src/notifications.js", "javascript", 280, 286, PUSH, "pushToUids", "function", "core")
    used = Chunk("src/groups/join.js", "javascript", 2, 7, "\n".join(JOIN.split("\n")[1:7]), "Groups.join", "method",
                 "core")  # fmt: skip
    array = Use("join", 283, "calls", "bodyLong = [payload.notification.bodyLong, bodyLong].join('\\n');")
    assert not holds_by_name(user, used, array, PUSH)
    named = Use("join", 285, "calls", "const cacheKey = `${notification.mergeId}|${results.uidsToEmail.join(',')}`;")
    assert not holds_by_name(user, used, named, PUSH)  # a receiver named after no owner of `Groups.join`
    caller = "const groups = require('../groups');\nasync function add(uid) {\n\tawait groups.join(['admins'], uid);\n}"
    through_module = Chunk("src/user/admin.js", "javascript", 2, 4, "\n".join(caller.split("\n")[1:]), "add",
                           "function", "core")  # fmt: skip
    assert holds_by_name(through_module, used, Use("join", 3, "calls", "await groups.join(['admins'], uid);"), caller)


HANDLERS = """const User = require('../models/user');

module.exports = {
  async login(req, res) {
    const user = await User.findOne({ email: req.body.email });
    if (!user) return res.status(401).json({ error: 'bad' });
    res.json({ token: user.token() });
  },

  logout: async (req, res) => {
    req.session.destroy();
    res.json({ ok: true });
  },

  limits: { max: 5 },
};
"""


def test_a_function_kept_under_a_key_of_an_exported_object_is_named_by_the_key():
    from codeqa.config import Settings

    small = Settings(chunk_max_chars=200, chunk_min_chars=40)
    for path, language in (("controllers/auth.js", "javascript"), ("src/auth.ts", "typescript")):
        chunks = chunk_file(SourceFile(path, language, HANDLERS, len(HANDLERS)), small)
        assert [(c.start_line, c.symbol) for c in chunks] == [(1, ""), (4, "login"), (10, "logout"), (15, "")]
