"""The explorer: what people played in a position on this site, and how it went
(:mod:`quads.site.explorer.service`)."""
