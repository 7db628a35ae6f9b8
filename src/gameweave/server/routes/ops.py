"""Operations: liveness, readiness (database and Redis) and Prometheus metrics."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import text

from ..deps import HubDep
from ..schemas import Health, Ready, error_responses

router = APIRouter(tags=["ops"], responses=error_responses(429))


@router.get("/api/health", response_model=Health)
async def health() -> dict:
    """Liveness: the process answers (it asks no other service)."""
    return {"ok": True}


def _database_ok(hub) -> bool:
    try:
        with hub.store.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        return True
    except Exception:
        return False


@router.get("/api/ready", response_model=Ready, responses={503: {"model": Ready}})
async def ready(request: Request, hub: HubDep):
    """Readiness: ``200`` when the database answers (and Redis, when this node shares
    its matches with others), else ``503`` with the same body saying which failed."""
    loop = asyncio.get_running_loop()
    db = await loop.run_in_executor(None, _database_ok, hub)
    redis = None if hub.bus is None else await hub.bus.ping()
    ok = db and redis is not False
    body = {"ok": ok, "node": request.app.state.settings.node_id, "database": db, "redis": redis}
    return body if ok else JSONResponse(body, status_code=503)


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """The node's metrics in the Prometheus text format."""
    data, content_type = request.app.state.metrics.render()
    return Response(data, media_type=content_type)
