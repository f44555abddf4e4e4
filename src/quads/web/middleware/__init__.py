"""The edge of the server: what every request and socket passes before a route sees
it, and the limits that keep one client from slowing the others.

* :mod:`~quads.web.middleware.connections`: how long a connection may take and how
  many may be open (uvicorn's protocol, guarded);
* :mod:`~quads.web.middleware.hosts`: which ``Host`` a request may name;
* :mod:`~quads.web.middleware.origins`: requests from other sites' pages, refused;
* :mod:`~quads.web.middleware.limits`: what a request body may be;
* :mod:`~quads.web.middleware.identity`: who is calling (the identity cookie or a
  bearer token), and the newcomers it makes;
* :mod:`~quads.web.middleware.rates`: how often one player and one address may
  create (their windows: :mod:`quads.site.windows`);
* :mod:`~quads.web.middleware.gate`: tries to sign in that would be refused, refused
  before the identity and the body cost anything;
* :mod:`~quads.web.middleware.headers`: what a browser may do with an answer;
* :mod:`~quads.web.middleware.faults`: a fault answered as JSON;
* :mod:`~quads.web.middleware.access`: the access log.
"""
