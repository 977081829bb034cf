"""Slides: a Google Slides clone. Service layer in ``service.py`` (decks, slides, layout boxes, exports),
``objects.py`` (text boxes, shapes, lines, images: insert, move, resize, align, order, format),
``looks.py`` (theme, background), ``comments.py``, ``history.py`` (undo/redo); units, limits and
reading objects in ``shapes.py``; the .pptx writer's object part in ``pptx_objects.py``. GUI: the
blueprint in ``blueprint.py``, its views in ``routes.py`` and ``routes_objects.py``, drawn by
``render.py``.

Importing the package imports nothing else: the service layer, seeders and tools use it without
Flask; ``apps.create_app`` imports the GUI.
"""
