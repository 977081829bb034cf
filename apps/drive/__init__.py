"""Drive: a Google Drive clone. Service layer in ``service.py``; GUI: the blueprint in
``blueprint.py``, its views in ``routes.py``.

Importing the package imports nothing else: the service layer, seeders and tools use it without
Flask; ``apps.create_app`` imports the GUI.
"""
