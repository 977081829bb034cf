"""The ground floor: the store, worlds, files, people, addresses, errors, ids and the app registry.

Nothing here imports Flask, the web layer or an app."""
