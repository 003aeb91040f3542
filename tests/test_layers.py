"""The layers' imports point inwards (docs/architecture.md, "Layers").

Every module under domain/, service/, api/, workers/ and cli/ is read as
source (its syntax tree, so imports inside functions and under TYPE_CHECKING
count too) and each import is checked against what its layer may import:

- domain/rules: the standard library, `domain.errors` and `domain.rules` only;
- domain: the standard library, itself, and eventsourcing's aggregate module;
  never the clock, randomness or I/O modules (rules are deterministic);
- service: domain and anything installed, but no edge and no edge framework;
- api, workers, cli (the edges): service and domain, never each other, and
  never the persistence libraries that only service/ knows.

Imports are absolute: a relative import is refused (packages have generic names).

No import circle either, inside a layer or between modules of one package
(docs/architecture.md): every import counts, at module level, under
`if TYPE_CHECKING:` and inside a function alike, since a type-only or deferred
import hides a circle but leaves it there (issue 44). Tests import no test module.

No class in service/ inherits another class of the project (issue 44, DESIGN.md
"Inside service/"): each use case is an object given its collaborators, and only the
store (service/store/application.py's MatchStore) subclasses eventsourcing's `Application`. Small
families may keep their hierarchies: errors, result values (service/results.py's
`Result`), the read models' bases and Protocols. Classes are read from the syntax trees
too, a base followed through the imports to the module defining it.
"""

from __future__ import annotations

import ast
import builtins
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("domain", "service", "api", "workers", "cli")
EDGES = frozenset({"api", "workers", "cli"})
PROJECT = frozenset({*LAYERS, "tests"})
STDLIB = frozenset(sys.stdlib_module_names)
IMPURE_STDLIB = frozenset(
    {"random", "secrets", "time", "os", "sys", "socket", "subprocess", "threading", "io"}
)
EDGE_FRAMEWORKS = frozenset(
    {"click", "flask", "flask_smorest", "flask_swagger_ui", "marshmallow", "webargs", "werkzeug"}
)
PERSISTENCE = frozenset({"eventsourcing", "psycopg", "psycopg_pool", "sqlalchemy", "alembic"})


def modules() -> list[Path]:
    """Returns every Python module of the five layers."""
    return sorted(path for layer in LAYERS for path in (ROOT / layer).rglob("*.py"))


def imported(tree: ast.AST) -> list[tuple[int, str]]:
    """Returns (line, dotted name) of every import in the tree; `from a import b` names
    `a.b` (a module or a name in `a`); a relative import is named with its dots.
    """
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def layer_of(path: Path) -> str:
    """Returns the layer a module belongs to (`domain/rules` apart from the rest of domain)."""
    parts = path.relative_to(ROOT).parts
    return "domain/rules" if parts[:2] == ("domain", "rules") else parts[0]


def within(name: str, *packages: str) -> bool:
    """Returns whether the dotted name is one of the packages or inside one."""
    return any(name == p or name.startswith(p + ".") for p in packages)


def refusal(layer: str, name: str) -> str | None:
    """Returns why `layer` may not import `name`, or None when it may."""
    top = name.split(".")[0]
    if name.startswith("."):
        return "a relative import (import absolutely: the packages have generic names)"
    if layer == "domain/rules":
        if top in STDLIB and top not in IMPURE_STDLIB:
            return None
        if within(name, "domain.errors", "domain.rules"):
            return None
        return "domain/rules imports only the standard library, domain.errors and domain.rules"
    if layer == "domain":
        if top in IMPURE_STDLIB:
            return "domain is pure: no clock, randomness or I/O"
        if top in STDLIB or top == "domain" or within(name, "eventsourcing.domain"):
            return None
        return "domain imports only the standard library, itself and eventsourcing.domain"
    if top in PROJECT - {"domain", "service", layer}:
        return f"{layer} may import service and domain only, not {top}"
    if layer == "service" and top in EDGE_FRAMEWORKS:
        return f"service keeps no edge code ({top} belongs in api/ or cli/)"
    if layer in EDGES and top in PERSISTENCE:
        return f"only service knows the persistence libraries ({top})"
    return None


def violations() -> list[str]:
    """Returns every import that breaks the rules, as `path:line: name: why`."""
    found = []
    for path in modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for line, name in imported(tree):
            why = refusal(layer_of(path), name)
            if why:
                found.append(f"{path.relative_to(ROOT)}:{line}: {name}: {why}")
    return found


def test_every_layer_imports_only_inwards():
    assert modules(), "no modules found: the test reads the wrong folder"
    assert violations() == []


def module_name(path: Path) -> str:
    """Returns the dotted name of a module of the layers (a package by its `__init__`)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Returns, for each module of the layers, the modules of the layers it imports: an
    imported name is taken to the longest module it names (`from a.b import c` names the
    module `a.b.c` when there is one, else `a.b`)."""
    paths = {module_name(path): path for path in modules()}
    graph: dict[str, set[str]] = {name: set() for name in paths}
    for name, path in paths.items():
        for _, imported_name in imported(ast.parse(path.read_text(encoding="utf-8"))):
            target = imported_name
            while target and target not in paths:
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].add(target)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Returns the graph's circles: each set of two or more modules that reach each other
    (a strongly connected component, Tarjan's algorithm), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while not component or component[-1] != node:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_import_circle_in_any_layer():
    graph = import_graph()
    assert len(graph) > 200, "no modules found: the test reads the wrong folder"
    assert circles(graph) == []


def package_graph(graph: dict[str, set[str]], layer: str = "service") -> dict[str, set[str]]:
    """Returns the import graph between the parts of a layer: each of its packages (all
    its modules as one node: `service.store`) and each module beside them (`service.matches`)."""

    def part(name: str) -> str:
        return ".".join(name.split(".")[:2])

    parts: dict[str, set[str]] = {}
    for name, imports in graph.items():
        if name.startswith(f"{layer}."):
            targets = {part(t) for t in imports if t.startswith(f"{layer}.")}
            parts.setdefault(part(name), set()).update(targets - {part(name)})
    return parts


def test_no_import_circle_between_the_packages_of_service():
    """DESIGN.md, "Inside service/": no circle inside a package or between them (issue 44):
    the facade wires the channels and the store, the channels and use cases never import
    the facade back (they name what they need as a Protocol)."""
    parts = package_graph(import_graph())
    assert {"service.store", "service.usecases", "service.queries", "service.channels"} <= set(
        parts
    ), "the packages are not where the test looks"
    assert circles(parts) == []


def test_a_circle_between_packages_is_found():
    graph = {
        "service.matches": {"service.channels.mail.desk"},
        "service.channels.mail.desk": {"service.matches"},
        "service.store.application": {"service.store.loading"},
        "service.store.loading": set(),
    }
    assert circles(package_graph(graph)) == [["service.channels", "service.matches"]]


def test_a_circle_is_found_however_long():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"f"}, "f": {"e"}}
    assert circles(graph) == [["a", "b", "c"], ["e", "f"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_graph_counts_type_only_and_function_level_imports():
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from service.store.application import MatchStore\n"
        "def late():\n    from service.scenarios.driver import matches_driver\n"
    )
    names = [name for _, name in imported(ast.parse(source))]
    assert "service.store.application.MatchStore" in names
    assert "service.scenarios.driver.matches_driver" in names


@pytest.mark.parametrize(
    ("layer", "name", "allowed"),
    [
        ("domain/rules", "hashlib", True),
        ("domain/rules", "domain.errors.InvalidOrderError", True),
        ("domain/rules", "domain.rules.contract.Ruleset", True),
        ("domain/rules", "domain.match", False),
        ("domain/rules", "random", False),
        ("domain/rules", "eventsourcing.domain", False),
        ("domain", "eventsourcing.domain.Aggregate", True),
        ("domain", "eventsourcing.application", False),
        ("domain", "time", False),
        ("domain", "service.matches", False),
        ("service", "domain.match", True),
        ("service", "psycopg", True),
        ("service", "click", False),
        ("service", "api.app", False),
        ("api", "service.matches.connect", True),
        ("api", "workers.tasks", False),
        ("api", "psycopg", False),
        ("workers", "cli.main", False),
        ("cli", "api.app.create_app", False),
        ("cli", "workers.app", False),
        ("cli", "domain.rules.registry.REGISTRY", True),
        ("cli", ".store.matches", False),
    ],
)
def test_the_rules_refuse_what_points_outwards(layer, name, allowed):
    assert (refusal(layer, name) is None) == allowed


def suite_modules() -> list[Path]:
    """Returns every Python module under tests/ (test modules, conftest, support)."""
    return sorted((ROOT / "tests").rglob("*.py"))


def names_a_test_module(name: str) -> bool:
    """Returns whether an imported dotted name runs through a `test_*` module of tests/:
    `from tests.a.test_b import x`, `import tests.a.test_b`, `from tests.a import test_b`."""
    return within(name, "tests") and any(part.startswith("test_") for part in name.split("."))


def test_no_module_imports_from_a_test_module():
    """Shared fixtures live in a conftest.py, shared helpers in tests/support/ (or a
    suite's own helper module such as tests/matrix/cells.py): a test module is never
    imported, so that running, moving or deleting one test file never changes another's
    fixtures, and no fixture is imported under a `noqa` (issue 44)."""
    assert len(suite_modules()) > 100, "no test modules found: the test reads the wrong folder"
    found = []
    for path in suite_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found += [
            f"{path.relative_to(ROOT)}:{line}: {name}"
            for line, name in imported(tree)
            if names_a_test_module(name)
        ]
    assert found == []


@pytest.mark.parametrize(
    ("name", "refused"),
    [
        ("tests.service.test_matches.started", True),
        ("tests.unit.test_match", True),
        ("tests.cli.test_match", True),  # `from tests.cli import test_match`
        ("tests.support.matches.started", False),
        ("tests.cli.conftest.drts", False),
        ("tests.matrix.cells.NOT_RUN", False),
        ("service.test_support", False),  # not under tests/
    ],
)
def test_the_check_names_every_form_of_importing_a_test_module(name, refused):
    assert names_a_test_module(name) == refused


# the roots of the families whose members may inherit (besides errors and Protocols)
FAMILIES = frozenset(
    {
        "service.results.Result",
        "service.readmodels.projections.ReadModel",
        "service.readmodels.recorders.View",
        "service.readmodels.runner.ReadModels",
    }
)
APPLICATION = "eventsourcing.application.Application"
THE_STORE = "service.store.application.MatchStore"  # the one subclass of Application


def class_index(sources: dict[str, str]) -> tuple[dict[str, list[str]], dict[str, int]]:
    """Returns the bases of every class the modules define (`module.Class` to the dotted
    names of its bases, each followed through the imports to where it is defined) and
    each class's line."""
    trees = {module: ast.parse(source) for module, source in sources.items()}
    defined = {
        module: {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
        for module, tree in trees.items()
    }
    aliases = {module: import_aliases(tree, module) for module, tree in trees.items()}

    def resolve(dotted: str, seen: frozenset[str] = frozenset()) -> str:
        module, _, name = dotted.rpartition(".")
        if dotted in seen or module not in trees or name in defined[module]:
            return dotted
        target = aliases[module].get(name)
        return dotted if target is None else resolve(target, seen | {dotted})

    bases: dict[str, list[str]] = {}
    lines: dict[str, int] = {}
    for module, tree in trees.items():
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                named = [
                    base_name(base, module, aliases[module], defined[module]) for base in node.bases
                ]
                bases[f"{module}.{node.name}"] = [resolve(name) for name in named if name]
                lines[f"{module}.{node.name}"] = node.lineno
    return bases, lines


def import_aliases(tree: ast.Module, module: str) -> dict[str, str]:
    """Returns what each name a module imports at its top (or under TYPE_CHECKING) stands
    for, as a dotted name."""
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found[alias.asname or alias.name.partition(".")[0]] = (
                    alias.name if alias.asname else alias.name.partition(".")[0]
                )
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                found[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return found


def base_name(node: ast.expr, module: str, aliases: dict[str, str], local: set[str]) -> str:
    """Returns the dotted name a base expression names (`Generic[K]` names `Generic`)."""
    if isinstance(node, ast.Subscript):
        return base_name(node.value, module, aliases, local)
    if isinstance(node, ast.Name):
        if node.id in local:
            return f"{module}.{node.id}"
        return aliases.get(node.id, f"builtins.{node.id}")
    if isinstance(node, ast.Attribute):
        owner = base_name(node.value, module, aliases, local)
        return f"{owner}.{node.attr}" if owner else ""
    return ""


def inheritance_refusals(sources: dict[str, str], inside: str = "service") -> list[str]:
    """Returns each class under `inside` that inherits a class of the project outside the
    allowed families, or subclasses Application though it is not the store."""
    bases, lines = class_index(sources)

    def allowed(name: str, seen: frozenset[str] = frozenset()) -> bool:
        if name in FAMILIES or name in seen:
            return True
        own = bases.get(name)
        if own is None:  # not the project's: an error, a Protocol?
            kind = getattr(builtins, name.removeprefix("builtins."), None)
            return (isinstance(kind, type) and issubclass(kind, BaseException)) or name in (
                "typing.Protocol",
                "typing_extensions.Protocol",
            )
        return bool(own) and any(allowed(base, seen | {name}) for base in own)

    found = []
    for name, own in sorted(bases.items()):
        if not name.startswith(f"{inside}."):
            continue
        where = f"{name} (line {lines[name]})"
        for base in own:
            if base == APPLICATION and name != THE_STORE:
                found.append(f"{where}: only {THE_STORE} subclasses {APPLICATION}")
            elif base in bases and not allowed(base):
                found.append(f"{where}: inherits {base}, a class of the project")
    return found


def layer_sources() -> dict[str, str]:
    return {module_name(path): path.read_text(encoding="utf-8") for path in modules()}


def test_no_class_in_service_inherits_a_class_of_the_project():
    sources = layer_sources()
    bases, _ = class_index(sources)
    assert bases.get(THE_STORE) == [APPLICATION], "the store is not where the test looks"
    assert inheritance_refusals(sources) == []


def test_a_mixin_tower_is_refused_and_the_small_families_are_not():
    sources = {
        "service.store.application": "from eventsourcing.application import Application\n"
        "class MatchStore(Application[int]):\n    pass\n",
        "service.queries.reads": "from service.store.application import MatchStore\n"
        "class Reads(MatchStore): ...\n",
        "service.tower": "from service.queries import reads\nclass Top(reads.Reads): ...\n",
        "service.other": "import eventsourcing.application as es\nclass Two(es.Application): ...\n",
        "service.results": "class Result: ...\nclass Head(Result): ...\n",
        "service.errors": "from domain.errors import DrtsError\n"
        "class Gone(DrtsError, LookupError): ...\nclass Worse(Gone): ...\n",
        "service.ports": "from typing import Protocol\nclass Port(Protocol): ...\n"
        "class Wider(Port, Protocol): ...\n",
        "domain.errors": "class DrtsError(Exception): ...\n",
    }
    refused = inheritance_refusals(sources)
    assert [line.partition(" ")[0] for line in refused] == [
        "service.other.Two",
        "service.queries.reads.Reads",
        "service.tower.Top",
    ]
