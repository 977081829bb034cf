"""Chat: a Slack clone. Service layer in ``service.py``; GUI: the blueprint in ``blueprint.py``,
its views in ``routes.py`` (conversations, messages, channels) and ``routes_views.py``
(Threads, Activity, Later, channel settings, the Ctrl+K switcher, uploads, search).

Importing the package imports nothing else: the service layer, seeders and tools use it without
Flask; ``apps.create_app`` imports the GUI.
"""
