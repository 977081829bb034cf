"""Docs: a Google Docs clone. Service layer in ``service.py`` (blocks in ``blocks.py``, their styles in
``styles.py``, tables read by ``tableparse.py``; suggesting mode in ``suggest.py`` and ``review.py``;
version history in ``history.py`` and ``versions.py``; Drive images in ``images.py``; .docx in
``wordfile.py``); GUI: the blueprint in ``blueprint.py``, its views in ``routes.py``.

Importing the package imports nothing else: the service layer, seeders and tools use it without
Flask; ``apps.create_app`` imports the GUI.
"""
