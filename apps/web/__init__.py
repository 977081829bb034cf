"""The web floor: one way to answer a request (``render``), who is signed in (``session``), the
Jinja set-up (``templating``), the URL converters (``routing``), the templates every app shares
(``templates/``: the page layout, dialogs, toasts, macros) and the workspace's own JavaScript and
CSS (``static/``). It imports ``apps.core`` and no app."""
