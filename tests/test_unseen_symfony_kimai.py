"""Read on kimai (a Symfony app, in no data set): codeqa had no Symfony conventions. Asked "Where would I add logging
to track user behavior?", the answer led on a console command ("ActivateUserCommand … runs the command:
->addArgument('username', InputArgument::REQUIRED, 'The username')") and ended with no "Where to add it", though
the app's ``kernel.request`` subscribers (``WizardSubscriber``, ``UserEnvironmentSubscriber``) see every request.
Asked "What happens when an API request fails?", it said "The code found answers this only loosely" beside
``AjaxAuthenticationSubscriber``, a ``kernel.exception`` subscriber that every uncaught exception reaches, with no
"Where errors go". ``symfony.toml`` holds Symfony's kernel events, Security, routes, console commands and the rest.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import explain
from codeqa.answer.explanation.said.conclusion import hook, placement, where_errors_go
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.evidence import Evidence, Found, imports_module
from codeqa.frameworks.intent import intents
from codeqa.frameworks.manifests import composer_json
from codeqa.records import Hit, SourceFile

LOGGING = "Where would I add logging to track user behavior?"
ERRORS = "What happens when an API request fails?"
# src/EventSubscriber/WizardSubscriber.php, lines 10-50 (shortened)
WIZARD = """<?php

namespace App\\EventSubscriber;

use App\\Entity\\User;
use Symfony\\Component\\EventDispatcher\\EventSubscriberInterface;
use Symfony\\Component\\HttpKernel\\Event\\RequestEvent;
use Symfony\\Component\\HttpKernel\\KernelEvents;

/**
 * Responsible for displaying the correct wizard
 */
class WizardSubscriber implements EventSubscriberInterface
{
    public static function getSubscribedEvents(): array
    {
        return [
            KernelEvents::REQUEST => ['onKernelRequest', -30]
        ];
    }

    public function onKernelRequest(RequestEvent $event): void
    {
        // ignore sub-requests and un-authenticated events
        if (!$event->isMainRequest() || null === ($token = $this->storage->getToken())) {
            return;
        }

        $user = $token->getUser();
        if (!($user instanceof User)) {
            return;
        }
    }
}
"""
# src/EventSubscriber/AjaxAuthenticationSubscriber.php, lines 10-57 (shortened)
AJAX = """<?php

namespace App\\EventSubscriber;

use Symfony\\Component\\EventDispatcher\\EventSubscriberInterface;
use Symfony\\Component\\HttpFoundation\\Response;
use Symfony\\Component\\HttpKernel\\Event\\ExceptionEvent;
use Symfony\\Component\\HttpKernel\\KernelEvents;

final class AjaxAuthenticationSubscriber implements EventSubscriberInterface
{
    public static function getSubscribedEvents(): array
    {
        return [
            KernelEvents::EXCEPTION => ['onCoreException', 1]
        ];
    }

    public function onCoreException(ExceptionEvent $event): void
    {
        $request = $event->getRequest();
        if ($request->isXmlHttpRequest()) {
            $exception = $event->getThrowable();
            if ($exception instanceof AccessDeniedException) {
                $event->setResponse(new Response('Access denied', 403, ['Login-Required' => true]));
            }
        }
    }
}
"""
# src/Command/ActivateUserCommand.php, lines 10-58 (shortened)
COMMAND = """<?php

namespace App\\Command;

use App\\User\\UserService;
use Symfony\\Component\\Console\\Attribute\\AsCommand;
use Symfony\\Component\\Console\\Command\\Command;
use Symfony\\Component\\Console\\Input\\InputArgument;
use Symfony\\Component\\EventDispatcher\\EventSubscriberInterface;
use Symfony\\Component\\HttpKernel\\KernelEvents;

#[AsCommand(name: 'kimai:user:activate', description: 'Activate a user')]
final class ActivateUserCommand extends Command
{
    protected function configure(): void
    {
        $this
            ->addArgument('username', InputArgument::REQUIRED, 'The username')
            ->setHelp('The kimai:user:activate command activates a user (so they will be able to log in)');
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        $user = $this->userService->findUserByUsernameOrThrowException($input->getArgument('username'));
        $this->logger->info('user activated');
        return Command::SUCCESS;
    }
}
"""


def _explained(question: str, path: str, text: str):
    chunks = chunk_file(SourceFile(path, "php", text, len(text)))
    return explain(question, AnswerContext.from_chunks(chunks, [Hit(c, 1.0, c.id) for c in chunks]))


def test_a_kernel_request_subscriber_is_where_to_add_logging() -> None:
    said = placement(_explained(LOGGING, "src/EventSubscriber/WizardSubscriber.php", WIZARD))
    assert said is not None
    assert said[1].startswith("Where to add it: in "), said[1]
    assert "onKernelRequest" in said[1] and "runs on every request before the controller" in said[1], said[1]


def test_a_kernel_exception_subscriber_is_where_errors_go() -> None:
    said = where_errors_go(_explained(ERRORS, "src/EventSubscriber/AjaxAuthenticationSubscriber.php", AJAX))
    assert said is not None
    assert said[1].startswith("Where errors go: to onCoreException ("), said[1]
    assert "every exception a request leaves uncaught" in said[1], said[1]


def test_a_console_command_is_no_request_hook() -> None:
    explanation = _explained(LOGGING, "src/Command/ActivateUserCommand.php", COMMAND)
    assert hook(explanation) is None
    matches = [m for step in explanation.steps for m in step.matches]
    assert not any(m.every_request for m in matches)


def test_the_symfony_constructs_say_what_kimai_s_lines_are() -> None:
    symfony = next(c for c in load_all() if c.name == "Symfony")
    lines = {
        "            KernelEvents::REQUEST => ['prepareEnvironment', -10],": "runs on every request",
        "            LoginSuccessEvent::class => 'onFormLogin',": "runs after each successful sign-in",
        "    public function authenticate(Request $request): Passport": "checks the credentials",
        "            new UserBadge($credentials['username'], [$this, 'loadUserByIdentifier']),": "names the user",
        "            throw $this->createNotFoundException();": "throws an HTTP error",
        "    protected function voteOnAttribute(string $attribute, mixed $subject): bool": "voter",
        "#[AsCommand(name: 'kimai:user:activate', description: 'Activate')]": "command `kimai:user:activate`",
    }
    for line, phrase in lines.items():
        said = [c.describe(m) for c in symfony.constructs if (m := c.pattern.search(line))]
        assert any(phrase in s for s in said), (line, said)
    # a command, a sign-in subscriber: not on every request's path
    every = [c for c in symfony.constructs if c.every_request]
    for line in (
        "#[AsCommand(name: 'kimai:user:activate')]",
        "            LoginSuccessEvent::class => 'onFormLogin',",
        "            KernelEvents::EXCEPTION => ['onCoreException', 1]",
    ):
        assert not any(c.pattern.search(line) for c in every), line


def test_a_symfony_manifest_or_bundle_import_names_symfony_and_laravel_s_symfony_imports_do_not() -> None:
    symfony = next(c for c in load_all() if c.name == "Symfony")
    declared = composer_json('{"require": {"php": "8.1.*", "symfony/framework-bundle": "^6.0"}}')
    assert any(dep in symfony.packages for dep in declared)
    assert imports_module("use Symfony\\Bundle\\FrameworkBundle\\Controller\\AbstractController;", "php",
                          symfony.imports[0])  # fmt: skip
    # a Laravel controller's `use Symfony\\Component\\HttpFoundation\\Response;` is no Symfony app
    assert not imports_module("use Symfony\\Component\\HttpFoundation\\Response;", "php", symfony.imports[0])
    # a Laravel app whose code imports Symfony's components is named Laravel
    both = Evidence((Found("Laravel", "", "composer.json", "manifest"), Found("Symfony", "", "app/X.php", "import")))
    found = both.framework_of("app/Http/Controllers/UserController.php", "php")
    assert found is not None and found.framework == "Laravel"


# config/packages/security.yaml of kimai (lines 15-35, shortened) and symfony/demo's test environment block
SECURITY_YAML = """security:
    firewalls:
        dev:
            pattern: ^/(_(profiler|wdt)|css|images|js)/
            security: false

        api:
            access_token:
                token_handler: App\\\\API\\\\Authentication\\\\AccessTokenHandler
            stateless: true
            remember_me: false
            custom_authenticators:
                - App\\\\API\\\\Authentication\\\\TokenAuthenticator
"""
WHEN_TEST = """when@test:
    security:
        firewalls:
            main:
                http_basic: ~
"""


def _yaml_said(text: str, question: str) -> list[str]:
    symfony = [c for c in load_all() if c.name == "Symfony"]
    chunks = chunk_file(SourceFile("config/packages/security.yaml", "yaml", text, len(text)))
    return [m.phrase for c in chunks for m in matches_in(c, symfony, intents(question))]


def test_security_yaml_s_firewalls_answer_how_authentication_flows() -> None:
    """The auth answer on kimai never showed ``security.yaml``: Symfony's constructs were PHP-only."""
    said = _yaml_said(SECURITY_YAML, "How does user authentication flow through the system?")
    assert any(s.startswith("lists the firewalls") for s in said), said
    assert any("`custom_authenticators`" in s for s in said) and any("`access_token`" in s for s in said), said
    assert not any("remember_me" in s for s in said), said  # `remember_me: false` signs nobody in
    # symfony/demo's `when@test:` firewalls are the test environment's, not the app's
    assert not any(s.startswith("lists the firewalls") for s in _yaml_said(WHEN_TEST, "How does login work?"))
