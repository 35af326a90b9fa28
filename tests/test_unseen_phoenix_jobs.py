"""Read on Hexpm (Phoenix; a dev app of `bench/data/newcomer_dev.jsonl`), asked how the registry is rebuilt in the
background and what happens if the rebuild fails:

- the app's job queue is Oban, and no Phoenix construct knew it: ``use Oban.Worker, queue: :registry,
  max_attempts: 5`` was no background job, and the answer opened on a release task that only logs;
- the worker's chunk begins inside its 35-line ``@moduledoc``: the closing ``\"\"\"`` was read as an opening, so every
  line of code after it (``use Oban.Worker``, ``alias``, ``def perform``) was taken for docstring prose.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import prose_lines
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

# lib/hexpm/repository/registry_worker.ex, lines 23-51: the piece of the module after the first 22 lines
WORKER = """  Builds read the database when they run rather than carrying a change with
  them, so queued jobs are consolidated before the read, inside the
  transaction: a `package` job takes over the other queued `package` jobs
  of its repository (up to `@batch`) and builds all of them with one round
  of queries and one purge; a `full` job cancels every queued job of its
  repository, since it rewrites everything they would; `repository` and
  `package_delete` jobs cancel queued jobs with the same arguments. A job whose insert commits
  after the cancel is left alone and picks up whatever that job's
  transaction wrote, and a failed build rolls the cancellations back. This
  is what keeps a burst of publishes from queueing one `names` and
  `versions` rebuild per release, and an advisory that touches a hundred
  packages from building them one job at a time.
  \"\"\"

  use Oban.Worker, queue: :registry, max_attempts: 5

  import Ecto.Query, only: [dynamic: 2, from: 2]

  alias Hexpm.Repo
  alias Hexpm.Repository.{Package, RegistryBuilder, Repository}

  require Logger

  @lock_snooze 30
  @batch 100

  @impl Oban.Worker
  def timeout(%Oban.Job{args: %{"type" => "full"}}), do: :timer.minutes(30)
  def timeout(_job), do: :timer.minutes(5)
"""
# lib/hexpm/repository/registry_worker.ex, lines 92-94: where the jobs are put on the queue
INSERT = """  defp insert(args, priority) do
    args |> new(priority: priority) |> Oban.insert()
  end
"""
QUESTION = "How does the registry get rebuilt in the background, and what if that rebuild fails?"


def _chunk(text: str, start: int) -> Chunk:
    text = text.rstrip("\n")
    end = start + text.count("\n")
    return Chunk("lib/hexpm/repository/registry_worker.ex", "elixir", start, end, text, "RegistryWorker", "module", "")


def _phrases(chunk: Chunk) -> list[tuple[int, str]]:
    phoenix = [c for c in load_all() if c.name == "Phoenix"]
    return [(m.line, m.phrase) for m in matches_in(chunk, phoenix, intents(QUESTION))]


def test_a_chunk_begun_inside_a_docstring_reads_its_code_as_code() -> None:
    lines = WORKER.rstrip("\n").split("\n")
    prose = prose_lines(lines)
    closing = lines.index('  """')
    assert set(range(closing + 1)) <= prose  # the moduledoc's tail and its closing quotes
    assert not prose & set(range(closing + 1, len(lines))), sorted(prose)  # `use Oban.Worker` … `def perform`


def test_a_docstring_opened_under_a_def_and_a_string_assigned_keep_their_reading() -> None:
    assert prose_lines(["def f():", '    """', "    Says what f does.", '    """', "    return 1"]) == {1, 2, 3}
    # an assigned string's closing quotes open nothing: the code after them is code
    assert prose_lines(["def f():", '    sql = """', "SELECT 1", '"""', "    return run(sql)"]) == set()
    assert prose_lines(['  the end of a module\'s prose."""', "  use Oban.Worker"]) == {0}
    # quotes after code open a block: an attribute's docstring (Taiga), a module's under its licence comment, a
    # HEEx sigil and an f-string (Indico's migrations), each read as before
    attribute = [
        "class UnicodeJSONRenderer(JSONRenderer):",
        "    ensure_ascii = False",
        '    """',
        "    Renderer.",
        '    """',
    ]
    assert prose_lines(attribute) == {2, 3, 4}
    assert prose_lines(["# License: MPL 2.0", "", '"""', "Provides policies.", '"""', "import base64"]) == {2, 3, 4}
    assert prose_lines(["  def card(assigns) do", '    ~H"""', "    <div>", '    """', "  end"]) == set()
    assert (
        prose_lines(["def up(conn):", "    sql = f'''", "        SELECT 1", "    '''", "    conn.execute(sql)"])
        == set()
    )


def test_an_oban_worker_runs_in_the_background_and_an_insert_only_queues() -> None:
    assert (37, "runs in the background (an Oban worker)") in _phrases(_chunk(WORKER, 23))
    said = _phrases(_chunk(INSERT, 92))
    assert (93, "puts a job on the Oban queue") in said, said
    assert all("runs in the background" not in phrase for _, phrase in said)
