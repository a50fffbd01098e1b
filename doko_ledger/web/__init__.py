"""`doko serve`: the web app over the ledger (FastAPI routers for nights, games and the JSON API;
Jinja2 templates; static CSS and JS). Imported only by `doko serve` and the web tests."""
