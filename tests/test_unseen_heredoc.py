"""False on huginn (a Rails app in no data set), asked "What happens when an API request fails?": "Then
``Agents.JavaScriptAgent.setup_javascript`` raises ``new TypeError(result.error);``" for a Ruby method that returns a
``<<-JS`` heredoc of JavaScript (the JS engine throws, later, when a script calls ``Agent.fetch``): a heredoc's lines
are text handed on, no outcome of the method's."""

from __future__ import annotations

from codeqa.answer.explanation.code.embedded import heredoc_lines
from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.explanation.said.outcomes import outcome_lines
from codeqa.answer.explanation.story.endings import outcome_of
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

SETUP = """    def setup_javascript
      <<-JS
        function Agent() {};

        Agent.fetch = function(url, options) {
          var result = doFetch(toUrlString(url), options || {});
          if (result.error) {
            throw new TypeError(result.error);
          }
          return result;
        };
      JS
    end"""
RAISING = """    def check_response(response)
      message = <<~MSG.strip
        Request failed: #{response.status}
      MSG
      if response.status >= 400
        raise ApiError, message
      end
    end"""
ECHO = """    public function render(): string
    {
        $html = <<<HTML
            <script>if (!ok) { throw new Error("failed"); }</script>
            HTML;
        throw new RenderException($html);
    }"""


FAILS = "What happens when an API request fails?"


def _chunk(text: str, name: str, language: str = "ruby", path: str = "app/models/agents/java_script_agent.rb"):
    return Chunk(path, language, 204, 204 + text.count("\n"), text, name, "method", "model")


def _outcomes(chunk: Chunk) -> list[tuple[str, str]]:
    """What the opening says ends the story in ``chunk`` (verb, line) asked how a request fails, every line shown."""
    lines = [KeyLine(chunk.start_line + n, text) for n, text in enumerate(chunk.text.split("\n")) if text.strip()]
    step = Step(1, Hit(chunk, 1.0), "method", lines, "")
    explanation = Explanation(FAILS, [step], [], [], [step.hit], opened=1, intents=tuple(intents(FAILS)))
    return [(verb, line.text.strip()) for verb, _, line in outcome_lines(explanation, set())]


def test_a_throw_in_a_ruby_heredoc_is_no_outcome_of_the_method():
    chunk = _chunk(SETUP, "Agents.JavaScriptAgent.setup_javascript")
    body = SETUP.split("\n")
    throw = 204 + body.index("            throw new TypeError(result.error);")
    assert throw in heredoc_lines(chunk)
    assert 204 + body.index("      <<-JS") not in heredoc_lines(chunk)  # the opening and closing lines are code
    assert 204 + body.index("      JS") not in heredoc_lines(chunk)
    assert not [text for _, text in _outcomes(chunk) if "TypeError" in text or "return result" in text]
    found = outcome_of(chunk, "Agents.JavaScriptAgent.setup_javascript")  # the walk's end: no `return result;`
    assert found is None or found.line not in heredoc_lines(chunk), found


def test_code_after_a_heredoc_still_raises():
    chunk = _chunk(RAISING, "Client.check_response")
    assert ("raises", "raise ApiError, message") in _outcomes(chunk), _outcomes(chunk)
    assert heredoc_lines(chunk) == frozenset({206})


def test_a_php_heredoc_is_text_and_the_throw_after_it_is_code():
    chunk = _chunk(ECHO, "Page.render", "php", "app/Page.php")
    body = ECHO.split("\n")
    assert heredoc_lines(chunk) == frozenset(
        {204 + body.index('            <script>if (!ok) { throw new Error("failed"); }</script>')}
    )
    said = _outcomes(chunk)
    assert ("raises", "throw new RenderException($html);") in said, said
