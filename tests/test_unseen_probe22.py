"""False or misleading sentences on two apps in no data set (probe22: docuseal, a Rails + Vue app, and mwdb-core, a
Flask + React app):

- "`ApplicationController` runs `authenticate_user!` for every controller … except the 23 that skip it
  (`app/controllers/api/active_storage_blobs_proxy_controller.rb:7`, …)", when four of the 23 are API controllers
  (``< ApiBaseController < ActionController::API``) skipping the API base's own ``authenticate_user!``: 19 skip
  `ApplicationController`'s. A skip counts only in a class whose superclass chain reaches the base;
- "[5] `apply_rate_limit` (`mwdb/app.py:237-279`) is a function; it calls `apply_rate_limit_for_request`" over a
  quote of twelve module-level ``api.add_resource(…)`` lines: the chunk is a 3-line ``before_request`` hook above 40
  lines of the module's statements, and is said as the file's top-level code, with the function;
- "`setTokenForAPI` is called by … `AuthProvider.hasCapability (+1)`" for a call in an effect's callback that
  ``AuthProvider`` (the component, the chunk's second name) makes below its ``hasCapability``: an unplaced line of a
  chunk whose definitions are all nested in one of them is that one's;
- "`SubmissionEvent` defines the stored data. Its documentation says: “== Schema Information”": the annotate gem's
  column listing above a model is a tool's output, not its documentation;
- "`create_app` (`mwdb/cli/base.py:13-30`) builds the Flask application (the app factory)" for a CLI helper that reads
  the configuration, then imports the app ``mwdb/app.py`` builds at import (``from mwdb import app``) and returns it;
- "Its documentation says: “summary: Get information about Karton analysis description: | Returns information about
  Karton analysis security: - bearerAuth: [] tags: - karton parameters: …”": an apispec docstring is an OpenAPI
  operation in YAML below ``---``; its ``description`` (first paragraph), else its ``summary``, is what it says;
- "`ConfigUploader._create_object` (`mwdb/resources/config.py:123-159`) holds the settings": a file named
  ``config.py`` is a config layer, and a local variable ``config`` (a malware configuration) was taken for a setting.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.callplace import as_module, caller_name, from_clause
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.code.leading import docstring_prose
from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.constructs.candidate import Candidate
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.constructs.skipped import excepted
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.extractive import VERBS
from codeqa.answer.explanation.said.placing import quoted_name
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

APPLICATION = """# frozen_string_literal: true

class ApplicationController < ActionController::Base
  include ActiveStorage::SetCurrent

  check_authorization unless: :devise_controller?

  before_action :maybe_redirect_to_setup, unless: :signed_in?
  before_action :authenticate_user!, unless: :devise_controller?
end"""
API_BASE = """# frozen_string_literal: true

module Api
  class ApiBaseController < ActionController::API
    include ActiveStorage::SetCurrent

    before_action :authenticate_user!
    check_authorization
  end
end"""
BLOBS_PROXY = """# frozen_string_literal: true

module Api
  class ActiveStorageBlobsProxyController < ApiBaseController
    include ActiveStorage::Streaming

    skip_before_action :authenticate_user!
    skip_authorization_check
  end
end"""
FORM_VIEWS = """# frozen_string_literal: true

module Api
  class SubmitterFormViewsController < ApiBaseController
    skip_before_action :authenticate_user!
    skip_authorization_check
  end
end"""
SETUP = """# frozen_string_literal: true

class SetupController < ApplicationController
  skip_before_action :maybe_redirect_to_setup
  skip_before_action :authenticate_user!
  skip_authorization_check
end"""
SUBMIT_FORM = """# frozen_string_literal: true

class SubmitFormController < ApplicationController
  layout 'form'

  skip_before_action :authenticate_user!
end"""
# a controller deriving from the base through a base of its own (``class … < SubmitFormBaseController``)
SUBMIT_FORM_BASE = """class SubmitFormBaseController < ApplicationController
  layout 'form'
end"""
SUBMIT_FORM_VALUES = """class SubmitFormValuesController < SubmitFormBaseController
  skip_before_action :authenticate_user!
end"""
# its header in an earlier chunk: the class is found by its header elsewhere
DASHBOARD_HEAD = """class DashboardController < ApplicationController
  def index
  end"""
DASHBOARD_TAIL = """  skip_before_action :authenticate_user!, only: %i[index]
end"""


def _chunk(path: str, text: str, symbol: str, start: int = 1) -> Chunk:
    return Chunk(path, "ruby", start, start + text.count("\n"), text, symbol, "class", "controller")


OTHERS = [
    _chunk(
        "app/controllers/api/active_storage_blobs_proxy_controller.rb",
        BLOBS_PROXY,
        "Api.ActiveStorageBlobsProxyController",
    ),
    _chunk("app/controllers/api/submitter_form_views_controller.rb", FORM_VIEWS, "Api.SubmitterFormViewsController"),
    _chunk("app/controllers/setup_controller.rb", SETUP, "SetupController"),
    _chunk("app/controllers/submit_form_controller.rb", SUBMIT_FORM, "SubmitFormController"),
    _chunk("app/controllers/submit_form_base_controller.rb", SUBMIT_FORM_BASE, "SubmitFormBaseController"),
    _chunk("app/controllers/submit_form_values_controller.rb", SUBMIT_FORM_VALUES, "SubmitFormValuesController"),
    _chunk("app/controllers/dashboard_controller.rb", DASHBOARD_HEAD, "DashboardController"),
    _chunk("app/controllers/dashboard_controller.rb", DASHBOARD_TAIL, "", 4),
]


def _said(base: Chunk, question: str) -> str:
    api_base = _chunk("app/controllers/api/api_base_controller.rb", API_BASE, "Api.ApiBaseController")
    application = _chunk("app/controllers/application_controller.rb", APPLICATION, "ApplicationController")
    context = AnswerContext.from_chunks([application, api_base, *OTHERS], [Hit(base, 1.0, base.id)])
    rails = [c for c in load_all() if c.name == "Rails"]
    found = [Candidate(Hit(base, 1.0, base.id), 0.0, matches_in(base, rails, intents(question)), 0, True)]
    kept, _ = excepted(context, found)
    return " | ".join(match.phrase for match in kept[0].matches)


def test_an_api_controller_skipping_its_own_base_filter_is_no_exception_to_the_application_one() -> None:
    base = _chunk("app/controllers/application_controller.rb", APPLICATION, "ApplicationController")
    said = _said(base, "How does user authentication flow through the system?")
    assert (
        "runs `authenticate_user!` for every controller, only `unless: :devise_controller?` (a filter in"
        " `ApplicationController`) except `SetupController`, `SubmitFormController` and `SubmitFormValuesController`"
        " (which skip it: `app/controllers/setup_controller.rb:5`, `app/controllers/submit_form_controller.rb:6`,"
        " `app/controllers/submit_form_values_controller.rb:2`) and some actions of `DashboardController`"
        " (`app/controllers/dashboard_controller.rb:4`)"
    ) in said
    assert "api/" not in said and "ActiveStorage" not in said


def test_the_api_base_filter_names_the_api_controllers_that_skip_it() -> None:
    base = _chunk("app/controllers/api/api_base_controller.rb", API_BASE, "Api.ApiBaseController")
    said = _said(base, "How does user authentication flow through the system?")
    assert (
        "runs `authenticate_user!` for every controller of the API (a filter in the API's base controller) except"
        " `ActiveStorageBlobsProxyController` and `SubmitterFormViewsController` (which skip it:"
        " `app/controllers/api/active_storage_blobs_proxy_controller.rb:7`,"
        " `app/controllers/api/submitter_form_views_controller.rb:5`)"
    ) in said


APP_PY = """@api.blueprint.before_request
def apply_rate_limit():
    apply_rate_limit_for_request()


# Server health endpoints
api.add_resource(PingResource, "/ping")
api.add_resource(ServerInfoResource, "/server")
api.add_resource(ServerAdminInfoResource, "/server/admin")
api.add_resource(ServerDocsResource, "/docs")

# Authentication endpoints
api.add_resource(LoginResource, "/auth/login")
api.add_resource(
    RemoteTextBlobPullResource, "/remote/<remote_name>/pull/blob/<hash64:identifier>"
)"""
# a function followed by the module's entry guard is still the function's chunk
CLI_PY = """def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=5000)
    args = parser.parse_args()
    app.run(port=args.port)


if __name__ == "__main__":
    main()"""


def test_a_hook_above_many_module_statements_is_the_files_code_with_its_function() -> None:
    hook = Chunk("mwdb/app.py", "python", 237, 237 + APP_PY.count("\n"), APP_PY, "apply_rate_limit", "function", "api")
    assert as_module(hook) == ("app.py", "is the file's top-level code, with `apply_rate_limit`")
    folded = [KeyLine(237, "@api.blueprint.before_request"), KeyLine(243, 'api.add_resource(PingResource, "/ping")')]
    assert quoted_name(Step(6, Hit(hook, 0.5, hook.id), "api", folded, "")) == "app.py"
    own = [KeyLine(239, "    apply_rate_limit_for_request()")]
    assert quoted_name(Step(6, Hit(hook, 0.5, hook.id), "api", own, "")) == "apply_rate_limit"
    alone = APP_PY[: APP_PY.index("# Server")].rstrip()
    only = Chunk("mwdb/app.py", "python", 237, 237 + alone.count("\n"), alone, "apply_rate_limit", "function", "api")
    assert as_module(only) is None
    main = Chunk("mwdb/cli.py", "python", 10, 10 + CLI_PY.count("\n"), CLI_PY, "main", "function", "cli")
    assert as_module(main) is None


PROVIDER = """    function hasCapability(capability: Capability) {
        return (
            isAuthenticated && session?.capabilities.indexOf(capability) >= 0
        );
    }

    // Effect for 401 Not authenticated to handle unexpected session expiration
    useAxiosEffect(() => {
        // Initialize Authorization header on mount
        setTokenForAPI(isAuthenticated && session.token);
        const interceptor = api.axios.interceptors.response.use(
            (_) => _,
            (error) => {
                if (error.response && error.response.status === 401)
                    logout("Session expired.");
                return Promise.reject(error);
            }
        );
        return () => {
            api.axios.interceptors.response.eject(interceptor);
        };
    });"""


def test_a_call_below_a_nested_handler_is_the_enclosing_components() -> None:
    path = "mwdb/web/src/commons/auth/provider.tsx"
    symbol = "AuthProvider.hasCapability, AuthProvider"
    chunk = Chunk(path, "tsx", 148, 148 + PROVIDER.count("\n"), PROVIDER, symbol, "function", "view")
    use = Use("setTokenForAPI", 157, "calls", "setTokenForAPI(isAuthenticated && session.token);")
    assert caller_name(use, chunk) == "AuthProvider"
    assert from_clause(use, "AuthProvider.hasCapability", chunk) == " from `AuthProvider`"
    inside = Use("indexOf", 150, "calls", "isAuthenticated && session?.capabilities.indexOf(capability) >= 0")
    assert caller_name(inside, chunk) == "AuthProvider.hasCapability"  # placed by its lines
    siblings = Chunk(path, "tsx", 148, 148 + PROVIDER.count("\n"), PROVIDER, "hasCapability, Other", "function", "view")
    assert caller_name(use, siblings) == ""  # neither holds the other: unplaced


SUBMISSION_EVENT = """# frozen_string_literal: true

# == Schema Information
#
# Table name: submission_events
#
#  id              :bigint           not null, primary key
#  event_type      :string           not null
#
class SubmissionEvent < ApplicationRecord
  belongs_to :submission
  belongs_to :submitter, optional: true
end"""


def test_an_annotate_schema_listing_is_no_documentation() -> None:
    path = "app/models/submission_event.rb"
    event = Chunk(
        path, "ruby", 1, 1 + SUBMISSION_EVENT.count("\n"), SUBMISSION_EVENT, "SubmissionEvent", "class", "model"
    )
    assert summary(event) == ""
    documented = SUBMISSION_EVENT.replace("# == Schema Information", "# An event in a submission's audit trail.")
    noted = Chunk(path, "ruby", 1, 1 + documented.count("\n"), documented, "SubmissionEvent", "class", "model")
    assert summary(noted) == "An event in a submission's audit trail."


LAZY_APP = """def create_app():
    try:
        app_config.read()
    except Exception as e:
        raise NoAppException(f"Application not configured: {str(e)}")
    # Lazy-load app here
    from mwdb import app

    return app.app"""
FACTORY = """def create_app(config=None):
    app = Flask(__name__)
    app.config.from_object(config or "settings")
    from app.models import db
    from . import views

    db.init_app(app)
    app.register_blueprint(views.bp)
    return app"""


def test_a_create_app_returning_an_app_built_elsewhere_is_no_factory() -> None:
    flask = [c for c in load_all() if c.name == "Flask"]
    question = intents("What is the entry point of the app?")

    def said(text: str) -> list[str]:
        chunk = Chunk("mwdb/cli/base.py", "python", 13, 13 + text.count("\n"), text, "create_app", "function", "cli")
        return [match.phrase for match in matches_in(chunk, flask, question)]

    assert "builds the Flask application (the app factory)" not in said(LAZY_APP)
    assert "builds the Flask application (the app factory)" in said(FACTORY)


KARTON_POST = '''    @requires_authorization
    def post(self, type, identifier):
        """
        ---
        summary: Resubmit object to Karton
        description: |
            Submits object into Karton to trigger new analysis

            If submit was successful: returns information about
            spawned Karton analyses for provided object
        security:
            - bearerAuth: []
        tags:
            - karton
        """
        db_object = access_object(type, identifier)'''


def test_an_openapi_docstring_says_its_description() -> None:
    chunk = Chunk("mwdb/resources/karton.py", "python", 83, 83 + KARTON_POST.count("\n"), KARTON_POST,
                  "KartonObjectResource.post", "method", "api")  # fmt: skip
    assert summary(chunk) == "Submits object into Karton to trigger new analysis"
    summary_only = ["", "---", "summary: Get information about Karton analysis", "security:", "  - bearerAuth: []"]
    assert docstring_prose(summary_only, '"""') == "Get information about Karton analysis"
    above = ["Example endpoint returning a list of colors by palette", "---", "parameters:", "  - name: palette"]
    assert docstring_prose(above, '"""') == "Example endpoint returning a list of colors by palette"


CREATE_CONFIG = """    def _create_object(
        self, spec, parent, share_with, attributes, analysis_id, tags, share_3rd_party
    ):
        try:
            config = dict(spec["cfg"])
            for first, second in config.items():
                if isinstance(second, dict) and list(second.keys()) == ["in-blob"]:
                    config[first]["in-blob"] = blob_obj.dhash
            obj, is_new = Config.get_or_create(config, spec["family"], parent=parent)
            return obj, is_new
        except ObjectTypeConflictError:
            raise Conflict("Object already exists and is not a config")"""
PRODUCTION = """  if ENV['SMTP_ADDRESS']
    config.action_mailer.delivery_method = :smtp
  end
  config.i18n.fallbacks = true"""
FLASK_SETTINGS = """app.config["SQLALCHEMY_DATABASE_URI"] = app_config.mwdb.postgres_uri
app.config["SECRET_KEY"] = app_config.mwdb.secret_key"""


def test_a_local_variable_named_config_holds_no_settings() -> None:
    def role(path: str, language: str, text: str, symbol: str, kind: str) -> str:
        chunk = Chunk(path, language, 1, 1 + text.count("\n"), text, symbol, kind, "config")
        return role_phrase(chunk, VERBS, "is here")

    # `mwdb/resources/config.py` is a config layer by its name: an API resource for malware configurations
    assert role("mwdb/resources/config.py", "python", CREATE_CONFIG, "ConfigUploader._create_object", "method") == (
        "is a method"
    )
    assert role("config/environments/production.rb", "ruby", PRODUCTION, "", "module") == "holds the settings"
    assert role("mwdb/app.py", "python", FLASK_SETTINGS, "", "module") == "holds the settings"
