"""NodeBB, asked "When someone replies in a discussion, what is checked before the reply is saved, and who is told
about it?", retrieved six browser scripts first (the reply button, its counter, the quick-reply box, the new post's
animation) and `src/topics/create.js` seventh. An answer looks at its six best files, so `Topics.reply`, which checks
`canReply`, saves the post and notifies the topic's followers, was never shown. A question that names the server's
side (saved, checked, allowed) and nothing of the browser looks at the server's files first.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.clientside import server_files_first
from codeqa.answer.explanation.explain import explain
from codeqa.chunk import chunk_file
from codeqa.records import Hit, SourceFile

# public/src/client/topic/*.js (NodeBB's browser code, shortened): each names replies
CLIENT = {
    f"public/src/client/topic/{name}.js": f"""'use strict';

define('forum/topic/{name}', ['api', 'hooks'], function (api, hooks) {{
    const {name} = {{}};

    {name}.onReply = function (data) {{
        const replies = $('[component="post/replies"]').first();
        replies.find('[component="post/reply-count"]').attr('data-replies', data.count);
        hooks.fire('action:posts.replies.{name}', {{ replies: replies }});
    }};

    return {name};
}});
"""
    for name in ("replies", "posts", "quickreply", "events", "threadTools", "postTools", "images", "diffs", "votes")
}
# src/topics/create.js (NodeBB's server, shortened)
SERVER = """'use strict';

module.exports = function (Topics) {
    Topics.reply = async function (data) {
        data = await plugins.hooks.fire('filter:topic.reply', data);
        const { tid, uid } = data;
        const topicData = await Topics.getTopicData(tid);
        await canReply(data, topicData);
        let postData = await posts.create(data);
        await Topics.notifyFollowers(postData, uid, { type: 'new-reply' });
        return postData;
    };

    async function canReply(data, topicData) {
        const canReply = await privileges.topics.can('topics:reply', data.tid, data.uid);
        if (!canReply) {
            throw new Error('[[error:no-privileges]]');
        }
    }
};
"""
SAVED = "When someone replies in a discussion, what is checked before the reply is saved, and who is told about it?"
IN_THE_BROWSER = "In the browser app, how does each reply that is saved show its reply count?"


def _context() -> AnswerContext:
    files = [*CLIENT.items(), ("src/topics/create.js", SERVER)]
    chunks = [c for path, text in files for c in chunk_file(SourceFile(path, "javascript", text, len(text)))]
    order = {path: n for n, (path, _) in enumerate(files)}
    hits = [Hit(c, 1.0 - order[c.path] / 10, c.id) for c in chunks]  # the browser's files are retrieved first
    return AnswerContext.from_chunks(chunks, hits)


def test_the_server_code_is_shown_when_the_question_names_what_is_saved() -> None:
    shown = [step.chunk.path for step in explain(SAVED, _context()).best_first]
    assert "src/topics/create.js" in shown


def test_the_servers_files_come_first_only_for_a_question_about_the_server() -> None:
    context = _context()
    pooled = {hit.chunk.path: hit.chunk for hit in context.pool}
    paths = list(pooled)
    assert server_files_first(paths, pooled, SAVED)[0] == "src/topics/create.js"
    assert server_files_first(paths, pooled, IN_THE_BROWSER) == paths  # the browser named: retrieval's order
    assert server_files_first(paths, pooled, "How are replies numbered?") == paths  # no side named
