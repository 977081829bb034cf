"""The workspace shell, an app of its own: the home page, cross-app search, the local-file picker,
directory suggestions, and the vendored front-end files (htmx, fonts, the favicon).

The blueprint is in ``blueprint.py``, its views in ``routes.py`` (registered by ``apps.create_app``),
the vendored packages' locations in ``vendor.py``. The shell may use Mail and Drive (search, the
home page); no app uses the shell.
"""
