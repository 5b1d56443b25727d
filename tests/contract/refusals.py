"""The refusal codes a game's source can raise, read as Python (``ast``).

A refusal is built by ``RuleViolation(code, message, rule, kind)``, by
``domain.game.malformed(code, ...)`` (kind MALFORMED), or by a helper of the
game's that hands its first parameter on to one of those (Fallout's setup
``_bad(code, message)``): each such call with a literal code is a code the
game can refuse with, of the kind the call names (NOT_NOW by default). A code
may also be a lookup in a module-level dict of literal codes
(``_CANNOT[kind]``): then each of its values is. Any other code (an f-string,
a variable) cannot be read, and the scan reports where, so a game writes its
codes where the suite can check them.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from domain.engine.dispatch import RulebookGame
from domain.game import Game, Refusal

#: The contract's own refusal builders, with the kind each fixes (None: the call's ``kind``).
BUILDERS: dict[str, Refusal | None] = {"RuleViolation": None, "malformed": Refusal.MALFORMED}
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Scan:
    #: (kind, code) of every refusal the source can build.
    codes: set[tuple[Refusal, str]] = field(default_factory=set)
    #: Where a refusal's code is neither a literal nor a lookup in a dict of literals.
    unread: list[str] = field(default_factory=list)


def _name(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _argument(call: ast.Call, at: int, name: str) -> ast.expr | None:
    if len(call.args) > at:
        return call.args[at]
    return next((k.value for k in call.keywords if k.arg == name), None)


def _kind(call: ast.Call, builders: dict[str, Refusal | None]) -> Refusal:
    fixed = builders[_name(call) or ""]
    if fixed is not None:
        return fixed
    kind = _argument(call, 3, "kind")
    if kind is None:
        return Refusal.NOT_NOW
    assert isinstance(kind, ast.Attribute), f"a refusal's kind is a Refusal member: {ast.unparse(kind)}"
    return Refusal[kind.attr]


def _helpers(trees: Iterable[ast.Module], builders: dict[str, Refusal | None]) -> dict[str, Refusal | None]:
    """``builders`` and every function that returns or raises one of them on its own first parameter."""
    found = dict(builders)
    grown = True
    while grown:
        grown = False
        for tree in trees:
            for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name not in found):
                first = function.args.args[0].arg if function.args.args else None
                for node in ast.walk(function):
                    built = node.value if isinstance(node, ast.Return) else node.exc if isinstance(node, ast.Raise) else None
                    if isinstance(built, ast.Call) and _name(built) in found and first is not None:
                        code = _argument(built, 0, "code")
                        if isinstance(code, ast.Name) and code.id == first:
                            found[function.name] = _kind(built, found)
                            grown = True
                            break
    return found


def _literal_dicts(tree: ast.Module) -> dict[str, list[str]]:
    """Module-level ``NAME = {key: "code", ...}``: the codes a lookup in NAME can give."""
    out: dict[str, list[str]] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else getattr(
            node, "target", None
        )
        value = getattr(node, "value", None)
        if isinstance(target, ast.Name) and isinstance(value, ast.Dict):
            codes = [v.value for v in value.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
            if len(codes) == len(value.values):
                out[target.id] = codes
    return out


def scan(paths: Iterable[Path]) -> Scan:
    """Every refusal the files at ``paths`` can build."""
    sources = {path: ast.parse(path.read_text(), str(path)) for path in paths}
    builders = _helpers(sources.values(), BUILDERS)
    result = Scan()
    for path, tree in sources.items():
        tables = _literal_dicts(tree)
        relays = {
            (id(call), function.args.args[0].arg)
            for function in ast.walk(tree)
            if isinstance(function, ast.FunctionDef) and function.name in builders and function.args.args
            for call in ast.walk(function)
            if isinstance(call, ast.Call)
        }
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call) and _name(n) in builders):
            code = _argument(call, 0, "code")
            kind = _kind(call, builders)
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                result.codes.add((kind, code.value))
            elif isinstance(code, ast.Name) and (id(call), code.id) in relays:
                continue  # a helper handing its own parameter on: its callers name the codes
            elif isinstance(code, ast.Subscript) and isinstance(code.value, ast.Name) and code.value.id in tables:
                result.codes.update((kind, found) for found in tables[code.value.id])
            else:
                where = f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{call.lineno}"
                result.unread.append(f"{where}: {ast.unparse(call)[:100]}")
    return result


def package_of(game: Game) -> Path:
    """The folder of the game's rules: the package of the class that names the game.

    A subclass that changes a game's behaviour (the suite's breaches) keeps its
    name, and so the source it is checked against.
    """
    namer = next(kind for kind in type(game).__mro__ if "name" in vars(kind))
    module = sys.modules[namer.__module__]
    assert module.__file__ is not None
    return Path(module.__file__).parent


def raised_by(game: Game, with_kit: bool = False) -> Scan:
    """The refusals the game's package can build; ``with_kit``, also those of the engine kit's command
    dispatch where the game decides through it (``RulebookGame`` raises the refusals such games share, some
    only for a game that has what they guard, such as commands only the system may send)."""
    kit = [ROOT / "domain" / "engine" / "dispatch.py"] if with_kit and isinstance(game, RulebookGame) else []
    return scan(sorted(package_of(game).rglob("*.py")) + kit)


def of_the_contract() -> set[tuple[Refusal, str]]:
    """The refusals the contract's own methods build (``Game.resolve_options``, ``Game.check_command``)."""
    return scan([ROOT / "domain" / "game.py"]).codes


def declared(game: Game) -> set[tuple[Refusal, str]]:
    return {(kind, code) for kind, by_code in game.refusals.items() for code in by_code}
