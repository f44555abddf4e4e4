"""The web app: a JSON API over the library and the saved games, and the page.

``quads serve`` runs it (:func:`quads.web.app.create_app`).  FastAPI is
imported by the modules of this package only, never by the core; the API
itself is described in ``docs/web-api.md``.
"""
