"""A bounded property-based fuzz of every operation in the OpenAPI schema (schemathesis).

Whatever is sent, the answer is never a server error, its status code is one the schema
documents, and its body matches the documented model (errors: {code, message}).
"""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.app import app

schema = schemathesis.openapi.from_asgi("/openapi.json", app)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@schema.parametrize()
@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_api_against_its_schema(case):
    case.call_and_validate(checks=CHECKS)
