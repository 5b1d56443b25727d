"""Content packs bundled with the package.

Each pack directory is a package (with an empty ``__init__.py``) only so that
setuptools ships its YAML as package data; the loader reads it through
``importlib.resources``.
"""
