"""Misleading on an unseen app (probe 17's read of TandoorRecipes, an app in no data set): "`executeSave`
(`vue3/src/composables/useModelEditorFunctions.ts:194-244`) is the closest match found" named the local function
holding the quoted line but cited its outer function's lines (``saveObject``'s). A local function named in a sentence
is cited by its own lines.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.linenames import held_lines, holder_at
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.lead import _named
from codeqa.records import Chunk, Hit

PATH = "vue3/src/composables/useModelEditorFunctions.ts"
SAVE = """    /**
     * saves the edited object in the database
     */
    function saveObject() {
        loading.value = true

        const executeSave = () => {
            if (isUpdate()) {
                return modelClass.value.update(editingObj.value.id, editingObj.value).then((r: T) => {
                    emit('save', r)
                    editingObj.value = r
                    useMessageStore().addPreparedMessage(PreparedMessage.UPDATE_SUCCESS)
                    if (onAfterSaveCallback) {
                        return Promise.resolve(onAfterSaveCallback()).then(() => r)
                    }
                    return r
                }).catch((err: any) => {
                    console.error(err)
                    useMessageStore().addError(ErrorMessageType.UPDATE_ERROR, err)
                }).finally(() => {
                    editingObjChanged.value = false
                    loading.value = false
                })
            } else {
                return modelClass.value.create(editingObj.value).then((r: T) => {
                    emit('create', r)
                    editingObj.value = r
                    useMessageStore().addPreparedMessage(PreparedMessage.CREATE_SUCCESS)
                    title.value = editingObjName()
                    if (onAfterSaveCallback) {
                        return Promise.resolve(onAfterSaveCallback()).then(() => r)
                    }
                    return r
                }).catch((err: any) => {
                    console.error(err)
                    useMessageStore().addError(ErrorMessageType.CREATE_ERROR, err)
                }).finally(() => {
                    editingObjChanged.value = false
                    loading.value = false
                })
            }
        }

        if (onBeforeSaveCallback) {
            return Promise.resolve(onBeforeSaveCallback()).then(() => {
                return executeSave()
            })
        } else {
            return executeSave()
        }
    }"""
NESTED = """def create_app(config):
    app = Flask(__name__)

    @app.before_request
    def load_user():
        g.user = current_user()
        if g.user is None:
            return redirect("/login")

    return app"""


def test_a_local_function_is_cited_by_its_own_lines() -> None:
    chunk = Chunk(PATH, "typescript", 194, 244, SAVE, "useModelEditorFunctions.saveObject", "function", "view")
    assert holder_at(chunk, 206) == "executeSave"  # `if (onAfterSaveCallback) {` of the update branch
    assert held_lines(chunk, 206, "executeSave") == (200, 235)
    assert held_lines(chunk, 206, "saveObject") is None  # not the innermost one: cited by the chunk
    step = Step(1, Hit(chunk, 1.0, chunk.id), "function", [], "")
    markdown, plain = _named(step, "executeSave", 206)
    assert plain == f"executeSave ({PATH}:200-235)"
    assert "194-244" not in markdown
    assert _named(step)[1] == f"useModelEditorFunctions.saveObject ({PATH}:194-244)"  # the chunk's own name: its lines
    clauses = "  def a(:x), do: 1\n  def b(:y), do: 2\n  def c, do: 3"
    one_line = Chunk("lib/helpers.ex", "elixir", 10, 12, clauses, "H.a", "function", "lib")
    assert (
        _named(Step(1, Hit(one_line, 1.0, one_line.id), "function", [], ""), "H.b", 11)[1] == "H.b (lib/helpers.ex:11)"
    )


def test_a_nested_python_function_ends_where_its_body_does() -> None:
    chunk = Chunk("app/__init__.py", "python", 10, 19, NESTED, "create_app", "function", "config")
    assert held_lines(chunk, 16, "load_user") == (14, 17)  # `load_user`, not `return app`
    assert held_lines(chunk, 11, "create_app") == (10, 19)
