"""Content packs bundled with the package (YAML read through importlib.resources)."""
