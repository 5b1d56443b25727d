"""The map: which spaces touch, for survivors and for enemies.

Survivors walk only on face-up tiles, from space to adjacent space. Enemies
also cross face-down tiles, each of which counts as a single space (Activating
Enemies), so they walk a second graph whose nodes are the spaces of face-up
tiles plus one node per face-down place.

Across two tiles, adjacency follows the edge convention in ``model.py``: half
``i`` of edge ``d`` meets half ``1 - i`` of the facing edge ``(d + 3) % 6``.
Which tile lies under each place is fixed at setup, so one ``Board`` serves a
whole game; what changes is only which places are face up, and every query
takes that set.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any, Final

from domain.fallout.content import pack_named
from domain.fallout.model import DIRECTIONS, Pack, Scenario, Space, Tile
from domain.fallout.state import FACE_DOWN, GameState, face_down_node


def _neighbours(scenario: Scenario) -> dict[str, dict[int, str]]:
    """Which place lies across each edge of each of the scenario's places, worked out once per scenario
    (a greedy bot's sampled worlds each lay other tiles face down, so each builds a board)."""
    found = _NEIGHBOURS.get(id(scenario))
    if found is not None and found[0] is scenario:
        return found[1]
    by_coord = {(p.q, p.r): p.id for p in scenario.places}
    neighbours: dict[str, dict[int, str]] = {}
    for place in scenario.places:
        neighbours[place.id] = {}
        for d, (dq, dr) in enumerate(DIRECTIONS):
            other = by_coord.get((place.q + dq, place.r + dr))
            if other is not None:
                neighbours[place.id][d] = other
    _NEIGHBOURS[id(scenario)] = (scenario, neighbours)
    return neighbours


def _edges(tile: Tile) -> tuple[tuple[str, ...], ...]:
    """The spaces touching each of the tile's six edges, once each, worked out once per tile."""
    found = _EDGES.get(id(tile))
    if found is not None and found[0] is tile:
        return found[1]
    edges = tuple(tuple(dict.fromkeys(h for h in halves if h)) for halves in tile.edges)
    _EDGES[id(tile)] = (tile, edges)
    return edges


class _TileParts:
    """What a board takes of one tile wherever it lies, worked out once per tile (a greedy bot's every
    sampled world lays other tiles face down, so each builds a board): its spaces by id, each space's
    links inside the tile, and the spaces on each of its edges."""

    def __init__(self, tile: Tile):
        self.tile = tile
        self.ids = tuple(s.id for s in tile.spaces)
        self.spaces = tuple((s.id, s) for s in tile.spaces)
        inside: dict[str, set[str]] = {}
        for a, b in tile.links:
            inside.setdefault(a, set()).add(b)
            inside.setdefault(b, set()).add(a)
        self.inside = {sid: tuple(linked) for sid, linked in inside.items()}
        self.edges = _edges(tile)


def _tile_parts(tile: Tile) -> _TileParts:
    found = _PARTS.get(id(tile))
    if found is None or found.tile is not tile:
        found = _PARTS[id(tile)] = _TileParts(tile)
    return found


_NEIGHBOURS: dict[int, tuple[Scenario, dict[str, dict[int, str]]]] = {}
_EDGES: dict[int, tuple[Tile, tuple[tuple[str, ...], ...]]] = {}
_PARTS: dict[int, _TileParts] = {}


class Board:
    def __init__(self, pack: Pack, scenario: Scenario, tile_at: dict[str, str]):
        self.pack = pack
        self.scenario = scenario
        self.tile_at = dict(tile_at)
        self.spaces: dict[str, Space] = {}
        self.place_of: dict[str, str] = {}
        self.tile_spaces: dict[str, tuple[str, ...]] = {}
        # place -> edge direction -> neighbouring place (shared by every board of the scenario: read only)
        self.neighbours = _neighbours(scenario)
        # What each place's tile brings, by place: its spaces, their links inside it, the spaces on each edge.
        self._parts: dict[str, _TileParts] = {}
        for place_id, tile_id in tile_at.items():
            parts = self._parts[place_id] = _tile_parts(pack.tiles[tile_id])
            self.tile_spaces[place_id] = parts.ids
            self.spaces.update(parts.spaces)
            self.place_of.update(dict.fromkeys(parts.ids, place_id))
        # Each space's links, worked out when first asked (``linked``): a bot's every sampled world lays other
        # tiles face down and builds a board of its own, and asks after the spaces of a few tiles only.
        self._links: dict[str, tuple[str, ...]] = {}
        self._enemy_links: dict[frozenset[str], dict[str, tuple[str, ...]]] = {}
        self._distances: dict[tuple[frozenset[str], str], dict[str, int]] = {}
        self._explorable: dict[tuple[str, frozenset[str]], tuple[str, ...]] = {}

    def edge_spaces(self, place: str, direction: int) -> tuple[str, ...]:
        """The spaces of ``place``'s tile touching its edge ``direction``."""
        return self._parts[place].edges[direction]

    def linked(self, space: str) -> tuple[str, ...]:
        """The spaces adjacent to ``space`` whatever is face up: linked inside its tile, or meeting it across an
        edge (the edge convention in ``model.py``), sorted."""
        found = self._links.get(space)
        if found is None:
            found = self._links[space] = self._linked(space)
        return found

    def _linked(self, space: str) -> tuple[str, ...]:
        place = self.place_of.get(space)
        if place is None:
            return ()
        parts = self._parts[place]
        links = set(parts.inside.get(space, ()))
        tile = parts.tile
        for d, other in self.neighbours[place].items():
            other_parts = self._parts.get(other)
            if other_parts is None:
                continue
            facing = other_parts.tile.edges[(d + 3) % 6]
            for i, half in enumerate(tile.edges[d]):
                if half == space and facing[1 - i]:
                    links.add(facing[1 - i])
        return tuple(sorted(links))

    # -- survivors ---------------------------------------------------------

    def adjacent_spaces(self, space: str, faceup: frozenset[str]) -> tuple[str, ...]:
        """Spaces a survivor may step to: adjacent and on a face-up tile."""
        return tuple(n for n in self.linked(space) if self.place_of[n] in faceup)

    def explorable_places(self, space: str, faceup: frozenset[str]) -> tuple[str, ...]:
        """Face-down places whose edge the survivor's space touches (Explore Action)."""
        # Asked for every legal-actions list of a turn; the answer changes only when a tile is explored.
        key = (space, faceup)
        found = self._explorable.get(key)
        if found is None:
            if len(self._explorable) > 4096:
                self._explorable.clear()
            found = self._explorable[key] = self._explorable_places(space, faceup)
        return found

    def _explorable_places(self, space: str, faceup: frozenset[str]) -> tuple[str, ...]:
        place = self.place_of.get(space)
        if place is None:
            return ()
        out = []
        for d, other in self.neighbours[place].items():
            if other not in faceup and other in self.tile_at and space in self.edge_spaces(place, d):
                out.append(other)
        return tuple(sorted(set(out)))

    # -- enemies -----------------------------------------------------------

    def node_exists(self, node: str, faceup: frozenset[str]) -> bool:
        if node.startswith(FACE_DOWN):
            place = node[len(FACE_DOWN):]
            return place in self.tile_at and place not in faceup
        return node in self.place_of and self.place_of[node] in faceup

    def enemy_neighbours(self, node: str, faceup: frozenset[str]) -> tuple[str, ...]:
        graph = self._enemy_links.get(faceup)
        if graph is None:
            shape = self._shape(faceup)
            shared = _ENEMY_GRAPHS.get(shape)
            if shared is None or shared[0] is not self.pack or shared[1] is not self.scenario:
                if len(_ENEMY_GRAPHS) > 1024:
                    _ENEMY_GRAPHS.clear()
                shared = _ENEMY_GRAPHS[shape] = (self.pack, self.scenario, self._build_enemy_graph(faceup))
            graph = self._enemy_links[faceup] = shared[2]
        return graph.get(node, ())

    def _build_enemy_graph(self, faceup: frozenset[str]) -> dict[str, tuple[str, ...]]:
        graph: dict[str, set[str]] = {}
        for place_id in self.tile_at:
            if place_id in faceup:
                for space in self.tile_spaces[place_id]:
                    graph.setdefault(space, set()).update(self.adjacent_spaces(space, faceup))
            else:
                graph.setdefault(face_down_node(place_id), set())
        for place_id in self.tile_at:
            if place_id in faceup:
                continue
            node = face_down_node(place_id)
            for d, other in self.neighbours[place_id].items():
                if other not in self.tile_at:
                    continue
                if other in faceup:
                    touching = self.edge_spaces(other, (d + 3) % 6)
                else:
                    touching = (face_down_node(other),)
                for n in touching:
                    graph[node].add(n)
                    graph.setdefault(n, set()).add(node)
        return {n: tuple(sorted(s)) for n, s in graph.items()}

    def distances(self, source: str, faceup: frozenset[str]) -> dict[str, int]:
        """Enemy-graph distance from ``source`` to every node (face-down tiles count once)."""
        key = (faceup, source)
        found = self._distances.get(key)
        if found is None:
            shape = (self._shape(faceup), source)
            shared = _DISTANCES.get(shape)
            if shared is not None and shared[0] is self.pack and shared[1] is self.scenario:
                found = self._distances[key] = shared[2]
                return found
            found = {source: 0}
            queue = deque([source])
            while queue:
                node = queue.popleft()
                for n in self.enemy_neighbours(node, faceup):
                    if n not in found:
                        found[n] = found[node] + 1
                        queue.append(n)
            if len(self._distances) > 4096:
                self._distances.clear()
            self._distances[key] = found
            if len(_DISTANCES) > 16384:
                _DISTANCES.clear()
            _DISTANCES[shape] = (self.pack, self.scenario, found)
        return found

    def _shape(self, faceup: frozenset[str]) -> tuple:
        """What the enemies' graph reads of this board with ``faceup`` up: the tiles face up and the places
        face down (one node each, whatever tile lies under them). Boards of one shape, such as a bot's
        sampled worlds laying other tiles face down, share their graphs and distances (``_ENEMY_GRAPHS``)."""
        return (
            id(self.pack), id(self.scenario), faceup,
            tuple((p, t) for p, t in self.tile_at.items() if p in faceup),
            tuple(p for p in self.tile_at if p not in faceup),
        )

    def enemy_icon_spaces(self, enemy_type: str, faceup: frozenset[str]) -> tuple[str, ...]:
        return tuple(
            s
            for place in sorted(faceup)
            for s in self.tile_spaces.get(place, ())
            if enemy_type in self.spaces[s].enemy_icons
        )

    def nearest(self, source: str, targets: Iterable[str], faceup: frozenset[str]) -> tuple[str, ...]:
        """The targets closest to ``source``; several when they tie."""
        dist = self.distances(source, faceup)
        reachable = [(dist[t], t) for t in targets if t in dist]
        if not reachable:
            return ()
        best = min(d for d, _ in reachable)
        return tuple(sorted(t for d, t in reachable if d == best))


_BOARDS: Final[dict[tuple, Board]] = {}
#: The enemies' graphs and distances by the shape of the board they were worked out on (``Board._shape``),
#: with the pack and scenario they were read from: (pack, scenario, graph or distances).
_ENEMY_GRAPHS: dict[tuple, tuple[Pack, Scenario, dict[str, tuple[str, ...]]]] = {}
_DISTANCES: dict[tuple, tuple[Pack, Scenario, dict[str, int]]] = {}


#: The last board looked up, by the very tuple of places it was built for: the
#: places change only when a tile is explored, and a state carries its tuple
#: along unchanged, so most lookups stop here.
_LAST: Final[list[tuple[Any, str, str, Board]]] = []


def board_of(state: GameState) -> Board:
    if _LAST:
        places, pack_id, scenario, found = _LAST[0]
        if places is state.places and pack_id == state.pack and scenario == state.scenario:
            return found
    board = _board_of(state)
    _LAST[:] = [(state.places, state.pack, state.scenario, board)]
    return board


def _board_of(state: GameState) -> Board:
    pack = pack_named(state.pack)
    tile_at = tuple((p.id, p.tile) for p in state.places if p.tile is not None)
    key = (id(pack), state.scenario, tile_at)
    board = _BOARDS.get(key)
    if board is None:
        if len(_BOARDS) > 256:
            _BOARDS.clear()
        board = _BOARDS[key] = Board(pack, pack.scenarios[state.scenario], dict(tile_at))
    return board
