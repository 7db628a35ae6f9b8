"""The HTTP routers, one per resource: ``lobby`` (bots, creating, joining, listing),
``matches`` (a seat's match, view, records, replays), ``ops`` (health, readiness,
metrics) and ``pages`` (the browser page and the offline API docs)."""
