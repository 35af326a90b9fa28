"""Probe 25 (#35) on navidrome (a Go + React music server) and freescout (a Laravel help desk), in no data set.

- "Where would I add logging …?" on navidrome said "`CurrentLevel (+4)` … calls `parseArgs` … from
  `CurrentLevel.log`": ``log`` is a package-level Go function in the same chunk as the exported ``CurrentLevel``, no
  method of a class ``CurrentLevel`` (a capital names an exported Go function, not a class).
- "How does transcoding work …?" on navidrome opened by saying no source held a line naming two of the question's
  words, which only the closest source had been checked for.
- "What happens when an API request fails?" on freescout said the framework's ``Router`` lists the middleware every
  request passes through: its ``$middleware`` is a map of aliases.
- Steps ended in a closure's ``return``, an ``else`` block's, and a Go ``if err != nil`` exit, each said as where a
  function ends; a Blade template's ``@action(…)`` directive made the template "handle the request".
"""

from __future__ import annotations

from codeqa.answer.explanation.code.linenames import holder_at, name_at
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.lead import LAYER_VERBS, WEAK
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.answer.explanation.story.endings import outcome_of
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

# navidrome log/log.go:190-243, shortened: the chunker lists the first five names and drops the rest (``…``)
GO_LOG = """func CurrentLevel() Level {
	loggerMu.RLock()
	defer loggerMu.RUnlock()
	return currentLevel
}

func Fatal(args ...any) {
	log(LevelFatal, args...)
	os.Exit(1)
}

func log(level Level, args ...any) {
	if !shouldLog(level, 3) {
		return
	}

	logger, msg := parseArgs(args)
	logger.Log(logrus.Level(level), msg)
}"""


def test_a_go_function_left_out_of_a_chunk_of_functions_is_no_method_of_the_first() -> None:
    chunk = Chunk("log/log.go", "go", 190, 208, GO_LOG, "CurrentLevel, IsGreaterOrEqualTo, Fatal, Error, Warn, …",
                  "function", "core")  # fmt: skip
    assert name_at(chunk, 206) == "log"  # `logger, msg := parseArgs(args)`: in `log`, not a made-up `CurrentLevel.log`
    assert holder_at(chunk, 201) == "log"  # the head line `func log(…)` itself
    assert name_at(chunk, 197) == "Fatal"  # a listed name stays as listed


def test_a_method_chunk_still_names_its_class_as_the_owner() -> None:
    # a Go method chunk whose first method is exported: the class is what the name is qualified by, not the method
    text = "func (t *MpvTrack) Unpause() {\n\tt.resume()\n}\n\nfunc (t *MpvTrack) stopAll() {\n\tt.kill()\n}"
    chunk = Chunk("core/playback/mpv/track.go", "go", 93, 99, text, "MpvTrack.Unpause", "method", "core")
    assert name_at(chunk, 98) == "MpvTrack.stopAll"


# freescout overrides/laravel/framework/src/Illuminate/Routing/Router.php:25-78, shortened
ROUTER = """class Router implements RegistrarContract, BindingRegistrar
{
    use Macroable {
        __call as macroCall;
    }

    /**
     * All of the short-hand keys for middlewares.
     *
     * @var array
     */
    protected $middleware = [];

    /**
     * All of the middleware groups.
     *
     * @var array
     */
    protected $middlewareGroups = [];"""
# freescout app/Http/Kernel.php:7-31, shortened
KERNEL = """class Kernel extends HttpKernel
{
    /**
     * The application's global HTTP middleware stack.
     */
    protected $middleware = [
        \\Illuminate\\Foundation\\Http\\Middleware\\CheckForMaintenanceMode::class,
        \\App\\Http\\Middleware\\TrimStrings::class,
    ];

    protected $middlewareGroups = [
        'web' => [
            \\App\\Http\\Middleware\\EncryptCookies::class,
        ],
    ];"""
EVERY_REQUEST = "lists the middleware every request passes through"


def test_only_an_http_kernels_middleware_list_is_said_to_be_every_requests() -> None:
    """ "What happens when an API request fails?" on freescout said the framework's ``Router`` "lists the middleware
    every request passes through (the global `$middleware`…)": the Router's ``$middleware`` holds the short-hand
    keys (aliases) a route asks for; only the HTTP kernel's list runs on every request."""
    laravel = [c for c in load_all() if c.name == "Laravel"]
    asked = intents("What happens when an API request fails?")
    router = Chunk("overrides/laravel/framework/src/Illuminate/Routing/Router.php", "php", 25, 44, ROUTER, "Router",
                   "class", "core")  # fmt: skip
    kernel = Chunk("app/Http/Kernel.php", "php", 7, 21, KERNEL, "Kernel", "class", "core")
    assert not any(EVERY_REQUEST in m.phrase for m in matches_in(router, laravel, asked))
    assert any(EVERY_REQUEST in m.phrase for m in matches_in(kernel, laravel, asked))


def test_a_loose_answer_claims_only_what_was_weighed() -> None:
    """ "How does transcoding work when a client streams a song?" on navidrome opened "no source holds … a line naming
    two of the question's words" while its third source quoted ``clientInfo.TranscodingProfiles`` (client,
    transcoding): only the closest source's lines are weighed, and the sentence now says so."""
    assert "no source holds a construct for it, and the closest one has no line naming two" in WEAK
    assert "or a line naming two" not in WEAK


# navidrome core/scrobbler/play_tracker.go:196-246, shortened
REFRESH = """func (p *playTracker) refreshPluginScrobblers() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pluginLoader == nil {
		return
	}
	pluginNames := p.pluginLoader.PluginNames("Scrobbler")
	for _, name := range pluginNames {
		if _, exists := p.pluginScrobblers[name]; !exists {
			pluginName := name
			loader := p.pluginLoader
			p.pluginScrobblers[name] = newBufferedScrobblerWithLoader(p.ds, name, func() (Scrobbler, bool) {
				return loader.LoadScrobbler(pluginName)
			})
		}
	}
}"""
# freescout app/User.php:286-297
SETTINGS = """    public function mailboxesSettings($cache = true)
    {
        $user = $this;

        $query = MailboxUser::where('user_id', $user->id);

        if ($cache) {
            return $query->rememberForever()->get();
        } else {
            return $query->get();
        }
    }"""


def test_a_closures_return_is_not_where_the_function_ends() -> None:
    """ "How are play counts and scrobbles recorded?" on navidrome ended its steps "`refreshPluginScrobblers` ends in
    `return loader.LoadScrobbler(pluginName)`": the loader closure's return; the method itself returns nothing."""
    chunk = Chunk("core/scrobbler/play_tracker.go", "go", 196, 212, REFRESH, "playTracker.refreshPluginScrobblers",
                  "method", "core")  # fmt: skip
    assert outcome_of(chunk, "playTracker.refreshPluginScrobblers") is None
    handler = "func (s *Service) Load(id string) (*Item, error) {\n\titem, err := s.repo.Get(id)\n\treturn item, err\n}"
    own = Chunk("core/items.go", "go", 1, 4, handler, "Service.Load", "method", "core")
    found = outcome_of(own, "Service.Load")  # a return of the function's own still ends it
    assert found is not None and found.text == "return item, err"


def test_an_else_blocks_return_is_not_said_as_the_ending() -> None:
    """The steps of "How does the app check whether a user may access a mailbox?" on freescout ended
    "`mailboxesSettings` ends in `return $query->get();`": the ``else`` branch, which the call
    ``mailboxesSettings()`` (``$cache = true``) never takes; the ``if`` branch's return is said, as it already was
    for Python's ``else:``."""
    chunk = Chunk("app/User.php", "php", 286, 297, SETTINGS, "User.mailboxesSettings", "method", "model")
    found = outcome_of(chunk, "User.mailboxesSettings")
    assert found is not None and found.line == 293 and "rememberForever" in found.text


# navidrome core/playlists/parse_m3u.go:21-40, shortened
PARSE_M3U = """func (s *playlists) parseM3U(ctx context.Context, pls *model.Playlist, reader io.Reader) error {
	mediaFileRepository := s.ds.MediaFile(ctx)
	resolver, err := newPathResolver(ctx, s.ds)
	if err != nil {
		return err
	}
	var mfs model.MediaFiles
	for lines := range slice.CollectChunks(slice.LinesFrom(reader), 100) {
		resolvedPaths, err := resolver.resolvePaths(ctx, lines)
		if err != nil {
			log.Warn(ctx, "Error resolving paths in playlist", "playlist", pls.Name, err)
			continue
		}
		found, _ := mediaFileRepository.FindByPaths(resolvedPaths)
		mfs = append(mfs, found...)
	}
	pls.AddMediaFiles(mfs)
	return nil
}"""


def test_a_go_error_checks_return_is_the_failure_not_where_the_function_ends() -> None:
    """ "How are playlists imported from m3u files?" on navidrome ended its steps "`parseM3U` ends in `return err`":
    the early exit under ``if err != nil``, Go's error test, said as how the parse ends; asked about failing, it is
    the failure's answer."""
    chunk = Chunk("core/playlists/parse_m3u.go", "go", 21, 39, PARSE_M3U, "playlists.parseM3U", "method", "core")
    assert outcome_of(chunk, "playlists.parseM3U") is None  # `return nil` says nothing; `return err` is the failure
    failing = outcome_of(chunk, "playlists.parseM3U", errors=True)
    assert failing is not None and failing.line == 25


# freescout resources/views/users/subscriptions_table.blade.php:22-24, shortened
BLADE = """        <td class="subs-cb subscriptions-mobile"><input type="checkbox" @include('users/is_subscribed', ['medium' => App\\Subscription::MEDIUM_MOBILE, 'event' => App\\Subscription::EVENT_NEW_CONVERSATION]) name="{{ $subscriptions_formname }}[{{ App\\Subscription::MEDIUM_MOBILE }}][]" value="{{ App\\Subscription::EVENT_NEW_CONVERSATION }}"></td>
        @action('notifications_table.td', App\\Subscription::EVENT_NEW_CONVERSATION, $subscriptions_formname, $subscriptions)
    </tr>"""  # noqa: E501


def test_a_blade_templates_directive_is_no_route_decorator() -> None:
    """ "How are users notified when a conversation is assigned to them?" on freescout said
    "`subscriptions_table.blade.php` … handles the request": Blade's ``@action(…)`` hook directive read as a route
    decorator (``@action``) in a file the scanner reads as PHP. A template renders what the user sees."""
    chunk = Chunk("resources/views/users/subscriptions_table.blade.php", "php", 22, 24, BLADE, "", "module", "view")
    assert role_phrase(chunk, LAYER_VERBS, "is here") == "renders what the user sees"


# navidrome core/metrics/insights.go:170-176: the chunker cut `var staticData = sync.OnceValue(func() insights.Data {`
# (line 168) into the chunk above; this one opens inside its function literal
ONCE_BODY = """	data := insights.Data{
		InsightsID: insightsID,
		Version:    consts.Version,
	}

	// Build info
	data.Build.Settings, data.Build.GoVersion = buildInfo()"""


def test_a_go_chunk_opening_indented_is_no_top_level_code() -> None:
    """ "Where is the configuration file read …?" on navidrome said "`insights.go` … is the file's top-level code" of
    the body of a ``sync.OnceValue(func() …)`` literal, which runs on first use, not when the package loads."""
    chunk = Chunk("core/metrics/insights.go", "go", 170, 176, ONCE_BODY, "", "module", "service")
    assert role_phrase(chunk, LAYER_VERBS, "is here") == "starts inside a block that opens above it"
    top = Chunk("core/metrics/insights.go", "go", 1, 3, "var x = 1\n\nfunc f() {}", "", "module", "service")
    assert role_phrase(top, LAYER_VERBS, "is here") == "is the file's top-level code"
