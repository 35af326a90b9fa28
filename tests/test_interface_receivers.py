"""A receiver declared as an interface reaches its one implementation (issue #35, class 2): a Spring controller's
``private final DeployService deployService;`` makes ``deployService.stopServer(r)`` a call to
``DeployServiceImpl.stopServer`` when ``DeployServiceImpl implements DeployService`` and nothing else in the code
implements it; a Laravel controller's ``PaymentGateway $gateway`` (a contract) likewise reaches its one
``StripeGateway``. With a second implementation, which one runs is decided at run time: no call is claimed.

The files are cut by the real chunker (tree-sitter) and read through a real ``AnswerContext``.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.claims import ClaimChecker
from codeqa.answer.explanation.calls.implements import Implementations
from codeqa.chunk import chunk_file
from codeqa.config import Settings
from codeqa.records import Chunk, Hit, SourceFile

SMALL = Settings(chunk_max_chars=200, chunk_min_chars=30)  # a class is cut into its methods, its head apart

BASE = "src/main/java/com/acme/deploy"
SPRING: dict[str, str] = {
    f"{BASE}/rest/DeployController.java": """package com.acme.deploy.rest;

import com.acme.deploy.domain.Deploy;
import com.acme.deploy.service.DeployService;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.*;

@RestController
@RequestMapping("/api/deploy")
public class DeployController {

    private final DeployService deployService;

    public DeployController(DeployService deployService) {
        this.deployService = deployService;
    }

    @PostMapping(value = "/stopServer")
    public ResponseEntity<Object> stopServer(@RequestBody Deploy resources) {
        String result = deployService.stopServer(resources);
        return ResponseEntity.ok(result);
    }
}
""",
    f"{BASE}/service/DeployService.java": """package com.acme.deploy.service;

import com.acme.deploy.domain.Deploy;

public interface DeployService {

    /** Stops the application of a deployment on its server. */
    String stopServer(Deploy resources);

    /** Starts it again. */
    String startServer(Deploy resources);
}
""",
    f"{BASE}/service/impl/DeployServiceImpl.java": """package com.acme.deploy.service.impl;

import com.acme.deploy.domain.Deploy;
import com.acme.deploy.service.DeployService;
import org.springframework.stereotype.Service;

@Service
public class DeployServiceImpl implements DeployService {

    private final ServerShell shell = new ServerShell();

    @Override
    public String stopServer(Deploy resources) {
        String port = resources.getApp().getPort();
        shell.execute("kill -9 $(lsof -t -i:" + port + ")");
        boolean running = shell.isRunning(port);
        if (running) {
            return "the application is still running on port " + port;
        }
        return "the application on port " + port + " is stopped";
    }

    @Override
    public String startServer(Deploy resources) {
        String command = resources.getApp().getStartScript();
        shell.execute(command);
        return "started with " + command;
    }
}
""",
}
SECOND_JAVA = (
    f"{BASE}/service/impl/DryRunDeployService.java",
    """package com.acme.deploy.service.impl;

import com.acme.deploy.domain.Deploy;
import com.acme.deploy.service.DeployService;

public class DryRunDeployService implements DeployService {

    @Override
    public String stopServer(Deploy resources) {
        return "would stop " + resources.getApp().getName();
    }

    @Override
    public String startServer(Deploy resources) {
        return "would start " + resources.getApp().getName();
    }
}
""",
)

LARAVEL: dict[str, str] = {
    "app/Http/Controllers/CheckoutController.php": """<?php

namespace App\\Http\\Controllers;

use App\\Contracts\\PaymentGateway;
use Illuminate\\Http\\Request;

class CheckoutController extends Controller
{
    public function __construct(private readonly PaymentGateway $gateway)
    {
    }

    public function store(Request $request)
    {
        $receipt = $this->gateway->charge($request->user(), $request->integer('amount'));

        return response()->json(['receipt' => $receipt]);
    }
}
""",
    "app/Contracts/PaymentGateway.php": """<?php

namespace App\\Contracts;

use App\\Models\\User;

interface PaymentGateway
{
    public function charge(User $user, int $amount): string;
}
""",
    "app/Payments/StripeGateway.php": """<?php

namespace App\\Payments;

use App\\Contracts\\PaymentGateway;
use App\\Models\\User;
use Stripe\\StripeClient;

class StripeGateway implements PaymentGateway
{
    public function __construct(private readonly StripeClient $stripe)
    {
    }

    public function charge(User $user, int $amount): string
    {
        $charge = $this->stripe->charges->create(['amount' => $amount, 'customer' => $user->stripe_id]);

        return $charge->id;
    }
}
""",
}
SECOND_PHP = (
    "app/Payments/FakeGateway.php",
    """<?php

namespace App\\Payments;

use App\\Contracts\\PaymentGateway;
use App\\Models\\User;

class FakeGateway implements PaymentGateway
{
    public function charge(User $user, int $amount): string
    {
        return 'fake-' . $user->id . '-' . $amount;
    }
}
""",
)


def _chunks(files: dict[str, str]) -> list[Chunk]:
    chunks = []
    for path, text in files.items():
        language = "java" if path.endswith(".java") else "php"
        chunks += chunk_file(SourceFile(path, language, text, len(text.encode())), SMALL)
    return chunks


def _call(files: dict[str, str], caller: str, callee: str, method: str) -> str | None:
    """The call ``ClaimChecker`` lets ``caller``'s chunk holding the call make to ``callee``'s ``method`` chunk."""
    chunks = _chunks(files)
    user = min((c for c in chunks if c.path == caller and f"{method}(" in c.text), key=lambda c: len(c.text))
    heads = (f"function {method}(", f"String {method}(")
    used = min((c for c in chunks if c.path == callee and any(h in c.text for h in heads)), key=lambda c: len(c.text))
    context = AnswerContext.from_chunks(chunks, [Hit(user, 1.0, user.id), Hit(used, 0.9, used.id)])
    use = ClaimChecker(context).link(user, used, context.imports([user.path, used.path]))
    return None if use is None or use.verb != "calls" else use.text


def test_a_spring_controller_reaches_the_one_implementation_of_its_service_interface() -> None:
    caller, impl = f"{BASE}/rest/DeployController.java", f"{BASE}/service/impl/DeployServiceImpl.java"
    assert _call(SPRING, caller, impl, "stopServer") == "String result = deployService.stopServer(resources);"


def test_with_two_implementations_the_spring_call_is_not_claimed() -> None:
    caller, impl = f"{BASE}/rest/DeployController.java", f"{BASE}/service/impl/DeployServiceImpl.java"
    files = dict(SPRING)
    files[SECOND_JAVA[0]] = SECOND_JAVA[1]
    assert _call(files, caller, impl, "stopServer") is None


def test_an_implementation_of_another_packages_namesake_interface_is_not_reached() -> None:
    caller, impl = f"{BASE}/rest/DeployController.java", f"{BASE}/service/impl/DeployServiceImpl.java"
    files = dict(SPRING)
    files[impl] = files[impl].replace("import com.acme.deploy.service.DeployService;",
                                      "import com.acme.legacy.DeployService;")  # fmt: skip
    assert _call(files, caller, impl, "stopServer") is None


def test_a_laravel_controller_reaches_the_one_implementation_of_its_contract() -> None:
    caller, impl = "app/Http/Controllers/CheckoutController.php", "app/Payments/StripeGateway.php"
    assert _call(LARAVEL, caller, impl, "charge") == (
        "$receipt = $this->gateway->charge($request->user(), $request->integer('amount'));"
    )
    files = dict(LARAVEL)
    files[SECOND_PHP[0]] = SECOND_PHP[1]
    assert _call(files, caller, impl, "charge") is None


def test_an_overloaded_implementation_is_not_reached() -> None:
    """``getTables()`` and ``getTables(name, startEnd)`` in one class: which one a call runs is not read by name."""
    caller, impl = f"{BASE}/rest/DeployController.java", f"{BASE}/service/impl/DeployServiceImpl.java"
    files = dict(SPRING)
    files[impl] = files[impl].replace(
        "    @Override\n    public String startServer(",
        "    public String stopServer(Deploy resources, boolean force) {\n        return stopServer(resources);\n"
        "    }\n\n    @Override\n    public String startServer(",
    )
    assert files[impl].count("public String stopServer(") == 2
    assert _call(files, caller, impl, "stopServer") is None


def test_what_counts_as_an_implementation() -> None:
    """Kotlin objects, enums, anonymous classes and sub-interfaces count (each makes the one implementation unsure);
    a generic argument (``Repo<DeployService>``) and a Kotlin constructor parameter's type do not."""
    files = {
        "src/Fakes.kt": "package com.acme\n\nobject FakeDeploy : DeployService {\n    override fun stop() = 1\n}\n",
        "src/Mode.java": "package com.acme;\n\npublic enum Mode implements DeployService {\n    ON;\n}\n",
        "src/Tasks.java": "package com.acme;\n\nclass Tasks {\n    Object t = new DeployService() {\n        int x;\n"
        "    };\n}\n",
        "src/Sub.java": "package com.acme;\n\npublic interface AuditedDeployService extends DeployService {\n}\n",
        "src/Holder.java": "package com.acme;\n\npublic class Holder extends Repo<DeployService> {\n}\n",
        "src/Runner.kt": "package com.acme\n\nclass Runner(private val deploy: DeployService) : Job {\n}\n",
    }
    chunks = []
    for path, text in files.items():
        language = "kotlin" if path.endswith(".kt") else "java"
        chunks += chunk_file(SourceFile(path, language, text, len(text.encode())), SMALL)
    hierarchy = Implementations(AnswerContext.from_chunks(chunks, []), files.__getitem__)
    assert hierarchy.implementers("DeployService") == [
        ("", "src/Tasks.java"),
        ("AuditedDeployService", "src/Sub.java"),
        ("FakeDeploy", "src/Fakes.kt"),
        ("Mode", "src/Mode.java"),
    ]


def test_a_receiver_of_the_class_itself_does_not_reach_an_overloaded_method() -> None:
    caller, impl = f"{BASE}/rest/DeployController.java", f"{BASE}/service/impl/DeployServiceImpl.java"
    files = dict(SPRING)
    files[caller] = (
        files[caller]
        .replace(
            "import com.acme.deploy.service.DeployService;", "import com.acme.deploy.service.impl.DeployServiceImpl;"
        )
        .replace("DeployService deployService", "DeployServiceImpl deployService")
    )
    assert _call(files, caller, impl, "stopServer") == "String result = deployService.stopServer(resources);"
    files[impl] = files[impl].replace(
        "    @Override\n    public String startServer(",
        "    public String stopServer(Deploy resources, boolean force) {\n        return stopServer(resources);\n"
        "    }\n\n    @Override\n    public String startServer(",
    )
    assert _call(files, caller, impl, "stopServer") is None
