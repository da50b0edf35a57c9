"""The OpenAPI schema as the API really answers: every refusal is `{"error": code, "message": text}`.

FastAPI documents validation errors in its own `{"detail": [...]}` shape, but Miai answers them (and every
other refusal) with an error code and one clear message; the schema says so.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

ERROR_BODY = {
    "title": "Error",
    "type": "object",
    "required": ["error", "message"],
    "properties": {
        "error": {"type": "string", "description": "a stable code, e.g. bad_input, not_found, stale"},
        "message": {"type": "string", "description": "what is wrong, for people"},
    },
    "additionalProperties": True,  # some errors carry more, e.g. the current `version` of a stale move
}
_REF = {"$ref": "#/components/schemas/Error"}


def install(app: FastAPI) -> None:
    def schema() -> dict[str, Any]:
        if app.openapi_schema is None:
            spec = get_openapi(title=app.title, version=app.version, routes=app.routes)
            components = spec.setdefault("components", {}).setdefault("schemas", {})
            components.pop("HTTPValidationError", None)
            components.pop("ValidationError", None)
            components["Error"] = ERROR_BODY
            for path in spec.get("paths", {}).values():
                for operation in path.values():
                    responses = operation.setdefault("responses", {})
                    responses.pop("422", None)
                    responses["4XX"] = {
                        "description": "Refused: bad input, not allowed, not found, or a stale version",
                        "content": {"application/json": {"schema": _REF}},
                    }
            app.openapi_schema = spec
        return app.openapi_schema

    app.openapi = schema  # type: ignore[method-assign]
