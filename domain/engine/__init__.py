"""Pieces every game engine in ``domain/`` builds on.

- ``resolution``: ``Resolution``, the emit-and-fold through which ``decide``
  produces its events (the state a command leaves is its events' fold);
- ``decisions``: pending decisions answered by sending one listed choice back;
- ``rulebook``: ``Rulebook``, the one table a game's rule modules register
  their commands, decision answers, event folds and event schemas in;
- ``dispatch``: ``RulebookGame``, the one order in which a command is decided
  from the table, and the lapsed-turn default;
- ``effects``: ``Effects``, a game's effect interpreter (handlers registered
  where they are defined, the step that runs the next effect);
- ``frames``: ``settle`` and ``Frames``, carrying a resolution on until a seat
  must decide, over a stack of frames;
- ``shapes``: short constructors for the fields of event and command data;
- ``records``: a fast ``replace`` for frozen state records, and ``Draft``,
  their copy-on-write for folds;
- ``packs``: loading YAML content packs with every problem reported at once.

Nothing here names a game.
"""
