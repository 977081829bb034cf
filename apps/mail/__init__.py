"""Mail: a Gmail clone. Service layer in ``service.py``/``compose.py``; GUI: the blueprint in
``blueprint.py``, its views in ``routes.py``, ``routes_compose.py`` and ``routes_files.py``.

Importing the package imports nothing else: the service layer, seeders and tools use it without
Flask; ``apps.create_app`` imports the GUI.
"""
