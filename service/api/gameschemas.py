"""Each hosted game's options, view and commands in the OpenAPI document.

The routes are the same for every game (``/games/{id}/actions`` takes any
game's command), so the document names each game's own schemas as
components (``FalloutOptions``, ``FalloutView``, ``FalloutCommandMove``…) and
makes the generic bodies unions of one schema per game
(``service.api.unions``).
Each game's ``examples`` become named examples of those operations, so a
client author sees a real game, not a placeholder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from apispec import APISpec

from domain.game import Game
from service.api.unions import camel, publish_unions, ref

EXAMPLE_GAME_ID = "3f2c9a7e5b1d4e6f8a0b2c4d6e8f0a1b"


def component_names(game: Game) -> tuple[str, str, dict[str, str]]:
    """The names of ``game``'s options and view components, and of each command's."""
    prefix = camel(game.name)
    commands = {kind: f"{prefix}Command{camel(kind)}" for kind in sorted(game.command_schemas)}
    return f"{prefix}Options", f"{prefix}View", commands


def publish_game_schemas(spec: APISpec, games: Sequence[Game]) -> None:
    """Add every game's schemas to ``spec`` and point the generic operations at them."""
    names = {}
    for game in games:
        options_name, view_name, _ = component_names(game)
        spec.components.schema(
            options_name,
            component={"description": f"{game.title}. Played by {game.seats.min} to {game.seats.max} seats "
                                      "(the create body's `seats`)."},
            schema=game.options_schema,
        )
        spec.components.schema(view_name, schema=game.view_schema)
        names[game.name] = (options_name, view_name)
    publish_unions(spec, games, names)
    if games:
        _examples(spec, games)


def _examples(spec: APISpec, games: Sequence[Game]) -> None:
    # apispec offers no public way to change an operation after it is
    # registered; its paths are plain dicts, so they are edited in place.
    paths: dict[str, Any] = spec._paths
    body = paths["/games/{game_id}/actions"]["post"]["requestBody"]["content"]["application/json"]
    body["schema"] = ref("Command")
    with_examples = [g for g in games if g.examples]
    if not with_examples:
        return
    body.pop("example", None)
    body["examples"] = {g.name: {"value": g.examples["actions"][0]} for g in with_examples}
    listed = paths["/games/{game_id}/actions"]["get"]["responses"]["200"]["content"]["application/json"]
    listed.pop("example", None)
    listed["examples"] = {
        g.name: {
            "value": {"game_id": EXAMPLE_GAME_ID, "game": g.name, "version": 12, "seat": 0,
                      "actions": _with_texts(g), "prompt": g.examples.get("prompt")}
        }
        for g in with_examples
    }
    state = paths["/games/{game_id}/state"]["get"]["responses"]["200"]["content"]["application/json"]
    template = state.pop("example", {})
    state["examples"] = {
        g.name: {"value": {**template, "game": g.name, "view": g.examples["view"], "prompt": g.examples.get("prompt")}}
        for g in with_examples
    }
    create = paths["/games"]["post"]["requestBody"]["content"]["application/json"]
    template = create.pop("example", {})
    create["examples"] = {
        g.name: {"value": {**template, "game": g.name, "options": g.examples["options"]}} for g in with_examples
    }
    for g in with_examples:
        for label, body in g.examples.get("games", {}).items():
            create["examples"][f"{g.name}_{label}"] = {"value": {"game": g.name, **body}}


def _with_texts(game: Game) -> list[dict[str, Any]]:
    """The example actions as GET …/actions serves them: each with its words."""
    actions, texts = game.examples["actions"], game.examples.get("texts")
    if not texts:
        return list(actions)
    return [{**action, "text": text} for action, text in zip(actions, texts, strict=True)]
