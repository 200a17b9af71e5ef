/* tslint:disable */
/* eslint-disable */
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import type { TsoaRoute } from '@tsoa/runtime';
import {  fetchMiddlewares, ExpressTemplateService } from '@tsoa/runtime';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { InternalStateController } from './state.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { InternalSealOutboxController } from './seal-outbox.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { InternalMaintenanceController } from './maintenance.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { InternalIdentityController } from './identity.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { InternalDeliveriesController } from './deliveries.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { InternalArchiveController } from './archive.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { InternalApprovalsController } from './approvals.controller';
import { iocContainer } from './../../http/ioc';
import type { IocContainer, IocContainerFactory } from '@tsoa/runtime';
import type { Request as ExRequest, Response as ExResponse, RequestHandler, Router } from 'express';



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
    "ScopeState": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "name": {"dataType":"string","required":true},
            "selector": {"ref":"ScopeSelector","required":true},
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
    "RuleState": {
        "dataType": "refObject",
        "properties": {
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
            "limit": {"dataType":"union","subSchemas":[{"ref":"RuleLimit"},{"dataType":"enum","enums":[null]}]},
            "requires_prior": {"dataType":"union","subSchemas":[{"ref":"RequiresPrior"},{"dataType":"enum","enums":[null]}]},
            "rule_id": {"dataType":"string","required":true},
            "rule_version_id": {"dataType":"string","required":true},
            "scope_id": {"dataType":"string","required":true},
            "version": {"dataType":"double","required":true},
            "version_created_at": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "InvariantState": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "scope_id": {"dataType":"string","required":true},
            "constraint": {"dataType":"string","required":true},
            "requires_approval": {"dataType":"boolean","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "OverrideType": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["temporary"]},{"dataType":"enum","enums":["conditional"]},{"dataType":"enum","enums":["permanent"]},{"dataType":"enum","enums":["approval_grant"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "OverrideState": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "override_type": {"ref":"OverrideType","required":true},
            "target_type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["invariant"]},{"dataType":"enum","enums":["rule"]}],"required":true},
            "target_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "target_version_ids": {"dataType":"array","array":{"dataType":"string"}},
            "scope_id": {"dataType":"string","required":true},
            "scope_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "applies_to_scope": {"dataType":"union","subSchemas":[{"ref":"ScopeSelector"},{"dataType":"enum","enums":[null]}],"required":true},
            "conditions": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "expires_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "approval_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "PrincipalState": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "kind": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["agent"]},{"dataType":"enum","enums":["human"]}],"required":true},
            "active": {"dataType":"boolean","required":true},
            "roles": {"dataType":"array","array":{"dataType":"string"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "TenantState": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "tenant_slug": {"dataType":"string","required":true},
            "revision": {"dataType":"double","required":true},
            "state_hash": {"dataType":"string","required":true},
            "generated_at": {"dataType":"string","required":true},
            "valid_until": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "settings": {"ref":"TenantSettings","required":true},
            "scopes": {"dataType":"array","array":{"dataType":"refObject","ref":"ScopeState"},"required":true},
            "rules": {"dataType":"array","array":{"dataType":"refObject","ref":"RuleState"},"required":true},
            "invariants": {"dataType":"array","array":{"dataType":"refObject","ref":"InvariantState"},"required":true},
            "overrides": {"dataType":"array","array":{"dataType":"refObject","ref":"OverrideState"},"required":true},
            "principals": {"dataType":"array","array":{"dataType":"refObject","ref":"PrincipalState"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "StateHash": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "revision": {"dataType":"double","required":true},
            "state_hash": {"dataType":"string","required":true},
            "valid_until": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "AuthorType": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["human"]},{"dataType":"enum","enums":["agent"]},{"dataType":"enum","enums":["system"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "InternalRuleVersion": {
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
            "rule_status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["active"]},{"dataType":"enum","enums":["archived"]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SealRequest": {
        "dataType": "refObject",
        "properties": {
            "stream_id": {"dataType":"string","required":true},
            "tenant_id": {"dataType":"string","required":true},
            "actor": {"dataType":"string","required":true},
            "custom_payload": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"},"required":true},
            "client_ref": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "LeasedSeal": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "attempts": {"dataType":"double","required":true},
            "seal": {"ref":"SealRequest","required":true},
            "traceparent": {"dataType":"string"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SealLease": {
        "dataType": "refObject",
        "properties": {
            "leased_until": {"dataType":"string","required":true},
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"LeasedSeal"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SealLeaseRequest": {
        "dataType": "refObject",
        "properties": {
            "limit": {"dataType":"double"},
            "lease_ms": {"dataType":"double"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SealDoneAnswer": {
        "dataType": "refObject",
        "properties": {
            "deleted": {"dataType":"double","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SealDoneRequest": {
        "dataType": "refObject",
        "properties": {
            "ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SealReleaseAnswer": {
        "dataType": "refObject",
        "properties": {
            "released": {"dataType":"double","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SealReleaseRequest": {
        "dataType": "refObject",
        "properties": {
            "ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "leased_until": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ArchiveKind": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["consultations"]},{"dataType":"enum","enums":["deliveries"]},{"dataType":"enum","enums":["events"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "DuePartition": {
        "dataType": "refObject",
        "properties": {
            "table": {"dataType":"string","required":true},
            "partition": {"dataType":"string","required":true},
            "from": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "to": {"dataType":"string","required":true},
            "archive": {"dataType":"union","subSchemas":[{"ref":"ArchiveKind"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "MaintenancePartitionsAnswer": {
        "dataType": "refObject",
        "properties": {
            "due": {"dataType":"array","array":{"dataType":"refObject","ref":"DuePartition"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "PartitionDropAnswer": {
        "dataType": "refObject",
        "properties": {
            "dropped": {"dataType":"boolean","required":true},
            "reason": {"dataType":"string"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RetentionsInUse": {
        "dataType": "refObject",
        "properties": {
            "consultations": {"dataType":"array","array":{"dataType":"double"},"required":true},
            "deliveries": {"dataType":"array","array":{"dataType":"double"},"required":true},
            "events": {"dataType":"array","array":{"dataType":"double"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "PrincipalInfo": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "kind": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["agent"]},{"dataType":"enum","enums":["human"]}],"required":true},
            "name": {"dataType":"string","required":true},
            "roles": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "active": {"dataType":"boolean","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Permission": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["read"]},{"dataType":"enum","enums":["write"]},{"dataType":"enum","enums":["manage_rules"]},{"dataType":"enum","enums":["manage_invariants"]},{"dataType":"enum","enums":["approve"]},{"dataType":"enum","enums":["check"]},{"dataType":"enum","enums":["seal"]},{"dataType":"enum","enums":["admin"]},{"dataType":"enum","enums":["platform_admin"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RateLimitOverride": {
        "dataType": "refObject",
        "properties": {
            "requests_per_minute": {"dataType":"double","required":true},
            "burst": {"dataType":"double","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Identity": {
        "dataType": "refObject",
        "properties": {
            "key_id": {"dataType":"string","required":true},
            "tenant_id": {"dataType":"string","required":true},
            "tenant_slug": {"dataType":"string","required":true},
            "principal": {"ref":"PrincipalInfo","required":true},
            "permissions": {"dataType":"array","array":{"dataType":"refAlias","ref":"Permission"},"required":true},
            "scope_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "expires_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "rate_limit": {"dataType":"union","subSchemas":[{"ref":"RateLimitOverride"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "IntrospectionAnswer": {
        "dataType": "refObject",
        "properties": {
            "active": {"dataType":"boolean","required":true},
            "identity": {"ref":"Identity"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "IntrospectRequest": {
        "dataType": "refObject",
        "properties": {
            "key_hash": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "TenantRef": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "slug": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "DispatchedAttempt": {
        "dataType": "refObject",
        "properties": {
            "delivery_id": {"dataType":"string","required":true},
            "attempt": {"dataType":"double","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "DispatchedNotificationAttempt": {
        "dataType": "refObject",
        "properties": {
            "notification_id": {"dataType":"string","required":true},
            "attempt": {"dataType":"double","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RelayAnswer": {
        "dataType": "refObject",
        "properties": {
            "fanned_out": {"dataType":"double","required":true},
            "deliveries_created": {"dataType":"double","required":true},
            "dispatch": {"dataType":"array","array":{"dataType":"refObject","ref":"DispatchedAttempt"},"required":true},
            "notifications": {"dataType":"array","array":{"dataType":"refObject","ref":"DispatchedNotificationAttempt"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RelayRequest": {
        "dataType": "refObject",
        "properties": {
            "limit": {"dataType":"union","subSchemas":[{"dataType":"double"},{"dataType":"enum","enums":[null]}]},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ReleaseAnswer": {
        "dataType": "refObject",
        "properties": {
            "released": {"dataType":"double","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ReleaseRequest": {
        "dataType": "refObject",
        "properties": {
            "delivery_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "notification_ids": {"dataType":"array","array":{"dataType":"string"}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "AttemptReport": {
        "dataType": "refObject",
        "properties": {
            "delivery_id": {"dataType":"string","required":true},
            "attempt": {"dataType":"double","required":true},
            "outcome": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["succeeded"]},{"dataType":"enum","enums":["retry_scheduled"]},{"dataType":"enum","enums":["failed"]},{"dataType":"enum","enums":["cancelled"]},{"dataType":"enum","enums":["skipped"]}],"required":true},
            "status_code": {"dataType":"union","subSchemas":[{"dataType":"double"},{"dataType":"enum","enums":[null]}],"required":true},
            "error": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "delivery_status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["pending"]},{"dataType":"enum","enums":["succeeded"]},{"dataType":"enum","enums":["failed"]},{"dataType":"enum","enums":["cancelled"]}],"required":true},
            "next_attempt_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "AttemptRequest": {
        "dataType": "refObject",
        "properties": {
            "attempt": {"dataType":"double","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "NotificationAttemptReport": {
        "dataType": "refObject",
        "properties": {
            "notification_id": {"dataType":"string","required":true},
            "attempt": {"dataType":"double","required":true},
            "outcome": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["sent"]},{"dataType":"enum","enums":["retry_scheduled"]},{"dataType":"enum","enums":["failed"]},{"dataType":"enum","enums":["cancelled"]},{"dataType":"enum","enums":["skipped"]}],"required":true},
            "error": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["pending"]},{"dataType":"enum","enums":["sent"]},{"dataType":"enum","enums":["failed"]},{"dataType":"enum","enums":["cancelled"]}],"required":true},
            "next_attempt_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "PartitionTenant": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "count": {"dataType":"double","required":true},
            "archived_count": {"dataType":"union","subSchemas":[{"dataType":"double"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "PartitionTenantsAnswer": {
        "dataType": "refObject",
        "properties": {
            "partition": {"dataType":"string","required":true},
            "table": {"dataType":"string","required":true},
            "kind": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["consultations"]},{"dataType":"enum","enums":["deliveries"]},{"dataType":"enum","enums":["events"]}],"required":true},
            "from": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "to": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "tenants": {"dataType":"array","array":{"dataType":"refObject","ref":"PartitionTenant"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "StoredArchiveSegment": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "kind": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["consultations"]},{"dataType":"enum","enums":["deliveries"]},{"dataType":"enum","enums":["events"]}],"required":true},
            "partition": {"dataType":"string","required":true},
            "url": {"dataType":"string","required":true},
            "from": {"dataType":"string","required":true},
            "to": {"dataType":"string","required":true},
            "count": {"dataType":"double","required":true},
            "sha256": {"dataType":"string","required":true},
            "first_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "last_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "fact_id": {"dataType":"string","required":true},
            "index_sha256": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}]},
            "created_at": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RecordSegmentAnswer": {
        "dataType": "refObject",
        "properties": {
            "created": {"dataType":"boolean","required":true},
            "segment": {"ref":"StoredArchiveSegment","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ArchiveSegmentRecord": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "kind": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["consultations"]},{"dataType":"enum","enums":["deliveries"]},{"dataType":"enum","enums":["events"]}],"required":true},
            "partition": {"dataType":"string","required":true},
            "url": {"dataType":"string","required":true},
            "from": {"dataType":"string","required":true},
            "to": {"dataType":"string","required":true},
            "count": {"dataType":"double","required":true},
            "sha256": {"dataType":"string","required":true},
            "first_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "last_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "fact_id": {"dataType":"string","required":true},
            "index_sha256": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}]},
        },
        "additionalProperties": false,
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
    "ApprovalGrantBody": {
        "dataType": "refObject",
        "properties": {
            "override_type": {"dataType":"enum","enums":["approval_grant"]},
            "target_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "target_version_ids": {"dataType":"union","subSchemas":[{"dataType":"array","array":{"dataType":"string"}},{"dataType":"enum","enums":[null]}]},
            "applies_to_scope": {"ref":"ScopeSelector","required":true},
            "expires_at": {"dataType":"string","required":true},
            "justification": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}]},
            "approved_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}]},
            "approval_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}]},
            "consultation_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}]},
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
    "ForeignEventBody": {
        "dataType": "refObject",
        "properties": {
            "source": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["verdict"]},{"dataType":"enum","enums":[null]}]},
            "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["approval.requested"]},{"dataType":"enum","enums":["approval.resolved"]}],"required":true},
            "entity_type": {"dataType":"string","required":true},
            "entity_id": {"dataType":"string","required":true},
            "scope_ids": {"dataType":"union","subSchemas":[{"dataType":"array","array":{"dataType":"string"}},{"dataType":"enum","enums":[null]}]},
            "actor_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}]},
            "data": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"},"required":true},
            "idempotency_key": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}]},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
};
const templateService = new ExpressTemplateService(models, {"noImplicitAdditionalProperties":"silently-remove-extras","bodyCoercion":false});

// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa




export function RegisterRoutes(app: Router) {

    // ###########################################################################################################
    //  NOTE: If you do not see routes for all of your controllers in this file, then you might not have informed tsoa of where to look
    //      Please look into the "controllerPathGlobs" config option described in the readme: https://github.com/lukeautry/tsoa
    // ###########################################################################################################


    
        const argsInternalStateController_tenantState: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
        };
        app.get('/internal/v1/tenants/:tenant_id/state',
            ...(fetchMiddlewares<RequestHandler>(InternalStateController)),
            ...(fetchMiddlewares<RequestHandler>(InternalStateController.prototype.tenantState)),

            async function InternalStateController_tenantState(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalStateController_tenantState, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalStateController>(InternalStateController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'tenantState',
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
        const argsInternalStateController_tenantStateHash: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
        };
        app.get('/internal/v1/tenants/:tenant_id/state-hash',
            ...(fetchMiddlewares<RequestHandler>(InternalStateController)),
            ...(fetchMiddlewares<RequestHandler>(InternalStateController.prototype.tenantStateHash)),

            async function InternalStateController_tenantStateHash(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalStateController_tenantStateHash, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalStateController>(InternalStateController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'tenantStateHash',
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
        const argsInternalStateController_ruleVersion: Record<string, TsoaRoute.ParameterSchema> = {
                rule_version_id: {"in":"path","name":"rule_version_id","required":true,"dataType":"string"},
                tenant_id: {"in":"query","name":"tenant_id","dataType":"string"},
        };
        app.get('/internal/v1/rule-versions/:rule_version_id',
            ...(fetchMiddlewares<RequestHandler>(InternalStateController)),
            ...(fetchMiddlewares<RequestHandler>(InternalStateController.prototype.ruleVersion)),

            async function InternalStateController_ruleVersion(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalStateController_ruleVersion, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalStateController>(InternalStateController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'ruleVersion',
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
        const argsInternalSealOutboxController_leaseSeals: Record<string, TsoaRoute.ParameterSchema> = {
                body: {"in":"body","name":"body","ref":"SealLeaseRequest"},
        };
        app.post('/internal/v1/seal-outbox/lease',
            ...(fetchMiddlewares<RequestHandler>(InternalSealOutboxController)),
            ...(fetchMiddlewares<RequestHandler>(InternalSealOutboxController.prototype.leaseSeals)),

            async function InternalSealOutboxController_leaseSeals(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalSealOutboxController_leaseSeals, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalSealOutboxController>(InternalSealOutboxController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'leaseSeals',
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
        const argsInternalSealOutboxController_sealsDone: Record<string, TsoaRoute.ParameterSchema> = {
                body: {"in":"body","name":"body","required":true,"ref":"SealDoneRequest"},
        };
        app.post('/internal/v1/seal-outbox/done',
            ...(fetchMiddlewares<RequestHandler>(InternalSealOutboxController)),
            ...(fetchMiddlewares<RequestHandler>(InternalSealOutboxController.prototype.sealsDone)),

            async function InternalSealOutboxController_sealsDone(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalSealOutboxController_sealsDone, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalSealOutboxController>(InternalSealOutboxController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'sealsDone',
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
        const argsInternalSealOutboxController_releaseSeals: Record<string, TsoaRoute.ParameterSchema> = {
                body: {"in":"body","name":"body","required":true,"ref":"SealReleaseRequest"},
        };
        app.post('/internal/v1/seal-outbox/release',
            ...(fetchMiddlewares<RequestHandler>(InternalSealOutboxController)),
            ...(fetchMiddlewares<RequestHandler>(InternalSealOutboxController.prototype.releaseSeals)),

            async function InternalSealOutboxController_releaseSeals(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalSealOutboxController_releaseSeals, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalSealOutboxController>(InternalSealOutboxController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'releaseSeals',
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
        const argsInternalMaintenanceController_runPartitions: Record<string, TsoaRoute.ParameterSchema> = {
        };
        app.post('/internal/v1/maintenance/partitions',
            ...(fetchMiddlewares<RequestHandler>(InternalMaintenanceController)),
            ...(fetchMiddlewares<RequestHandler>(InternalMaintenanceController.prototype.runPartitions)),

            async function InternalMaintenanceController_runPartitions(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalMaintenanceController_runPartitions, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalMaintenanceController>(InternalMaintenanceController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'runPartitions',
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
        const argsInternalMaintenanceController_dropPartition: Record<string, TsoaRoute.ParameterSchema> = {
                partition: {"in":"path","name":"partition","required":true,"dataType":"string"},
        };
        app.post('/internal/v1/maintenance/partitions/:partition/drop',
            ...(fetchMiddlewares<RequestHandler>(InternalMaintenanceController)),
            ...(fetchMiddlewares<RequestHandler>(InternalMaintenanceController.prototype.dropPartition)),

            async function InternalMaintenanceController_dropPartition(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalMaintenanceController_dropPartition, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalMaintenanceController>(InternalMaintenanceController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'dropPartition',
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
        const argsInternalMaintenanceController_retentionsInUse: Record<string, TsoaRoute.ParameterSchema> = {
        };
        app.get('/internal/v1/maintenance/retentions',
            ...(fetchMiddlewares<RequestHandler>(InternalMaintenanceController)),
            ...(fetchMiddlewares<RequestHandler>(InternalMaintenanceController.prototype.retentionsInUse)),

            async function InternalMaintenanceController_retentionsInUse(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalMaintenanceController_retentionsInUse, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalMaintenanceController>(InternalMaintenanceController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'retentionsInUse',
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
        const argsInternalIdentityController_introspect: Record<string, TsoaRoute.ParameterSchema> = {
                body: {"in":"body","name":"body","required":true,"ref":"IntrospectRequest"},
        };
        app.post('/internal/v1/introspect',
            ...(fetchMiddlewares<RequestHandler>(InternalIdentityController)),
            ...(fetchMiddlewares<RequestHandler>(InternalIdentityController.prototype.introspect)),

            async function InternalIdentityController_introspect(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalIdentityController_introspect, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalIdentityController>(InternalIdentityController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'introspect',
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
        const argsInternalIdentityController_tenantBySlug: Record<string, TsoaRoute.ParameterSchema> = {
                slug: {"in":"path","name":"slug","required":true,"dataType":"string"},
        };
        app.get('/internal/v1/tenants/by-slug/:slug',
            ...(fetchMiddlewares<RequestHandler>(InternalIdentityController)),
            ...(fetchMiddlewares<RequestHandler>(InternalIdentityController.prototype.tenantBySlug)),

            async function InternalIdentityController_tenantBySlug(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalIdentityController_tenantBySlug, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalIdentityController>(InternalIdentityController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'tenantBySlug',
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
        const argsInternalDeliveriesController_relayOutbox: Record<string, TsoaRoute.ParameterSchema> = {
                body: {"in":"body","name":"body","ref":"RelayRequest"},
        };
        app.post('/internal/v1/outbox/relay',
            ...(fetchMiddlewares<RequestHandler>(InternalDeliveriesController)),
            ...(fetchMiddlewares<RequestHandler>(InternalDeliveriesController.prototype.relayOutbox)),

            async function InternalDeliveriesController_relayOutbox(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalDeliveriesController_relayOutbox, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalDeliveriesController>(InternalDeliveriesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'relayOutbox',
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
        const argsInternalDeliveriesController_releaseDeliveries: Record<string, TsoaRoute.ParameterSchema> = {
                body: {"in":"body","name":"body","required":true,"ref":"ReleaseRequest"},
        };
        app.post('/internal/v1/outbox/release',
            ...(fetchMiddlewares<RequestHandler>(InternalDeliveriesController)),
            ...(fetchMiddlewares<RequestHandler>(InternalDeliveriesController.prototype.releaseDeliveries)),

            async function InternalDeliveriesController_releaseDeliveries(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalDeliveriesController_releaseDeliveries, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalDeliveriesController>(InternalDeliveriesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'releaseDeliveries',
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
        const argsInternalDeliveriesController_runAttempt: Record<string, TsoaRoute.ParameterSchema> = {
                delivery_id: {"in":"path","name":"delivery_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"AttemptRequest"},
        };
        app.post('/internal/v1/webhook-deliveries/:delivery_id/attempts',
            ...(fetchMiddlewares<RequestHandler>(InternalDeliveriesController)),
            ...(fetchMiddlewares<RequestHandler>(InternalDeliveriesController.prototype.runAttempt)),

            async function InternalDeliveriesController_runAttempt(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalDeliveriesController_runAttempt, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalDeliveriesController>(InternalDeliveriesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'runAttempt',
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
        const argsInternalDeliveriesController_runNotificationAttempt: Record<string, TsoaRoute.ParameterSchema> = {
                notification_id: {"in":"path","name":"notification_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"AttemptRequest"},
        };
        app.post('/internal/v1/approval-notifications/:notification_id/attempts',
            ...(fetchMiddlewares<RequestHandler>(InternalDeliveriesController)),
            ...(fetchMiddlewares<RequestHandler>(InternalDeliveriesController.prototype.runNotificationAttempt)),

            async function InternalDeliveriesController_runNotificationAttempt(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalDeliveriesController_runNotificationAttempt, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalDeliveriesController>(InternalDeliveriesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'runNotificationAttempt',
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
        const argsInternalArchiveController_partitionTenants: Record<string, TsoaRoute.ParameterSchema> = {
                partition: {"in":"path","name":"partition","required":true,"dataType":"string"},
        };
        app.get('/internal/v1/maintenance/partitions/:partition/tenants',
            ...(fetchMiddlewares<RequestHandler>(InternalArchiveController)),
            ...(fetchMiddlewares<RequestHandler>(InternalArchiveController.prototype.partitionTenants)),

            async function InternalArchiveController_partitionTenants(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalArchiveController_partitionTenants, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalArchiveController>(InternalArchiveController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'partitionTenants',
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
        const argsInternalArchiveController_partitionRows: Record<string, TsoaRoute.ParameterSchema> = {
                partition: {"in":"path","name":"partition","required":true,"dataType":"string"},
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
        };
        app.get('/internal/v1/maintenance/partitions/:partition/tenants/:tenant_id/rows',
            ...(fetchMiddlewares<RequestHandler>(InternalArchiveController)),
            ...(fetchMiddlewares<RequestHandler>(InternalArchiveController.prototype.partitionRows)),

            async function InternalArchiveController_partitionRows(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalArchiveController_partitionRows, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalArchiveController>(InternalArchiveController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'partitionRows',
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
        const argsInternalArchiveController_recordSegment: Record<string, TsoaRoute.ParameterSchema> = {
                partition: {"in":"path","name":"partition","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"ArchiveSegmentRecord"},
        };
        app.post('/internal/v1/maintenance/partitions/:partition/segments',
            ...(fetchMiddlewares<RequestHandler>(InternalArchiveController)),
            ...(fetchMiddlewares<RequestHandler>(InternalArchiveController.prototype.recordSegment)),

            async function InternalArchiveController_recordSegment(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalArchiveController_recordSegment, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalArchiveController>(InternalArchiveController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'recordSegment',
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
        const argsInternalApprovalsController_createGrant: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"ApprovalGrantBody"},
        };
        app.post('/internal/v1/tenants/:tenant_id/overrides',
            ...(fetchMiddlewares<RequestHandler>(InternalApprovalsController)),
            ...(fetchMiddlewares<RequestHandler>(InternalApprovalsController.prototype.createGrant)),

            async function InternalApprovalsController_createGrant(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalApprovalsController_createGrant, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalApprovalsController>(InternalApprovalsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createGrant',
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
        const argsInternalApprovalsController_recordEvent: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"ForeignEventBody"},
        };
        app.post('/internal/v1/tenants/:tenant_id/events',
            ...(fetchMiddlewares<RequestHandler>(InternalApprovalsController)),
            ...(fetchMiddlewares<RequestHandler>(InternalApprovalsController.prototype.recordEvent)),

            async function InternalApprovalsController_recordEvent(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalApprovalsController_recordEvent, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalApprovalsController>(InternalApprovalsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'recordEvent',
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

    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa


    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
}

// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
