/* tslint:disable */
/* eslint-disable */
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import type { TsoaRoute } from '@tsoa/runtime';
import {  fetchMiddlewares, ExpressTemplateService } from '@tsoa/runtime';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { ScopeWebhooksController } from './controllers/webhooks.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { WebhooksController } from './controllers/webhooks.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { WebhookKeyController } from './controllers/webhooks.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { WebhookKeyAdminController } from './controllers/webhooks.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { TenantsController } from './controllers/tenants.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { SearchController } from './controllers/search.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { ScopesController } from './controllers/scopes.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { RulesController } from './controllers/rules.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { RuleShadowController } from './controllers/rule-shadow.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { ReferencesController } from './controllers/references.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { PrincipalsController } from './controllers/principals.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { OverridesController } from './controllers/overrides.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { NamespacesController } from './controllers/namespaces.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { LinksController } from './controllers/links.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { InvariantsController } from './controllers/invariants.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { EventsController } from './controllers/events.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { DecisionsController } from './controllers/decisions.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { ApprovalsController } from './controllers/approvals.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { ApiKeysController } from './controllers/api-keys.controller';
import { expressAuthentication } from './http/authentication';
// @ts-ignore - no great way to install types from subpackage
import { iocContainer } from './http/ioc';
import type { IocContainer, IocContainerFactory } from '@tsoa/runtime';
import type { Request as ExRequest, Response as ExResponse, RequestHandler, Router } from 'express';

const expressAuthenticationRecasted = expressAuthentication as (req: ExRequest, securityName: string, scopes?: string[], res?: ExResponse) => Promise<any>;


// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

const models: TsoaRoute.Models = {
    "ErrorBody": {
        "dataType": "refObject",
        "properties": {
            "detail": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CreatedWebhookSubscription": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "version": {"dataType":"double","required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "id": {"dataType":"string","required":true},
            "scope_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "url": {"dataType":"string","required":true},
            "events": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "description": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "deciders": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["active"]},{"dataType":"enum","enums":["disabled"]}],"required":true},
            "consecutive_failures": {"dataType":"double","required":true},
            "disabled_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "disabled_reason": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "last_success_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "last_failure_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "secret_created_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "previous_secret_expires_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "secret": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "EventTypeName": {
        "dataType": "refAlias",
        "type": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":100}}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "DeciderId": {
        "dataType": "refAlias",
        "type": {"dataType":"string","validators":{"pattern":{"value":"^(agn-[0-9a-f]{24}|hum-[0-9a-f]{24}|role-[a-z0-9][a-z0-9_.-]{0,62})$"}}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CreateWebhookBody": {
        "dataType": "refObject",
        "properties": {
            "url": {"dataType":"string","required":true,"validators":{"maxLength":{"value":2048}}},
            "events": {"dataType":"array","array":{"dataType":"refAlias","ref":"EventTypeName"},"required":true,"validators":{"minItems":{"value":1},"maxItems":{"value":50}}},
            "description": {"dataType":"string","validators":{"maxLength":{"value":2000}}},
            "deciders": {"dataType":"array","array":{"dataType":"refAlias","ref":"DeciderId"},"validators":{"maxItems":{"value":100}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "WebhookSubscription": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "version": {"dataType":"double","required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "id": {"dataType":"string","required":true},
            "scope_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "url": {"dataType":"string","required":true},
            "events": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "description": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "deciders": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["active"]},{"dataType":"enum","enums":["disabled"]}],"required":true},
            "consecutive_failures": {"dataType":"double","required":true},
            "disabled_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "disabled_reason": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "last_success_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "last_failure_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "secret_created_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "previous_secret_expires_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_WebhookSubscription_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"WebhookSubscription"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "UpdateWebhookBody": {
        "dataType": "refObject",
        "properties": {
            "url": {"dataType":"string","validators":{"maxLength":{"value":2048}}},
            "events": {"dataType":"array","array":{"dataType":"refAlias","ref":"EventTypeName"},"validators":{"minItems":{"value":1},"maxItems":{"value":50}}},
            "description": {"dataType":"string","validators":{"maxLength":{"value":2000}}},
            "deciders": {"dataType":"array","array":{"dataType":"refAlias","ref":"DeciderId"},"validators":{"maxItems":{"value":100}}},
            "active": {"dataType":"boolean"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "WebhookSecretRotation": {
        "dataType": "refObject",
        "properties": {
            "subscription_id": {"dataType":"string","required":true},
            "secret": {"dataType":"string","required":true},
            "secret_created_at": {"dataType":"string","required":true},
            "previous_secret_expires_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RotateWebhookSecretBody": {
        "dataType": "refObject",
        "properties": {
            "overlap_seconds": {"dataType":"integer","validators":{"minimum":{"value":0},"maximum":{"value":604800}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "WebhookAttempt": {
        "dataType": "refObject",
        "properties": {
            "attempt": {"dataType":"double","required":true},
            "outcome": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["in_flight"]},{"dataType":"enum","enums":["succeeded"]},{"dataType":"enum","enums":["failed"]},{"dataType":"enum","enums":["interrupted"]}],"required":true},
            "status_code": {"dataType":"union","subSchemas":[{"dataType":"double"},{"dataType":"enum","enums":[null]}],"required":true},
            "error": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "duration_ms": {"dataType":"union","subSchemas":[{"dataType":"integer"},{"dataType":"enum","enums":[null]}],"required":true},
            "key_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "started_at": {"dataType":"string","required":true},
            "finished_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "WebhookDelivery": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "tenant_id": {"dataType":"string","required":true},
            "subscription_id": {"dataType":"string","required":true},
            "event_id": {"dataType":"string","required":true},
            "event_type": {"dataType":"string","required":true},
            "status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["pending"]},{"dataType":"enum","enums":["succeeded"]},{"dataType":"enum","enums":["failed"]},{"dataType":"enum","enums":["cancelled"]}],"required":true},
            "attempt_count": {"dataType":"integer","required":true},
            "max_attempts": {"dataType":"double","required":true},
            "next_attempt_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "last_status_code": {"dataType":"union","subSchemas":[{"dataType":"double"},{"dataType":"enum","enums":[null]}],"required":true},
            "last_error": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "delivered_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "attempts": {"dataType":"array","array":{"dataType":"refObject","ref":"WebhookAttempt"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_WebhookDelivery_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"WebhookDelivery"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "WebhookPublicKey": {
        "dataType": "refObject",
        "properties": {
            "kid": {"dataType":"string","required":true},
            "alg": {"dataType":"enum","enums":["ES256"],"required":true},
            "jwk": {"dataType":"nestedObjectLiteral","nestedProperties":{"use":{"dataType":"string","required":true},"alg":{"dataType":"string","required":true},"kid":{"dataType":"string","required":true},"y":{"dataType":"string","required":true},"x":{"dataType":"string","required":true},"crv":{"dataType":"string","required":true},"kty":{"dataType":"string","required":true}},"required":true},
            "pem": {"dataType":"string","required":true},
            "not_before": {"dataType":"string","required":true},
            "not_after": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "WebhookKeySet": {
        "dataType": "refObject",
        "properties": {
            "kid": {"dataType":"string","required":true},
            "alg": {"dataType":"enum","enums":["ES256"],"required":true},
            "jwk": {"dataType":"nestedObjectLiteral","nestedProperties":{"use":{"dataType":"string","required":true},"alg":{"dataType":"string","required":true},"kid":{"dataType":"string","required":true},"y":{"dataType":"string","required":true},"x":{"dataType":"string","required":true},"crv":{"dataType":"string","required":true},"kty":{"dataType":"string","required":true}},"required":true},
            "pem": {"dataType":"string","required":true},
            "not_before": {"dataType":"string","required":true},
            "not_after": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "keys": {"dataType":"array","array":{"dataType":"refObject","ref":"WebhookPublicKey"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "WebhookKeyRotation": {
        "dataType": "refObject",
        "properties": {
            "mode": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["scheduled"]},{"dataType":"enum","enums":["emergency"]}],"required":true},
            "kid": {"dataType":"string","required":true},
            "retired": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "keys": {"dataType":"array","array":{"dataType":"refObject","ref":"WebhookPublicKey"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RotateWebhookKeyBody": {
        "dataType": "refObject",
        "properties": {
            "mode": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["scheduled"]},{"dataType":"enum","enums":["emergency"]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ScopeFieldSchema": {
        "dataType": "refObject",
        "properties": {
            "allowed_values": {"dataType":"array","array":{"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"double"},{"dataType":"boolean"}]}},
            "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["string"]},{"dataType":"enum","enums":["number"]},{"dataType":"enum","enums":["boolean"]}]},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ContextFieldSchema": {
        "dataType": "refObject",
        "properties": {
            "type": {"dataType":"string"},
            "description": {"dataType":"string"},
            "allowed_values": {"dataType":"array","array":{"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"double"},{"dataType":"boolean"}]}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RateLimitSettings": {
        "dataType": "refObject",
        "properties": {
            "tier": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["standard"]},{"dataType":"enum","enums":["enterprise"]}]},
            "requests_per_minute": {"dataType":"integer","validators":{"minimum":{"value":1}}},
            "burst": {"dataType":"integer","validators":{"minimum":{"value":1}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ChatWebhook": {
        "dataType": "refObject",
        "properties": {
            "url": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":2048}}},
            "format": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["slack"]},{"dataType":"enum","enums":["teams"]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ApprovalNotificationSettings": {
        "dataType": "refObject",
        "properties": {
            "chat_webhooks": {"dataType":"array","array":{"dataType":"refObject","ref":"ChatWebhook"},"validators":{"maxItems":{"value":20}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RetentionSettings": {
        "dataType": "refObject",
        "properties": {
            "consultations": {"dataType":"string","validators":{"pattern":{"value":"^[1-9][0-9]{0,9}[smhd]$"}}},
            "deliveries": {"dataType":"string","validators":{"pattern":{"value":"^[1-9][0-9]{0,9}[smhd]$"}}},
            "events": {"dataType":"string","validators":{"pattern":{"value":"^[1-9][0-9]{0,9}[smhd]$"}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "TenantSettings": {
        "dataType": "refObject",
        "properties": {
            "scope_schema": {"dataType":"nestedObjectLiteral","nestedProperties":{"fields":{"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"ref":"ScopeFieldSchema"},"required":true}}},
            "context_schema": {"dataType":"nestedObjectLiteral","nestedProperties":{"fields":{"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"ref":"ContextFieldSchema"},"required":true}}},
            "default_verdict": {"dataType":"string"},
            "verdict_ttl_seconds": {"dataType":"integer","validators":{"minimum":{"value":1},"maximum":{"value":3600}}},
            "max_resolve_rounds": {"dataType":"integer","validators":{"minimum":{"value":1},"maximum":{"value":100}}},
            "rate_limit": {"ref":"RateLimitSettings"},
            "approval_notifications": {"ref":"ApprovalNotificationSettings"},
            "retention": {"ref":"RetentionSettings"},
            "sensitive_fields": {"dataType":"array","array":{"dataType":"string"},"validators":{"maxItems":{"value":50}}},
            "data_subject_field": {"dataType":"string"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Tenant": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "slug": {"dataType":"string","required":true},
            "name": {"dataType":"string","required":true},
            "settings": {"ref":"TenantSettings","required":true},
            "status": {"dataType":"enum","enums":["active"],"required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CreateTenantBody": {
        "dataType": "refObject",
        "properties": {
            "name": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "slug": {"dataType":"string","required":true,"validators":{"pattern":{"value":"^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$"}}},
            "settings": {"ref":"TenantSettings"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_Tenant_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"Tenant"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "UpdateTenantBody": {
        "dataType": "refObject",
        "properties": {
            "name": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "settings": {"ref":"TenantSettings"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "EntryType": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["decision"]},{"dataType":"enum","enums":["invariant"]},{"dataType":"enum","enums":["rule"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "AuthorType": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["human"]},{"dataType":"enum","enums":["agent"]},{"dataType":"enum","enums":["system"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Decision": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "version": {"dataType":"double","required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "id": {"dataType":"string","required":true},
            "scope_id": {"dataType":"string","required":true},
            "decision": {"dataType":"string","required":true},
            "context": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "reasoning": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "author": {"dataType":"string","required":true},
            "author_type": {"ref":"AuthorType","required":true},
            "tags": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "namespace": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "status": {"dataType":"enum","enums":["active"],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Invariant": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "version": {"dataType":"double","required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "id": {"dataType":"string","required":true},
            "scope_id": {"dataType":"string","required":true},
            "constraint": {"dataType":"string","required":true},
            "rationale": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "requires_approval": {"dataType":"boolean","required":true},
            "author": {"dataType":"string","required":true},
            "author_type": {"ref":"AuthorType","required":true},
            "status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["active"]},{"dataType":"enum","enums":["revoked"]}],"required":true},
            "revoked_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RuleLimit": {
        "dataType": "refObject",
        "properties": {
            "count": {"dataType":"enum","enums":[true]},
            "sum": {"dataType":"string"},
            "max": {"dataType":"double","required":true},
            "window": {"dataType":"string","required":true},
            "by": {"dataType":"array","array":{"dataType":"string"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RequiresPrior": {
        "dataType": "refObject",
        "properties": {
            "action": {"dataType":"string","required":true},
            "within": {"dataType":"string","required":true},
            "same": {"dataType":"array","array":{"dataType":"string"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Severity": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["MANDATORY"]},{"dataType":"enum","enums":["REQUIRES_APPROVAL"]},{"dataType":"enum","enums":["ADVISORY"]},{"dataType":"enum","enums":["ALLOW"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Glob": {
        "dataType": "refAlias",
        "type": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":500}}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "AppliesTo": {
        "dataType": "refObject",
        "properties": {
            "actions": {"dataType":"array","array":{"dataType":"refAlias","ref":"Glob"},"validators":{"minItems":{"value":1},"maxItems":{"value":100}}},
            "resources": {"dataType":"array","array":{"dataType":"refAlias","ref":"Glob"},"validators":{"minItems":{"value":1},"maxItems":{"value":100}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "FieldPath": {
        "dataType": "refAlias",
        "type": {"dataType":"string","validators":{"pattern":{"value":"^[A-Za-z_][A-Za-z0-9_-]*(\\.[A-Za-z_][A-Za-z0-9_-]*)*$"},"maxLength":{"value":200}}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ConditionOp": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["eq"]},{"dataType":"enum","enums":["neq"]},{"dataType":"enum","enums":["in"]},{"dataType":"enum","enums":["not_in"]},{"dataType":"enum","enums":["gt"]},{"dataType":"enum","enums":["gte"]},{"dataType":"enum","enums":["lt"]},{"dataType":"enum","enums":["lte"]},{"dataType":"enum","enums":["exists"]},{"dataType":"enum","enums":["contains"]},{"dataType":"enum","enums":["starts_with"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ConditionRow": {
        "dataType": "refObject",
        "properties": {
            "field": {"ref":"FieldPath","required":true},
            "op": {"ref":"ConditionOp","required":true},
            "value": {"dataType":"any"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RequirementType": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["string"]},{"dataType":"enum","enums":["number"]},{"dataType":"enum","enums":["integer"]},{"dataType":"enum","enums":["boolean"]},{"dataType":"enum","enums":["enum"]},{"dataType":"enum","enums":["date"]},{"dataType":"enum","enums":["datetime"]},{"dataType":"enum","enums":["object"]},{"dataType":"enum","enums":["array"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Requirement": {
        "dataType": "refObject",
        "properties": {
            "field": {"ref":"FieldPath","required":true},
            "reason": {"dataType":"string","validators":{"maxLength":{"value":1000}}},
            "type": {"ref":"RequirementType","required":true},
            "allowed_values": {"dataType":"array","array":{"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"double"},{"dataType":"boolean"}]},"validators":{"minItems":{"value":1},"maxItems":{"value":1000}}},
            "min": {"dataType":"double"},
            "max": {"dataType":"double"},
            "format": {"dataType":"string","validators":{"maxLength":{"value":100}}},
            "source_requirement": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["verified"]},{"dataType":"enum","enums":["unverified"]}]},
            "acceptable_sources": {"dataType":"array","array":{"dataType":"string"},"validators":{"minItems":{"value":1},"maxItems":{"value":100}}},
            "confidence_threshold": {"dataType":"double","validators":{"minimum":{"value":0},"maximum":{"value":1}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RuleMode": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["enforce"]},{"dataType":"enum","enums":["shadow"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Rule": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "version": {"dataType":"double","required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "directive": {"dataType":"string","required":true},
            "severity": {"ref":"Severity","required":true},
            "verdict": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "applies_to": {"dataType":"union","subSchemas":[{"ref":"AppliesTo"},{"dataType":"enum","enums":[null]}],"required":true},
            "conditions": {"dataType":"array","array":{"dataType":"refObject","ref":"ConditionRow"},"required":true},
            "condition_mode": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["all"]},{"dataType":"enum","enums":["any"]}],"required":true},
            "requires": {"dataType":"array","array":{"dataType":"refObject","ref":"Requirement"},"required":true},
            "deciders": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "priority": {"dataType":"union","subSchemas":[{"dataType":"double"},{"dataType":"enum","enums":[null]}],"required":true},
            "mode": {"ref":"RuleMode","required":true},
            "approvals_required": {"dataType":"union","subSchemas":[{"dataType":"double"},{"dataType":"enum","enums":[null]}],"required":true},
            "escalate_after": {"dataType":"union","subSchemas":[{"dataType":"double"},{"dataType":"enum","enums":[null]}],"required":true},
            "escalation_deciders": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "approval_expires_after": {"dataType":"union","subSchemas":[{"dataType":"double"},{"dataType":"enum","enums":[null]}],"required":true},
            "limit": {"dataType":"union","subSchemas":[{"ref":"RuleLimit"},{"dataType":"enum","enums":[null]}],"required":true},
            "requires_prior": {"dataType":"union","subSchemas":[{"ref":"RequiresPrior"},{"dataType":"enum","enums":[null]}],"required":true},
            "author": {"dataType":"string","required":true},
            "author_type": {"ref":"AuthorType","required":true},
            "id": {"dataType":"string","required":true},
            "scope_id": {"dataType":"string","required":true},
            "status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["active"]},{"dataType":"enum","enums":["archived"]}],"required":true},
            "current_version_id": {"dataType":"string","required":true},
            "archived_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SearchHit": {
        "dataType": "refObject",
        "properties": {
            "entry_id": {"dataType":"string","required":true},
            "entry_type": {"ref":"EntryType","required":true},
            "scope_id": {"dataType":"string","required":true},
            "status": {"dataType":"string","required":true},
            "rank": {"dataType":"double","required":true},
            "snippet": {"dataType":"string","required":true},
            "entry": {"dataType":"union","subSchemas":[{"ref":"Decision"},{"ref":"Invariant"},{"ref":"Rule"}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SearchResult": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"SearchHit"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SearchBody": {
        "dataType": "refObject",
        "properties": {
            "query": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":1000}}},
            "scope_id": {"dataType":"string"},
            "entry_type": {"ref":"EntryType"},
            "include_inactive": {"dataType":"boolean"},
            "limit": {"dataType":"integer","validators":{"minimum":{"value":1},"maximum":{"value":1000}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Conflict": {
        "dataType": "refObject",
        "properties": {
            "entry_id": {"dataType":"string","required":true},
            "entry_type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["invariant"]},{"dataType":"enum","enums":["rule"]}],"required":true},
            "severity": {"ref":"Severity","required":true},
            "requires_approval": {"dataType":"boolean","required":true},
            "text": {"dataType":"string","required":true},
            "rule_version_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "matched_by": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["text"]},{"dataType":"enum","enums":["applies_to"]}],"required":true},
            "matched_terms": {"dataType":"array","array":{"dataType":"string"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "OverriddenConflict": {
        "dataType": "refObject",
        "properties": {
            "entry_id": {"dataType":"string","required":true},
            "entry_type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["invariant"]},{"dataType":"enum","enums":["rule"]}],"required":true},
            "severity": {"ref":"Severity","required":true},
            "requires_approval": {"dataType":"boolean","required":true},
            "text": {"dataType":"string","required":true},
            "rule_version_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "matched_by": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["text"]},{"dataType":"enum","enums":["applies_to"]}],"required":true},
            "matched_terms": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "override_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CheckResult": {
        "dataType": "refObject",
        "properties": {
            "scope_id": {"dataType":"string","required":true},
            "conflicts": {"dataType":"array","array":{"dataType":"refObject","ref":"Conflict"},"required":true},
            "overridden": {"dataType":"array","array":{"dataType":"refObject","ref":"OverriddenConflict"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ScopeValue": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"double"},{"dataType":"boolean"}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ScopeSelector": {
        "dataType": "refObject",
        "properties": {
        },
        "additionalProperties": {"ref":"ScopeValue"},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CheckBody": {
        "dataType": "refObject",
        "properties": {
            "scope_id": {"dataType":"string","required":true},
            "intended_action": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":5000}}},
            "action": {"dataType":"string","validators":{"maxLength":{"value":500}}},
            "resource": {"dataType":"string","validators":{"maxLength":{"value":500}}},
            "scope": {"ref":"ScopeSelector"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Scope": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "version": {"dataType":"double","required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "id": {"dataType":"string","required":true},
            "name": {"dataType":"string","required":true},
            "description": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "selector": {"ref":"ScopeSelector","required":true},
            "status": {"dataType":"enum","enums":["active"],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_Scope_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"Scope"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CreateScopeBody": {
        "dataType": "refObject",
        "properties": {
            "name": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "description": {"dataType":"string","validators":{"maxLength":{"value":5000}}},
            "selector": {"ref":"ScopeSelector"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "EntryCounts": {
        "dataType": "refObject",
        "properties": {
            "decisions": {"dataType":"double","required":true},
            "invariants": {"dataType":"double","required":true},
            "rules": {"dataType":"double","required":true},
            "overrides": {"dataType":"double","required":true},
            "references": {"dataType":"double","required":true},
            "namespaces": {"dataType":"double","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ScopeDetails": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "version": {"dataType":"double","required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "id": {"dataType":"string","required":true},
            "name": {"dataType":"string","required":true},
            "description": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "selector": {"ref":"ScopeSelector","required":true},
            "status": {"dataType":"enum","enums":["active"],"required":true},
            "entry_counts": {"ref":"EntryCounts","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "UpdateScopeBody": {
        "dataType": "refObject",
        "properties": {
            "name": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "description": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"validators":{"maxLength":{"value":5000}}},
            "selector": {"ref":"ScopeSelector"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "OverrideType": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["temporary"]},{"dataType":"enum","enums":["conditional"]},{"dataType":"enum","enums":["permanent"]},{"dataType":"enum","enums":["approval_grant"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Override": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "version": {"dataType":"double","required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "id": {"dataType":"string","required":true},
            "scope_id": {"dataType":"string","required":true},
            "scope_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "target_id": {"dataType":"string","required":true},
            "target_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "target_version_ids": {"dataType":"array","array":{"dataType":"string"}},
            "target_type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["invariant"]},{"dataType":"enum","enums":["rule"]}],"required":true},
            "override_type": {"ref":"OverrideType","required":true},
            "justification": {"dataType":"string","required":true},
            "conditions": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "conditions_error": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "approved_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "applies_to_scope": {"dataType":"union","subSchemas":[{"ref":"ScopeSelector"},{"dataType":"enum","enums":[null]}],"required":true},
            "expires_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "revoked_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["active"]},{"dataType":"enum","enums":["expired"]},{"dataType":"enum","enums":["revoked"]},{"dataType":"enum","enums":["invalid_conditions"]}],"required":true},
            "approval_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "consultation_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ResolvedScope": {
        "dataType": "refObject",
        "properties": {
            "scope_id": {"dataType":"string","required":true},
            "selector": {"ref":"ScopeSelector","required":true},
            "invariants": {"dataType":"array","array":{"dataType":"refObject","ref":"Invariant"},"required":true},
            "rules": {"dataType":"array","array":{"dataType":"refObject","ref":"Rule"},"required":true},
            "overrides": {"dataType":"array","array":{"dataType":"refObject","ref":"Override"},"required":true},
            "normative_hash": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_Rule_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"Rule"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RuleLimitBody": {
        "dataType": "refObject",
        "properties": {
            "count": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":[true]},{"dataType":"enum","enums":[null]}]},
            "sum": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}]},
            "max": {"dataType":"double","required":true},
            "window": {"dataType":"string","required":true},
            "by": {"dataType":"union","subSchemas":[{"dataType":"array","array":{"dataType":"string"}},{"dataType":"enum","enums":[null]}]},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RequiresPriorBody": {
        "dataType": "refObject",
        "properties": {
            "action": {"dataType":"string","required":true},
            "within": {"dataType":"string","required":true},
            "same": {"dataType":"union","subSchemas":[{"dataType":"array","array":{"dataType":"string"}},{"dataType":"enum","enums":[null]}]},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RuleBody": {
        "dataType": "refObject",
        "properties": {
            "author": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "author_type": {"ref":"AuthorType"},
            "directive": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":20000}}},
            "severity": {"ref":"Severity","required":true},
            "verdict": {"dataType":"string","validators":{"pattern":{"value":"^[a-z][a-z0-9_]{0,63}$"}}},
            "applies_to": {"ref":"AppliesTo"},
            "conditions": {"dataType":"array","array":{"dataType":"refObject","ref":"ConditionRow"},"validators":{"maxItems":{"value":100}}},
            "condition_mode": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["all"]},{"dataType":"enum","enums":["any"]}]},
            "requires": {"dataType":"array","array":{"dataType":"refObject","ref":"Requirement"},"validators":{"maxItems":{"value":100}}},
            "deciders": {"dataType":"array","array":{"dataType":"refAlias","ref":"DeciderId"},"validators":{"maxItems":{"value":100}}},
            "priority": {"dataType":"integer","validators":{"minimum":{"value":-1000000},"maximum":{"value":1000000}}},
            "mode": {"ref":"RuleMode"},
            "approvals_required": {"dataType":"union","subSchemas":[{"dataType":"integer"},{"dataType":"enum","enums":[null]}],"validators":{"minimum":{"value":1},"maximum":{"value":20}}},
            "escalate_after": {"dataType":"union","subSchemas":[{"dataType":"integer"},{"dataType":"enum","enums":[null]}],"validators":{"minimum":{"value":60},"maximum":{"value":31536000}}},
            "escalation_deciders": {"dataType":"union","subSchemas":[{"dataType":"array","array":{"dataType":"refAlias","ref":"DeciderId"}},{"dataType":"enum","enums":[null]}],"validators":{"maxItems":{"value":100}}},
            "approval_expires_after": {"dataType":"union","subSchemas":[{"dataType":"integer"},{"dataType":"enum","enums":[null]}],"validators":{"minimum":{"value":60},"maximum":{"value":31536000}}},
            "limit": {"dataType":"union","subSchemas":[{"ref":"RuleLimitBody"},{"dataType":"enum","enums":[null]}]},
            "requires_prior": {"dataType":"union","subSchemas":[{"ref":"RequiresPriorBody"},{"dataType":"enum","enums":[null]}]},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RuleVersion": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "version": {"dataType":"double","required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "directive": {"dataType":"string","required":true},
            "severity": {"ref":"Severity","required":true},
            "verdict": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "applies_to": {"dataType":"union","subSchemas":[{"ref":"AppliesTo"},{"dataType":"enum","enums":[null]}],"required":true},
            "conditions": {"dataType":"array","array":{"dataType":"refObject","ref":"ConditionRow"},"required":true},
            "condition_mode": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["all"]},{"dataType":"enum","enums":["any"]}],"required":true},
            "requires": {"dataType":"array","array":{"dataType":"refObject","ref":"Requirement"},"required":true},
            "deciders": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "priority": {"dataType":"union","subSchemas":[{"dataType":"double"},{"dataType":"enum","enums":[null]}],"required":true},
            "mode": {"ref":"RuleMode","required":true},
            "approvals_required": {"dataType":"union","subSchemas":[{"dataType":"double"},{"dataType":"enum","enums":[null]}],"required":true},
            "escalate_after": {"dataType":"union","subSchemas":[{"dataType":"double"},{"dataType":"enum","enums":[null]}],"required":true},
            "escalation_deciders": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "approval_expires_after": {"dataType":"union","subSchemas":[{"dataType":"double"},{"dataType":"enum","enums":[null]}],"required":true},
            "limit": {"dataType":"union","subSchemas":[{"ref":"RuleLimit"},{"dataType":"enum","enums":[null]}],"required":true},
            "requires_prior": {"dataType":"union","subSchemas":[{"ref":"RequiresPrior"},{"dataType":"enum","enums":[null]}],"required":true},
            "author": {"dataType":"string","required":true},
            "author_type": {"ref":"AuthorType","required":true},
            "id": {"dataType":"string","required":true},
            "rule_id": {"dataType":"string","required":true},
            "scope_id": {"dataType":"string","required":true},
            "status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["current"]},{"dataType":"enum","enums":["superseded"]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_RuleVersion_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"RuleVersion"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ShadowVersionReport": {
        "dataType": "refObject",
        "properties": {
            "rule_version_id": {"dataType":"string","required":true},
            "disagreements": {"dataType":"double","required":true},
            "last_at": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RuleShadowReport": {
        "dataType": "refObject",
        "properties": {
            "rule_id": {"dataType":"string","required":true},
            "mode": {"ref":"RuleMode","required":true},
            "disagreements": {"dataType":"double","required":true},
            "by_version": {"dataType":"array","array":{"dataType":"refObject","ref":"ShadowVersionReport"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ReferenceStatus": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["cited"]},{"dataType":"enum","enums":["followed"]},{"dataType":"enum","enums":["verified"]},{"dataType":"enum","enums":["diverged"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Reference": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "version": {"dataType":"double","required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "id": {"dataType":"string","required":true},
            "scope_id": {"dataType":"string","required":true},
            "entry_id": {"dataType":"string","required":true},
            "entry_type": {"ref":"EntryType","required":true},
            "context_type": {"dataType":"string","required":true},
            "context_ref": {"dataType":"string","required":true},
            "status": {"ref":"ReferenceStatus","required":true},
            "reason": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "author": {"dataType":"string","required":true},
            "author_type": {"ref":"AuthorType","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_Reference_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"Reference"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CreateReferenceBody": {
        "dataType": "refObject",
        "properties": {
            "author": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "author_type": {"ref":"AuthorType"},
            "entry_id": {"dataType":"string","required":true},
            "context_type": {"dataType":"string","required":true,"validators":{"pattern":{"value":"^[a-z][a-z0-9_.-]{0,63}$"}}},
            "context_ref": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":2000}}},
            "status": {"ref":"ReferenceStatus","required":true},
            "reason": {"dataType":"string","validators":{"maxLength":{"value":20000}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Permission": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["read"]},{"dataType":"enum","enums":["write"]},{"dataType":"enum","enums":["manage_rules"]},{"dataType":"enum","enums":["manage_invariants"]},{"dataType":"enum","enums":["approve"]},{"dataType":"enum","enums":["check"]},{"dataType":"enum","enums":["seal"]},{"dataType":"enum","enums":["admin"]},{"dataType":"enum","enums":["platform_admin"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Principal": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "tenant_id": {"dataType":"string","required":true},
            "kind": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["agent"]},{"dataType":"enum","enums":["human"]}],"required":true},
            "name": {"dataType":"string","required":true},
            "roles": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "active": {"dataType":"boolean","required":true},
            "status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["active"]},{"dataType":"enum","enums":["deactivated"]}],"required":true},
            "email": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "oidc_issuer": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "oidc_subject": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "console_permissions": {"dataType":"array","array":{"dataType":"refAlias","ref":"Permission"},"required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RoleId": {
        "dataType": "refAlias",
        "type": {"dataType":"string","validators":{"pattern":{"value":"^role-[a-z0-9][a-z0-9_.-]{0,62}$"}}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "OidcIssuer": {
        "dataType": "refAlias",
        "type": {"dataType":"string","validators":{"pattern":{"value":"^https?://[^\\s]+$"},"maxLength":{"value":2000}}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "OidcSubject": {
        "dataType": "refAlias",
        "type": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":255}}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CreatePrincipalBody": {
        "dataType": "refObject",
        "properties": {
            "kind": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["agent"]},{"dataType":"enum","enums":["human"]}],"required":true},
            "name": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "roles": {"dataType":"array","array":{"dataType":"refAlias","ref":"RoleId"},"validators":{"maxItems":{"value":100}}},
            "tenant_id": {"dataType":"string"},
            "email": {"dataType":"string","validators":{"maxLength":{"value":254}}},
            "oidc_issuer": {"ref":"OidcIssuer"},
            "oidc_subject": {"ref":"OidcSubject"},
            "console_permissions": {"dataType":"array","array":{"dataType":"refAlias","ref":"Permission"},"validators":{"maxItems":{"value":9}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_Principal_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"Principal"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "UpdatePrincipalBody": {
        "dataType": "refObject",
        "properties": {
            "active": {"dataType":"boolean"},
            "roles": {"dataType":"array","array":{"dataType":"refAlias","ref":"RoleId"},"validators":{"maxItems":{"value":100}}},
            "name": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "email": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"validators":{"maxLength":{"value":254}}},
            "oidc_issuer": {"dataType":"union","subSchemas":[{"ref":"OidcIssuer"},{"dataType":"enum","enums":[null]}]},
            "oidc_subject": {"dataType":"union","subSchemas":[{"ref":"OidcSubject"},{"dataType":"enum","enums":[null]}]},
            "console_permissions": {"dataType":"array","array":{"dataType":"refAlias","ref":"Permission"},"validators":{"maxItems":{"value":9}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ConsoleLinkCreated": {
        "dataType": "refObject",
        "properties": {
            "url": {"dataType":"string","required":true},
            "expires_at": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_Override_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"Override"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CreateOverrideBody": {
        "dataType": "refObject",
        "properties": {
            "target_id": {"dataType":"string","required":true},
            "override_type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["temporary"]},{"dataType":"enum","enums":["conditional"]},{"dataType":"enum","enums":["permanent"]}],"required":true},
            "justification": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":20000}}},
            "conditions": {"dataType":"string","validators":{"maxLength":{"value":20000}}},
            "approved_by": {"dataType":"string","validators":{"maxLength":{"value":200}}},
            "applies_to_scope": {"ref":"ScopeSelector"},
            "expires_at": {"dataType":"datetime"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Namespace": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "version": {"dataType":"double","required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "id": {"dataType":"string","required":true},
            "scope_id": {"dataType":"string","required":true},
            "path": {"dataType":"string","required":true},
            "name": {"dataType":"string","required":true},
            "parent_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "depth": {"dataType":"double","required":true},
            "description": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "status": {"dataType":"enum","enums":["active"],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_Namespace_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"Namespace"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CreateNamespaceBody": {
        "dataType": "refObject",
        "properties": {
            "path": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "description": {"dataType":"string","validators":{"maxLength":{"value":5000}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "LinkRelation": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["depends_on"]},{"dataType":"enum","enums":["supersedes"]},{"dataType":"enum","enums":["contradicts"]},{"dataType":"enum","enums":["in_tension_with"]},{"dataType":"enum","enums":["creates"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Link": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "version": {"dataType":"double","required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "id": {"dataType":"string","required":true},
            "from_id": {"dataType":"string","required":true},
            "from_type": {"ref":"EntryType","required":true},
            "from_scope_id": {"dataType":"string","required":true},
            "to_id": {"dataType":"string","required":true},
            "to_type": {"ref":"EntryType","required":true},
            "to_scope_id": {"dataType":"string","required":true},
            "relation": {"ref":"LinkRelation","required":true},
            "status": {"dataType":"enum","enums":["active"],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CreateLinkBody": {
        "dataType": "refObject",
        "properties": {
            "from_id": {"dataType":"string","required":true},
            "from_type": {"ref":"EntryType","required":true},
            "to_id": {"dataType":"string","required":true},
            "to_type": {"ref":"EntryType","required":true},
            "relation": {"ref":"LinkRelation","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_Link_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"Link"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_Invariant_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"Invariant"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CreateInvariantBody": {
        "dataType": "refObject",
        "properties": {
            "author": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "author_type": {"ref":"AuthorType"},
            "constraint": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":20000}}},
            "rationale": {"dataType":"string","validators":{"maxLength":{"value":50000}}},
            "requires_approval": {"dataType":"boolean"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RegistryEvent": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "type": {"dataType":"string","required":true},
            "scope_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "scope_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "entity_type": {"dataType":"string","required":true},
            "entity_id": {"dataType":"string","required":true},
            "source": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["registry"]},{"dataType":"enum","enums":["verdict"]}],"required":true},
            "actor_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "created_at": {"dataType":"string","required":true},
            "data": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_RegistryEvent_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"RegistryEvent"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_Decision_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"Decision"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Tag": {
        "dataType": "refAlias",
        "type": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":100}}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CreateDecisionBody": {
        "dataType": "refObject",
        "properties": {
            "author": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "author_type": {"ref":"AuthorType"},
            "decision": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":20000}}},
            "context": {"dataType":"string","validators":{"maxLength":{"value":50000}}},
            "reasoning": {"dataType":"string","validators":{"maxLength":{"value":50000}}},
            "tags": {"dataType":"array","array":{"dataType":"refAlias","ref":"Tag"},"validators":{"maxItems":{"value":50}}},
            "namespace": {"dataType":"string"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ApprovalGiven": {
        "dataType": "refObject",
        "properties": {
            "decider": {"dataType":"string","required":true},
            "decided_at": {"dataType":"string","required":true},
            "notes": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Approval": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "version": {"dataType":"double","required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "id": {"dataType":"string","required":true},
            "scope_id": {"dataType":"string","required":true},
            "trigger_id": {"dataType":"string","required":true},
            "trigger_type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["invariant"]},{"dataType":"enum","enums":["rule"]}],"required":true},
            "trigger_version_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "requires_approval": {"dataType":"boolean","required":true},
            "intended_action": {"dataType":"string","required":true},
            "justification": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "requested_by": {"dataType":"string","required":true},
            "requested_by_type": {"ref":"AuthorType","required":true},
            "candidate_deciders": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["pending"]},{"dataType":"enum","enums":["approved"]},{"dataType":"enum","enums":["rejected"]},{"dataType":"enum","enums":["expired"]}],"required":true},
            "approvals_required": {"dataType":"double","required":true},
            "approvals": {"dataType":"array","array":{"dataType":"refObject","ref":"ApprovalGiven"},"required":true},
            "expires_at": {"dataType":"string","required":true},
            "escalates_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "escalation_deciders": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "decision": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["approved"]},{"dataType":"enum","enums":["rejected"]},{"dataType":"enum","enums":[null]}],"required":true},
            "comment": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "decided_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "decider_principal_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "decided_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "override_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RequestApprovalBody": {
        "dataType": "refObject",
        "properties": {
            "trigger_id": {"dataType":"string","required":true},
            "trigger_type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["invariant"]},{"dataType":"enum","enums":["rule"]}]},
            "intended_action": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":20000}}},
            "justification": {"dataType":"string","validators":{"maxLength":{"value":20000}}},
            "requested_by": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "requested_by_type": {"ref":"AuthorType"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_Approval_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"Approval"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "DecideApprovalBody": {
        "dataType": "refObject",
        "properties": {
            "decision": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["approved"]},{"dataType":"enum","enums":["rejected"]}],"required":true},
            "comment": {"dataType":"string","validators":{"maxLength":{"value":20000}}},
            "decided_by": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "expires_at": {"dataType":"datetime"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CreatedApiKey": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "tenant_id": {"dataType":"string","required":true},
            "principal_id": {"dataType":"string","required":true},
            "key_prefix": {"dataType":"string","required":true},
            "permissions": {"dataType":"array","array":{"dataType":"refAlias","ref":"Permission"},"required":true},
            "scope_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "expires_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "revoked_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["active"]},{"dataType":"enum","enums":["revoked"]},{"dataType":"enum","enums":["expired"]}],"required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "key": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CreateApiKeyBody": {
        "dataType": "refObject",
        "properties": {
            "principal_id": {"dataType":"string","required":true},
            "permissions": {"dataType":"array","array":{"dataType":"refAlias","ref":"Permission"},"required":true,"validators":{"minItems":{"value":1}}},
            "scope_ids": {"dataType":"array","array":{"dataType":"string"}},
            "expires_at": {"dataType":"datetime"},
            "tenant_id": {"dataType":"string"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ApiKey": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "tenant_id": {"dataType":"string","required":true},
            "principal_id": {"dataType":"string","required":true},
            "key_prefix": {"dataType":"string","required":true},
            "permissions": {"dataType":"array","array":{"dataType":"refAlias","ref":"Permission"},"required":true},
            "scope_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "expires_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "revoked_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["active"]},{"dataType":"enum","enums":["revoked"]},{"dataType":"enum","enums":["expired"]}],"required":true},
            "created_at": {"dataType":"string","required":true},
            "updated_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Page_ApiKey_": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"ApiKey"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
};
const templateService = new ExpressTemplateService(models, {"noImplicitAdditionalProperties":"throw-on-extras","bodyCoercion":false});

// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa




export function RegisterRoutes(app: Router) {

    // ###########################################################################################################
    //  NOTE: If you do not see routes for all of your controllers in this file, then you might not have informed tsoa of where to look
    //      Please look into the "controllerPathGlobs" config option described in the readme: https://github.com/lukeautry/tsoa
    // ###########################################################################################################


    
        const argsScopeWebhooksController_createScopeWebhook: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"CreateWebhookBody"},
        };
        app.post('/api/v1/scopes/:scope_id/webhooks',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(ScopeWebhooksController)),
            ...(fetchMiddlewares<RequestHandler>(ScopeWebhooksController.prototype.createScopeWebhook)),

            async function ScopeWebhooksController_createScopeWebhook(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsScopeWebhooksController_createScopeWebhook, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ScopeWebhooksController>(ScopeWebhooksController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createScopeWebhook',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsScopeWebhooksController_listScopeWebhooks: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id/webhooks',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(ScopeWebhooksController)),
            ...(fetchMiddlewares<RequestHandler>(ScopeWebhooksController.prototype.listScopeWebhooks)),

            async function ScopeWebhooksController_listScopeWebhooks(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsScopeWebhooksController_listScopeWebhooks, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ScopeWebhooksController>(ScopeWebhooksController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listScopeWebhooks',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsWebhooksController_createTenantWebhook: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"CreateWebhookBody"},
        };
        app.post('/api/v1/webhooks',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController)),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController.prototype.createTenantWebhook)),

            async function WebhooksController_createTenantWebhook(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsWebhooksController_createTenantWebhook, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<WebhooksController>(WebhooksController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createTenantWebhook',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsWebhooksController_listWebhooks: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                level: {"in":"query","name":"level","dataType":"union","subSchemas":[{"dataType":"enum","enums":["tenant"]},{"dataType":"enum","enums":["all"]}]},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/api/v1/webhooks',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController)),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController.prototype.listWebhooks)),

            async function WebhooksController_listWebhooks(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsWebhooksController_listWebhooks, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<WebhooksController>(WebhooksController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listWebhooks',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsWebhooksController_getWebhook: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                subscription_id: {"in":"path","name":"subscription_id","required":true,"dataType":"string"},
        };
        app.get('/api/v1/webhooks/:subscription_id',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController)),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController.prototype.getWebhook)),

            async function WebhooksController_getWebhook(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsWebhooksController_getWebhook, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<WebhooksController>(WebhooksController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getWebhook',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsWebhooksController_updateWebhook: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                subscription_id: {"in":"path","name":"subscription_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"UpdateWebhookBody"},
        };
        app.patch('/api/v1/webhooks/:subscription_id',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController)),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController.prototype.updateWebhook)),

            async function WebhooksController_updateWebhook(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsWebhooksController_updateWebhook, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<WebhooksController>(WebhooksController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'updateWebhook',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsWebhooksController_deleteWebhook: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                subscription_id: {"in":"path","name":"subscription_id","required":true,"dataType":"string"},
        };
        app.delete('/api/v1/webhooks/:subscription_id',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController)),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController.prototype.deleteWebhook)),

            async function WebhooksController_deleteWebhook(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsWebhooksController_deleteWebhook, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<WebhooksController>(WebhooksController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'deleteWebhook',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 204,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsWebhooksController_rotateWebhookSecret: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                subscription_id: {"in":"path","name":"subscription_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","ref":"RotateWebhookSecretBody"},
        };
        app.post('/api/v1/webhooks/:subscription_id/secret/rotate',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController)),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController.prototype.rotateWebhookSecret)),

            async function WebhooksController_rotateWebhookSecret(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsWebhooksController_rotateWebhookSecret, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<WebhooksController>(WebhooksController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'rotateWebhookSecret',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsWebhooksController_listWebhookDeliveries: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                subscription_id: {"in":"path","name":"subscription_id","required":true,"dataType":"string"},
                status: {"in":"query","name":"status","dataType":"union","subSchemas":[{"dataType":"enum","enums":["pending"]},{"dataType":"enum","enums":["succeeded"]},{"dataType":"enum","enums":["failed"]},{"dataType":"enum","enums":["cancelled"]}]},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/api/v1/webhooks/:subscription_id/deliveries',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController)),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController.prototype.listWebhookDeliveries)),

            async function WebhooksController_listWebhookDeliveries(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsWebhooksController_listWebhookDeliveries, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<WebhooksController>(WebhooksController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listWebhookDeliveries',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsWebhooksController_getWebhookDelivery: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                subscription_id: {"in":"path","name":"subscription_id","required":true,"dataType":"string"},
                delivery_id: {"in":"path","name":"delivery_id","required":true,"dataType":"string"},
        };
        app.get('/api/v1/webhooks/:subscription_id/deliveries/:delivery_id',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController)),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController.prototype.getWebhookDelivery)),

            async function WebhooksController_getWebhookDelivery(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsWebhooksController_getWebhookDelivery, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<WebhooksController>(WebhooksController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getWebhookDelivery',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsWebhooksController_redeliverWebhook: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                subscription_id: {"in":"path","name":"subscription_id","required":true,"dataType":"string"},
                delivery_id: {"in":"path","name":"delivery_id","required":true,"dataType":"string"},
        };
        app.post('/api/v1/webhooks/:subscription_id/deliveries/:delivery_id/redeliver',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController)),
            ...(fetchMiddlewares<RequestHandler>(WebhooksController.prototype.redeliverWebhook)),

            async function WebhooksController_redeliverWebhook(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsWebhooksController_redeliverWebhook, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<WebhooksController>(WebhooksController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'redeliverWebhook',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 202,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsWebhookKeyController_webhookKey: Record<string, TsoaRoute.ParameterSchema> = {
        };
        app.get('/.well-known/webhook-key',
            ...(fetchMiddlewares<RequestHandler>(WebhookKeyController)),
            ...(fetchMiddlewares<RequestHandler>(WebhookKeyController.prototype.webhookKey)),

            async function WebhookKeyController_webhookKey(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsWebhookKeyController_webhookKey, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<WebhookKeyController>(WebhookKeyController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'webhookKey',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsWebhookKeyAdminController_rotateWebhookKey: Record<string, TsoaRoute.ParameterSchema> = {
                body: {"in":"body","name":"body","required":true,"ref":"RotateWebhookKeyBody"},
        };
        app.post('/api/v1/admin/webhook-key/rotate',
            authenticateMiddleware([{"bearer":["platform_admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(WebhookKeyAdminController)),
            ...(fetchMiddlewares<RequestHandler>(WebhookKeyAdminController.prototype.rotateWebhookKey)),

            async function WebhookKeyAdminController_rotateWebhookKey(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsWebhookKeyAdminController_rotateWebhookKey, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<WebhookKeyAdminController>(WebhookKeyAdminController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'rotateWebhookKey',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsTenantsController_createTenant: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"CreateTenantBody"},
        };
        app.post('/api/v1/tenants',
            authenticateMiddleware([{"bearer":["platform_admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(TenantsController)),
            ...(fetchMiddlewares<RequestHandler>(TenantsController.prototype.createTenant)),

            async function TenantsController_createTenant(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsTenantsController_createTenant, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<TenantsController>(TenantsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createTenant',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsTenantsController_listTenants: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/api/v1/tenants',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(TenantsController)),
            ...(fetchMiddlewares<RequestHandler>(TenantsController.prototype.listTenants)),

            async function TenantsController_listTenants(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsTenantsController_listTenants, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<TenantsController>(TenantsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listTenants',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsTenantsController_getTenant: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
        };
        app.get('/api/v1/tenants/:tenant_id',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(TenantsController)),
            ...(fetchMiddlewares<RequestHandler>(TenantsController.prototype.getTenant)),

            async function TenantsController_getTenant(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsTenantsController_getTenant, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<TenantsController>(TenantsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getTenant',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsTenantsController_updateTenant: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"UpdateTenantBody"},
        };
        app.patch('/api/v1/tenants/:tenant_id',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(TenantsController)),
            ...(fetchMiddlewares<RequestHandler>(TenantsController.prototype.updateTenant)),

            async function TenantsController_updateTenant(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsTenantsController_updateTenant, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<TenantsController>(TenantsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'updateTenant',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsSearchController_search: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"SearchBody"},
        };
        app.post('/api/v1/search',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(SearchController)),
            ...(fetchMiddlewares<RequestHandler>(SearchController.prototype.search)),

            async function SearchController_search(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsSearchController_search, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<SearchController>(SearchController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'search',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsSearchController_check: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"CheckBody"},
        };
        app.post('/api/v1/check',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(SearchController)),
            ...(fetchMiddlewares<RequestHandler>(SearchController.prototype.check)),

            async function SearchController_check(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsSearchController_check, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<SearchController>(SearchController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'check',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsScopesController_listScopes: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/api/v1/scopes',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(ScopesController)),
            ...(fetchMiddlewares<RequestHandler>(ScopesController.prototype.listScopes)),

            async function ScopesController_listScopes(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsScopesController_listScopes, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ScopesController>(ScopesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listScopes',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsScopesController_createScope: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"CreateScopeBody"},
        };
        app.post('/api/v1/scopes',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(ScopesController)),
            ...(fetchMiddlewares<RequestHandler>(ScopesController.prototype.createScope)),

            async function ScopesController_createScope(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsScopesController_createScope, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ScopesController>(ScopesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createScope',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsScopesController_getScope: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(ScopesController)),
            ...(fetchMiddlewares<RequestHandler>(ScopesController.prototype.getScope)),

            async function ScopesController_getScope(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsScopesController_getScope, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ScopesController>(ScopesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getScope',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsScopesController_updateScope: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"UpdateScopeBody"},
        };
        app.patch('/api/v1/scopes/:scope_id',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(ScopesController)),
            ...(fetchMiddlewares<RequestHandler>(ScopesController.prototype.updateScope)),

            async function ScopesController_updateScope(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsScopesController_updateScope, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ScopesController>(ScopesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'updateScope',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsScopesController_resolveScope: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id/resolve',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(ScopesController)),
            ...(fetchMiddlewares<RequestHandler>(ScopesController.prototype.resolveScope)),

            async function ScopesController_resolveScope(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsScopesController_resolveScope, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ScopesController>(ScopesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'resolveScope',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsRulesController_listRules: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                status: {"in":"query","name":"status","dataType":"union","subSchemas":[{"dataType":"enum","enums":["active"]},{"dataType":"enum","enums":["archived"]},{"dataType":"enum","enums":["all"]}]},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id/rules',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(RulesController)),
            ...(fetchMiddlewares<RequestHandler>(RulesController.prototype.listRules)),

            async function RulesController_listRules(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsRulesController_listRules, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<RulesController>(RulesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listRules',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsRulesController_createRule: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"RuleBody"},
        };
        app.post('/api/v1/scopes/:scope_id/rules',
            authenticateMiddleware([{"bearer":["manage_rules"]}]),
            ...(fetchMiddlewares<RequestHandler>(RulesController)),
            ...(fetchMiddlewares<RequestHandler>(RulesController.prototype.createRule)),

            async function RulesController_createRule(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsRulesController_createRule, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<RulesController>(RulesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createRule',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsRulesController_getRule: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                rule_id: {"in":"path","name":"rule_id","required":true,"dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id/rules/:rule_id',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(RulesController)),
            ...(fetchMiddlewares<RequestHandler>(RulesController.prototype.getRule)),

            async function RulesController_getRule(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsRulesController_getRule, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<RulesController>(RulesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getRule',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsRulesController_updateRule: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                rule_id: {"in":"path","name":"rule_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"RuleBody"},
        };
        app.put('/api/v1/scopes/:scope_id/rules/:rule_id',
            authenticateMiddleware([{"bearer":["manage_rules"]}]),
            ...(fetchMiddlewares<RequestHandler>(RulesController)),
            ...(fetchMiddlewares<RequestHandler>(RulesController.prototype.updateRule)),

            async function RulesController_updateRule(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsRulesController_updateRule, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<RulesController>(RulesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'updateRule',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsRulesController_listRuleVersions: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                rule_id: {"in":"path","name":"rule_id","required":true,"dataType":"string"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id/rules/:rule_id/versions',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(RulesController)),
            ...(fetchMiddlewares<RequestHandler>(RulesController.prototype.listRuleVersions)),

            async function RulesController_listRuleVersions(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsRulesController_listRuleVersions, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<RulesController>(RulesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listRuleVersions',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsRulesController_archiveRule: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                rule_id: {"in":"path","name":"rule_id","required":true,"dataType":"string"},
        };
        app.patch('/api/v1/scopes/:scope_id/rules/:rule_id/archive',
            authenticateMiddleware([{"bearer":["manage_rules"]}]),
            ...(fetchMiddlewares<RequestHandler>(RulesController)),
            ...(fetchMiddlewares<RequestHandler>(RulesController.prototype.archiveRule)),

            async function RulesController_archiveRule(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsRulesController_archiveRule, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<RulesController>(RulesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'archiveRule',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsRuleShadowController_getRuleShadow: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                rule_id: {"in":"path","name":"rule_id","required":true,"dataType":"string"},
        };
        app.get('/api/v1/rules/:rule_id/shadow',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(RuleShadowController)),
            ...(fetchMiddlewares<RequestHandler>(RuleShadowController.prototype.getRuleShadow)),

            async function RuleShadowController_getRuleShadow(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsRuleShadowController_getRuleShadow, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<RuleShadowController>(RuleShadowController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getRuleShadow',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsReferencesController_listScopeReferences: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                entry_id: {"in":"query","name":"entry_id","dataType":"string"},
                status: {"in":"query","name":"status","ref":"ReferenceStatus"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id/references',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(ReferencesController)),
            ...(fetchMiddlewares<RequestHandler>(ReferencesController.prototype.listScopeReferences)),

            async function ReferencesController_listScopeReferences(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsReferencesController_listScopeReferences, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ReferencesController>(ReferencesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listScopeReferences',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsReferencesController_createReference: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"CreateReferenceBody"},
        };
        app.post('/api/v1/scopes/:scope_id/references',
            authenticateMiddleware([{"bearer":["write"]}]),
            ...(fetchMiddlewares<RequestHandler>(ReferencesController)),
            ...(fetchMiddlewares<RequestHandler>(ReferencesController.prototype.createReference)),

            async function ReferencesController_createReference(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsReferencesController_createReference, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ReferencesController>(ReferencesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createReference',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsReferencesController_findReferences: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                entry_id: {"in":"query","name":"entry_id","dataType":"string"},
                context_ref: {"in":"query","name":"context_ref","dataType":"string"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/api/v1/references',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(ReferencesController)),
            ...(fetchMiddlewares<RequestHandler>(ReferencesController.prototype.findReferences)),

            async function ReferencesController_findReferences(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsReferencesController_findReferences, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ReferencesController>(ReferencesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'findReferences',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsPrincipalsController_createPrincipal: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"CreatePrincipalBody"},
        };
        app.post('/api/v1/principals',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(PrincipalsController)),
            ...(fetchMiddlewares<RequestHandler>(PrincipalsController.prototype.createPrincipal)),

            async function PrincipalsController_createPrincipal(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsPrincipalsController_createPrincipal, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<PrincipalsController>(PrincipalsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createPrincipal',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsPrincipalsController_listPrincipals: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
                tenant_id: {"in":"query","name":"tenant_id","dataType":"string"},
        };
        app.get('/api/v1/principals',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(PrincipalsController)),
            ...(fetchMiddlewares<RequestHandler>(PrincipalsController.prototype.listPrincipals)),

            async function PrincipalsController_listPrincipals(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsPrincipalsController_listPrincipals, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<PrincipalsController>(PrincipalsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listPrincipals',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsPrincipalsController_getPrincipal: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                principal_id: {"in":"path","name":"principal_id","required":true,"dataType":"string"},
        };
        app.get('/api/v1/principals/:principal_id',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(PrincipalsController)),
            ...(fetchMiddlewares<RequestHandler>(PrincipalsController.prototype.getPrincipal)),

            async function PrincipalsController_getPrincipal(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsPrincipalsController_getPrincipal, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<PrincipalsController>(PrincipalsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getPrincipal',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsPrincipalsController_updatePrincipal: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                principal_id: {"in":"path","name":"principal_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"UpdatePrincipalBody"},
        };
        app.patch('/api/v1/principals/:principal_id',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(PrincipalsController)),
            ...(fetchMiddlewares<RequestHandler>(PrincipalsController.prototype.updatePrincipal)),

            async function PrincipalsController_updatePrincipal(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsPrincipalsController_updatePrincipal, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<PrincipalsController>(PrincipalsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'updatePrincipal',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsPrincipalsController_createConsoleLink: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                principal_id: {"in":"path","name":"principal_id","required":true,"dataType":"string"},
        };
        app.post('/api/v1/principals/:principal_id/console-links',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(PrincipalsController)),
            ...(fetchMiddlewares<RequestHandler>(PrincipalsController.prototype.createConsoleLink)),

            async function PrincipalsController_createConsoleLink(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsPrincipalsController_createConsoleLink, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<PrincipalsController>(PrincipalsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createConsoleLink',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsOverridesController_listOverrides: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                status: {"in":"query","name":"status","dataType":"union","subSchemas":[{"dataType":"enum","enums":["active"]},{"dataType":"enum","enums":["expired"]},{"dataType":"enum","enums":["revoked"]},{"dataType":"enum","enums":["invalid_conditions"]},{"dataType":"enum","enums":["all"]}]},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id/overrides',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(OverridesController)),
            ...(fetchMiddlewares<RequestHandler>(OverridesController.prototype.listOverrides)),

            async function OverridesController_listOverrides(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsOverridesController_listOverrides, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<OverridesController>(OverridesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listOverrides',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsOverridesController_createOverride: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"CreateOverrideBody"},
        };
        app.post('/api/v1/scopes/:scope_id/overrides',
            authenticateMiddleware([{"bearer":["manage_invariants"]}]),
            ...(fetchMiddlewares<RequestHandler>(OverridesController)),
            ...(fetchMiddlewares<RequestHandler>(OverridesController.prototype.createOverride)),

            async function OverridesController_createOverride(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsOverridesController_createOverride, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<OverridesController>(OverridesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createOverride',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsOverridesController_revokeOverride: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                override_id: {"in":"path","name":"override_id","required":true,"dataType":"string"},
        };
        app.delete('/api/v1/scopes/:scope_id/overrides/:override_id',
            authenticateMiddleware([{"bearer":["manage_invariants"]}]),
            ...(fetchMiddlewares<RequestHandler>(OverridesController)),
            ...(fetchMiddlewares<RequestHandler>(OverridesController.prototype.revokeOverride)),

            async function OverridesController_revokeOverride(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsOverridesController_revokeOverride, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<OverridesController>(OverridesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'revokeOverride',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsNamespacesController_listNamespaces: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id/namespaces',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(NamespacesController)),
            ...(fetchMiddlewares<RequestHandler>(NamespacesController.prototype.listNamespaces)),

            async function NamespacesController_listNamespaces(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsNamespacesController_listNamespaces, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<NamespacesController>(NamespacesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listNamespaces',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsNamespacesController_createNamespace: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"CreateNamespaceBody"},
        };
        app.post('/api/v1/scopes/:scope_id/namespaces',
            authenticateMiddleware([{"bearer":["write"]}]),
            ...(fetchMiddlewares<RequestHandler>(NamespacesController)),
            ...(fetchMiddlewares<RequestHandler>(NamespacesController.prototype.createNamespace)),

            async function NamespacesController_createNamespace(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsNamespacesController_createNamespace, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<NamespacesController>(NamespacesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createNamespace',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsLinksController_createLink: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"CreateLinkBody"},
        };
        app.post('/api/v1/links',
            authenticateMiddleware([{"bearer":["write"]}]),
            ...(fetchMiddlewares<RequestHandler>(LinksController)),
            ...(fetchMiddlewares<RequestHandler>(LinksController.prototype.createLink)),

            async function LinksController_createLink(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsLinksController_createLink, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<LinksController>(LinksController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createLink',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsLinksController_listLinks: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                entity_id: {"in":"query","name":"entity_id","required":true,"dataType":"string"},
                relation: {"in":"query","name":"relation","ref":"LinkRelation"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/api/v1/links',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(LinksController)),
            ...(fetchMiddlewares<RequestHandler>(LinksController.prototype.listLinks)),

            async function LinksController_listLinks(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsLinksController_listLinks, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<LinksController>(LinksController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listLinks',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsInvariantsController_listInvariants: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                status: {"in":"query","name":"status","dataType":"union","subSchemas":[{"dataType":"enum","enums":["active"]},{"dataType":"enum","enums":["revoked"]},{"dataType":"enum","enums":["all"]}]},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id/invariants',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(InvariantsController)),
            ...(fetchMiddlewares<RequestHandler>(InvariantsController.prototype.listInvariants)),

            async function InvariantsController_listInvariants(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInvariantsController_listInvariants, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InvariantsController>(InvariantsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listInvariants',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsInvariantsController_createInvariant: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"CreateInvariantBody"},
        };
        app.post('/api/v1/scopes/:scope_id/invariants',
            authenticateMiddleware([{"bearer":["manage_invariants"]}]),
            ...(fetchMiddlewares<RequestHandler>(InvariantsController)),
            ...(fetchMiddlewares<RequestHandler>(InvariantsController.prototype.createInvariant)),

            async function InvariantsController_createInvariant(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInvariantsController_createInvariant, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InvariantsController>(InvariantsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createInvariant',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsInvariantsController_getInvariant: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                invariant_id: {"in":"path","name":"invariant_id","required":true,"dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id/invariants/:invariant_id',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(InvariantsController)),
            ...(fetchMiddlewares<RequestHandler>(InvariantsController.prototype.getInvariant)),

            async function InvariantsController_getInvariant(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInvariantsController_getInvariant, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InvariantsController>(InvariantsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getInvariant',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsInvariantsController_revokeInvariant: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                invariant_id: {"in":"path","name":"invariant_id","required":true,"dataType":"string"},
        };
        app.delete('/api/v1/scopes/:scope_id/invariants/:invariant_id',
            authenticateMiddleware([{"bearer":["manage_invariants"]}]),
            ...(fetchMiddlewares<RequestHandler>(InvariantsController)),
            ...(fetchMiddlewares<RequestHandler>(InvariantsController.prototype.revokeInvariant)),

            async function InvariantsController_revokeInvariant(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInvariantsController_revokeInvariant, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InvariantsController>(InvariantsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'revokeInvariant',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsEventsController_listEvents: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                type: {"in":"query","name":"type","dataType":"string"},
                after: {"in":"query","name":"after","dataType":"string"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id/events',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(EventsController)),
            ...(fetchMiddlewares<RequestHandler>(EventsController.prototype.listEvents)),

            async function EventsController_listEvents(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsEventsController_listEvents, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<EventsController>(EventsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listEvents',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsDecisionsController_listDecisions: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
                namespace: {"in":"query","name":"namespace","dataType":"string"},
                tag: {"in":"query","name":"tag","dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id/decisions',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(DecisionsController)),
            ...(fetchMiddlewares<RequestHandler>(DecisionsController.prototype.listDecisions)),

            async function DecisionsController_listDecisions(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsDecisionsController_listDecisions, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<DecisionsController>(DecisionsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listDecisions',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsDecisionsController_createDecision: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"CreateDecisionBody"},
        };
        app.post('/api/v1/scopes/:scope_id/decisions',
            authenticateMiddleware([{"bearer":["write"]}]),
            ...(fetchMiddlewares<RequestHandler>(DecisionsController)),
            ...(fetchMiddlewares<RequestHandler>(DecisionsController.prototype.createDecision)),

            async function DecisionsController_createDecision(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsDecisionsController_createDecision, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<DecisionsController>(DecisionsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createDecision',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsDecisionsController_getDecision: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                decision_id: {"in":"path","name":"decision_id","required":true,"dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id/decisions/:decision_id',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(DecisionsController)),
            ...(fetchMiddlewares<RequestHandler>(DecisionsController.prototype.getDecision)),

            async function DecisionsController_getDecision(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsDecisionsController_getDecision, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<DecisionsController>(DecisionsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getDecision',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsApprovalsController_requestApproval: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"RequestApprovalBody"},
        };
        app.post('/api/v1/scopes/:scope_id/approvals',
            authenticateMiddleware([{"bearer":["write"]}]),
            ...(fetchMiddlewares<RequestHandler>(ApprovalsController)),
            ...(fetchMiddlewares<RequestHandler>(ApprovalsController.prototype.requestApproval)),

            async function ApprovalsController_requestApproval(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsApprovalsController_requestApproval, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ApprovalsController>(ApprovalsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'requestApproval',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsApprovalsController_listApprovals: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                status: {"in":"query","name":"status","dataType":"union","subSchemas":[{"dataType":"enum","enums":["pending"]},{"dataType":"enum","enums":["approved"]},{"dataType":"enum","enums":["rejected"]},{"dataType":"enum","enums":["expired"]}]},
                trigger_id: {"in":"query","name":"trigger_id","dataType":"string"},
                requested_by: {"in":"query","name":"requested_by","dataType":"string"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id/approvals',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(ApprovalsController)),
            ...(fetchMiddlewares<RequestHandler>(ApprovalsController.prototype.listApprovals)),

            async function ApprovalsController_listApprovals(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsApprovalsController_listApprovals, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ApprovalsController>(ApprovalsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listApprovals',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsApprovalsController_getApproval: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                approval_id: {"in":"path","name":"approval_id","required":true,"dataType":"string"},
        };
        app.get('/api/v1/scopes/:scope_id/approvals/:approval_id',
            authenticateMiddleware([{"bearer":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(ApprovalsController)),
            ...(fetchMiddlewares<RequestHandler>(ApprovalsController.prototype.getApproval)),

            async function ApprovalsController_getApproval(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsApprovalsController_getApproval, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ApprovalsController>(ApprovalsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getApproval',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsApprovalsController_decideApproval: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                scope_id: {"in":"path","name":"scope_id","required":true,"dataType":"string"},
                approval_id: {"in":"path","name":"approval_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"DecideApprovalBody"},
        };
        app.post('/api/v1/scopes/:scope_id/approvals/:approval_id/decide',
            authenticateMiddleware([{"bearer":["approve"]}]),
            ...(fetchMiddlewares<RequestHandler>(ApprovalsController)),
            ...(fetchMiddlewares<RequestHandler>(ApprovalsController.prototype.decideApproval)),

            async function ApprovalsController_decideApproval(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsApprovalsController_decideApproval, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ApprovalsController>(ApprovalsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'decideApproval',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsApiKeysController_createApiKey: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"CreateApiKeyBody"},
        };
        app.post('/api/v1/api-keys',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(ApiKeysController)),
            ...(fetchMiddlewares<RequestHandler>(ApiKeysController.prototype.createApiKey)),

            async function ApiKeysController_createApiKey(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsApiKeysController_createApiKey, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ApiKeysController>(ApiKeysController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createApiKey',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: 201,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsApiKeysController_listApiKeys: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
                tenant_id: {"in":"query","name":"tenant_id","dataType":"string"},
                principal_id: {"in":"query","name":"principal_id","dataType":"string"},
        };
        app.get('/api/v1/api-keys',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(ApiKeysController)),
            ...(fetchMiddlewares<RequestHandler>(ApiKeysController.prototype.listApiKeys)),

            async function ApiKeysController_listApiKeys(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsApiKeysController_listApiKeys, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ApiKeysController>(ApiKeysController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listApiKeys',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        const argsApiKeysController_revokeApiKey: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                key_id: {"in":"path","name":"key_id","required":true,"dataType":"string"},
        };
        app.delete('/api/v1/api-keys/:key_id',
            authenticateMiddleware([{"bearer":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(ApiKeysController)),
            ...(fetchMiddlewares<RequestHandler>(ApiKeysController.prototype.revokeApiKey)),

            async function ApiKeysController_revokeApiKey(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsApiKeysController_revokeApiKey, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ApiKeysController>(ApiKeysController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'revokeApiKey',
                controller,
                response,
                next,
                validatedArgs,
                successStatus: undefined,
              });
            } catch (err) {
                return next(err);
            }
        });
        // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa


    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

    function authenticateMiddleware(security: TsoaRoute.Security[] = []) {
        return async function runAuthenticationMiddleware(request: any, response: any, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            // keep track of failed auth attempts so we can hand back the most
            // recent one.  This behavior was previously existing so preserving it
            // here
            const failedAttempts: any[] = [];
            const pushAndRethrow = (error: any) => {
                failedAttempts.push(error);
                throw error;
            };

            const secMethodOrPromises: Promise<any>[] = [];
            for (const secMethod of security) {
                if (Object.keys(secMethod).length > 1) {
                    const secMethodAndPromises: Promise<any>[] = [];

                    for (const name in secMethod) {
                        secMethodAndPromises.push(
                            expressAuthenticationRecasted(request, name, secMethod[name], response)
                                .catch(pushAndRethrow)
                        );
                    }

                    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

                    secMethodOrPromises.push(Promise.all(secMethodAndPromises)
                        .then(users => { return users[0]; }));
                } else {
                    for (const name in secMethod) {
                        secMethodOrPromises.push(
                            expressAuthenticationRecasted(request, name, secMethod[name], response)
                                .catch(pushAndRethrow)
                        );
                    }
                }
            }

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            try {
                request['user'] = await Promise.any(secMethodOrPromises);

                // Response was sent in middleware, abort
                if (response.writableEnded) {
                    return;
                }

                next();
            }
            catch(err) {
                // Show most recent error as response
                const error = failedAttempts.pop();
                error.status = error.status || 401;

                // Response was sent in middleware, abort
                if (response.writableEnded) {
                    return;
                }
                next(error);
            }

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
        }
    }

    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
}

// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
