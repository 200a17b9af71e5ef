/* tslint:disable */
/* eslint-disable */
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import type { TsoaRoute } from '@tsoa/runtime';
import {  fetchMiddlewares, ExpressTemplateService } from '@tsoa/runtime';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { WhoAmIController } from './controllers/whoami.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { SimulationsController } from './controllers/simulations.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { SigningKeysController } from './controllers/signing-keys.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { JwksController } from './controllers/signing-keys.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { SessionsController } from './controllers/sessions.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { RuleVersionsController } from './controllers/rule-versions.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { ResolveController } from './controllers/resolve.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { ErasuresController } from './controllers/erasures.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { ConsultationsController } from './controllers/consultations.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { CheckController } from './controllers/check.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { ApprovalsController } from './controllers/approvals.controller';
import { expressAuthentication } from './http/authentication';
// @ts-ignore - no great way to install types from subpackage
import { iocContainer } from './http/ioc';
import type { IocContainer, IocContainerFactory } from '@tsoa/runtime';
import type { Request as ExRequest, Response as ExResponse, RequestHandler, Router } from 'express';

const expressAuthenticationRecasted = expressAuthentication as (req: ExRequest, securityName: string, scopes?: string[], res?: ExResponse) => Promise<any>;


// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

const models: TsoaRoute.Models = {
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
    "ErrorBody": {
        "dataType": "refObject",
        "properties": {
            "code": {"dataType":"string","required":true},
            "message": {"dataType":"string","required":true},
            "details": {"dataType":"any"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulationSample": {
        "dataType": "refObject",
        "properties": {
            "consultation_id": {"dataType":"string","required":true},
            "requested_at": {"dataType":"string","required":true},
            "action": {"dataType":"string","required":true},
            "resource": {"dataType":"string","required":true},
            "before": {"dataType":"string","required":true},
            "after": {"dataType":"string","required":true},
            "dominating_rule_before": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "dominating_rule_after": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulatedWindow": {
        "dataType": "refObject",
        "properties": {
            "since": {"dataType":"string","required":true},
            "until": {"dataType":"string","required":true},
            "last": {"dataType":"union","subSchemas":[{"dataType":"double"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulationResult": {
        "dataType": "refObject",
        "properties": {
            "evaluated": {"dataType":"double","required":true},
            "changed": {"dataType":"double","required":true},
            "transitions": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"double"},"required":true},
            "samples": {"dataType":"array","array":{"dataType":"refObject","ref":"SimulationSample"},"required":true},
            "window": {"ref":"SimulatedWindow","required":true},
            "evaluated_at": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulatedSeverity": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["MANDATORY"]},{"dataType":"enum","enums":["REQUIRES_APPROVAL"]},{"dataType":"enum","enums":["ADVISORY"]},{"dataType":"enum","enums":["ALLOW"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulatedGlob": {
        "dataType": "refAlias",
        "type": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":500}}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulatedAppliesTo": {
        "dataType": "refObject",
        "properties": {
            "actions": {"dataType":"array","array":{"dataType":"refAlias","ref":"SimulatedGlob"},"validators":{"minItems":{"value":1},"maxItems":{"value":100}}},
            "resources": {"dataType":"array","array":{"dataType":"refAlias","ref":"SimulatedGlob"},"validators":{"minItems":{"value":1},"maxItems":{"value":100}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulatedFieldPath": {
        "dataType": "refAlias",
        "type": {"dataType":"string","validators":{"pattern":{"value":"^[A-Za-z_][A-Za-z0-9_-]*(\\.[A-Za-z_][A-Za-z0-9_-]*)*$"},"maxLength":{"value":200}}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulatedConditionOp": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["eq"]},{"dataType":"enum","enums":["neq"]},{"dataType":"enum","enums":["in"]},{"dataType":"enum","enums":["not_in"]},{"dataType":"enum","enums":["gt"]},{"dataType":"enum","enums":["gte"]},{"dataType":"enum","enums":["lt"]},{"dataType":"enum","enums":["lte"]},{"dataType":"enum","enums":["exists"]},{"dataType":"enum","enums":["contains"]},{"dataType":"enum","enums":["starts_with"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulatedConditionRow": {
        "dataType": "refObject",
        "properties": {
            "field": {"ref":"SimulatedFieldPath","required":true},
            "op": {"ref":"SimulatedConditionOp","required":true},
            "value": {"dataType":"any"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulatedRequirementType": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["string"]},{"dataType":"enum","enums":["number"]},{"dataType":"enum","enums":["integer"]},{"dataType":"enum","enums":["boolean"]},{"dataType":"enum","enums":["enum"]},{"dataType":"enum","enums":["date"]},{"dataType":"enum","enums":["datetime"]},{"dataType":"enum","enums":["object"]},{"dataType":"enum","enums":["array"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulatedRequirement": {
        "dataType": "refObject",
        "properties": {
            "field": {"ref":"SimulatedFieldPath","required":true},
            "reason": {"dataType":"string","validators":{"maxLength":{"value":1000}}},
            "type": {"ref":"SimulatedRequirementType","required":true},
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
    "SimulatedDeciderId": {
        "dataType": "refAlias",
        "type": {"dataType":"string","validators":{"pattern":{"value":"^(agn-[0-9a-f]{24}|hum-[0-9a-f]{24}|role-[a-z0-9][a-z0-9_.-]{0,62})$"}}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulatedLimit": {
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
    "SimulatedRequiresPrior": {
        "dataType": "refObject",
        "properties": {
            "action": {"dataType":"string","required":true},
            "within": {"dataType":"string","required":true},
            "same": {"dataType":"union","subSchemas":[{"dataType":"array","array":{"dataType":"string"}},{"dataType":"enum","enums":[null]}]},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulatedNewRule": {
        "dataType": "refObject",
        "properties": {
            "directive": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":20000}}},
            "severity": {"ref":"SimulatedSeverity","required":true},
            "verdict": {"dataType":"string","validators":{"pattern":{"value":"^[a-z][a-z0-9_]{0,63}$"}}},
            "applies_to": {"ref":"SimulatedAppliesTo"},
            "conditions": {"dataType":"array","array":{"dataType":"refObject","ref":"SimulatedConditionRow"},"validators":{"maxItems":{"value":100}}},
            "condition_mode": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["all"]},{"dataType":"enum","enums":["any"]}]},
            "requires": {"dataType":"array","array":{"dataType":"refObject","ref":"SimulatedRequirement"},"validators":{"maxItems":{"value":100}}},
            "deciders": {"dataType":"array","array":{"dataType":"refAlias","ref":"SimulatedDeciderId"},"validators":{"maxItems":{"value":100}}},
            "priority": {"dataType":"integer","validators":{"minimum":{"value":-1000000},"maximum":{"value":1000000}}},
            "mode": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["enforce"]},{"dataType":"enum","enums":["shadow"]}]},
            "approvals_required": {"dataType":"union","subSchemas":[{"dataType":"integer"},{"dataType":"enum","enums":[null]}],"validators":{"minimum":{"value":1},"maximum":{"value":20}}},
            "escalate_after": {"dataType":"union","subSchemas":[{"dataType":"integer"},{"dataType":"enum","enums":[null]}],"validators":{"minimum":{"value":60},"maximum":{"value":31536000}}},
            "escalation_deciders": {"dataType":"union","subSchemas":[{"dataType":"array","array":{"dataType":"refAlias","ref":"SimulatedDeciderId"}},{"dataType":"enum","enums":[null]}],"validators":{"maxItems":{"value":100}}},
            "approval_expires_after": {"dataType":"union","subSchemas":[{"dataType":"integer"},{"dataType":"enum","enums":[null]}],"validators":{"minimum":{"value":60},"maximum":{"value":31536000}}},
            "limit": {"dataType":"union","subSchemas":[{"ref":"SimulatedLimit"},{"dataType":"enum","enums":[null]}]},
            "requires_prior": {"dataType":"union","subSchemas":[{"ref":"SimulatedRequiresPrior"},{"dataType":"enum","enums":[null]}]},
            "author": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "author_type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["human"]},{"dataType":"enum","enums":["agent"]},{"dataType":"enum","enums":["system"]}]},
            "scope_id": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulatedRuleBody": {
        "dataType": "refObject",
        "properties": {
            "directive": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":20000}}},
            "severity": {"ref":"SimulatedSeverity","required":true},
            "verdict": {"dataType":"string","validators":{"pattern":{"value":"^[a-z][a-z0-9_]{0,63}$"}}},
            "applies_to": {"ref":"SimulatedAppliesTo"},
            "conditions": {"dataType":"array","array":{"dataType":"refObject","ref":"SimulatedConditionRow"},"validators":{"maxItems":{"value":100}}},
            "condition_mode": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["all"]},{"dataType":"enum","enums":["any"]}]},
            "requires": {"dataType":"array","array":{"dataType":"refObject","ref":"SimulatedRequirement"},"validators":{"maxItems":{"value":100}}},
            "deciders": {"dataType":"array","array":{"dataType":"refAlias","ref":"SimulatedDeciderId"},"validators":{"maxItems":{"value":100}}},
            "priority": {"dataType":"integer","validators":{"minimum":{"value":-1000000},"maximum":{"value":1000000}}},
            "mode": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["enforce"]},{"dataType":"enum","enums":["shadow"]}]},
            "approvals_required": {"dataType":"union","subSchemas":[{"dataType":"integer"},{"dataType":"enum","enums":[null]}],"validators":{"minimum":{"value":1},"maximum":{"value":20}}},
            "escalate_after": {"dataType":"union","subSchemas":[{"dataType":"integer"},{"dataType":"enum","enums":[null]}],"validators":{"minimum":{"value":60},"maximum":{"value":31536000}}},
            "escalation_deciders": {"dataType":"union","subSchemas":[{"dataType":"array","array":{"dataType":"refAlias","ref":"SimulatedDeciderId"}},{"dataType":"enum","enums":[null]}],"validators":{"maxItems":{"value":100}}},
            "approval_expires_after": {"dataType":"union","subSchemas":[{"dataType":"integer"},{"dataType":"enum","enums":[null]}],"validators":{"minimum":{"value":60},"maximum":{"value":31536000}}},
            "limit": {"dataType":"union","subSchemas":[{"ref":"SimulatedLimit"},{"dataType":"enum","enums":[null]}]},
            "requires_prior": {"dataType":"union","subSchemas":[{"ref":"SimulatedRequiresPrior"},{"dataType":"enum","enums":[null]}]},
            "author": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "author_type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["human"]},{"dataType":"enum","enums":["agent"]},{"dataType":"enum","enums":["system"]}]},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulatedScopeValue": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"double"},{"dataType":"boolean"}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulatedScopeSelector": {
        "dataType": "refObject",
        "properties": {
        },
        "additionalProperties": {"ref":"SimulatedScopeValue"},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulatedOverrideBody": {
        "dataType": "refObject",
        "properties": {
            "target_ids": {"dataType":"array","array":{"dataType":"string"},"required":true,"validators":{"minItems":{"value":1},"maxItems":{"value":100}}},
            "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["temporary"]},{"dataType":"enum","enums":["conditional"]},{"dataType":"enum","enums":["permanent"]}],"required":true},
            "applies_to_scope": {"dataType":"union","subSchemas":[{"ref":"SimulatedScopeSelector"},{"dataType":"enum","enums":[null]}]},
            "expires_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}]},
            "conditions": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"validators":{"maxLength":{"value":20000}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulationChange": {
        "dataType": "refObject",
        "properties": {
            "op": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["create"]},{"dataType":"enum","enums":["update"]},{"dataType":"enum","enums":["archive"]}],"required":true},
            "rule": {"dataType":"union","subSchemas":[{"ref":"SimulatedNewRule"},{"ref":"SimulatedRuleBody"}]},
            "rule_id": {"dataType":"string"},
            "override": {"ref":"SimulatedOverrideBody"},
            "override_id": {"dataType":"string"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulationWindow": {
        "dataType": "refObject",
        "properties": {
            "since": {"dataType":"string"},
            "until": {"dataType":"string"},
            "last": {"dataType":"integer","validators":{"minimum":{"value":1},"maximum":{"value":1000000}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SimulationRequest": {
        "dataType": "refObject",
        "properties": {
            "changes": {"dataType":"array","array":{"dataType":"refObject","ref":"SimulationChange"},"required":true,"validators":{"maxItems":{"value":100}}},
            "window": {"ref":"SimulationWindow"},
            "sample_limit": {"dataType":"integer","validators":{"minimum":{"value":0},"maximum":{"value":100}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "VerificationKey": {
        "dataType": "refObject",
        "properties": {
            "kid": {"dataType":"string","required":true},
            "kty": {"dataType":"string","required":true},
            "crv": {"dataType":"string","required":true},
            "x": {"dataType":"string","required":true},
            "y": {"dataType":"string"},
            "alg": {"dataType":"string","required":true},
            "use": {"dataType":"string","required":true},
            "not_before": {"dataType":"string","required":true},
            "not_after": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SigningKeySetup": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "current_kid": {"dataType":"string","required":true},
            "created": {"dataType":"boolean","required":true},
            "keys": {"dataType":"array","array":{"dataType":"refObject","ref":"VerificationKey"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "KeySet": {
        "dataType": "refObject",
        "properties": {
            "keys": {"dataType":"array","array":{"dataType":"refObject","ref":"VerificationKey"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SigningKeyRotation": {
        "dataType": "refObject",
        "properties": {
            "mode": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["scheduled"]},{"dataType":"enum","enums":["emergency"]}],"required":true},
            "kid": {"dataType":"string","required":true},
            "epoch": {"dataType":"string","required":true},
            "not_before": {"dataType":"string","required":true},
            "retired": {"dataType":"array","array":{"dataType":"string"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RotateSigningKeyBody": {
        "dataType": "refObject",
        "properties": {
            "mode": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["scheduled"]},{"dataType":"enum","enums":["emergency"]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "SessionCreated": {
        "dataType": "refObject",
        "properties": {
            "expires_at": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ConditionRow": {
        "dataType": "refObject",
        "properties": {
            "field": {"dataType":"string","required":true},
            "op": {"dataType":"string","required":true},
            "value": {"dataType":"any"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RuleVersionLimit": {
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
    "RuleVersionPrior": {
        "dataType": "refObject",
        "properties": {
            "action": {"dataType":"string","required":true},
            "within": {"dataType":"string","required":true},
            "same": {"dataType":"array","array":{"dataType":"string"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RuleVersion": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "rule_id": {"dataType":"string","required":true},
            "tenant_id": {"dataType":"string","required":true},
            "scope_id": {"dataType":"string","required":true},
            "version": {"dataType":"double","required":true},
            "statement": {"dataType":"string","required":true},
            "severity": {"dataType":"string","required":true},
            "verdict": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "applies_to": {"dataType":"union","subSchemas":[{"dataType":"nestedObjectLiteral","nestedProperties":{"resources":{"dataType":"array","array":{"dataType":"string"}},"actions":{"dataType":"array","array":{"dataType":"string"}}}},{"dataType":"enum","enums":[null]}],"required":true},
            "conditions": {"dataType":"array","array":{"dataType":"refObject","ref":"ConditionRow"},"required":true},
            "condition_mode": {"dataType":"string","required":true},
            "requires": {"dataType":"array","array":{"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"}},"required":true},
            "deciders": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "priority": {"dataType":"union","subSchemas":[{"dataType":"double"},{"dataType":"enum","enums":[null]}],"required":true},
            "mode": {"dataType":"enum","enums":["shadow"]},
            "approvals_required": {"dataType":"double"},
            "escalate_after": {"dataType":"double"},
            "escalation_deciders": {"dataType":"array","array":{"dataType":"string"}},
            "approval_expires_after": {"dataType":"double"},
            "limit": {"ref":"RuleVersionLimit"},
            "requires_prior": {"ref":"RuleVersionPrior"},
            "author": {"dataType":"string","required":true},
            "author_type": {"dataType":"string","required":true},
            "created_at": {"dataType":"string","required":true},
            "created_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "status": {"dataType":"string","required":true},
            "rule_status": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Requirement": {
        "dataType": "refObject",
        "properties": {
            "field": {"dataType":"string","required":true},
            "reason": {"dataType":"string","required":true},
            "type": {"dataType":"string","required":true},
            "allowed_values": {"dataType":"array","array":{"dataType":"any"}},
            "min": {"dataType":"double"},
            "max": {"dataType":"double"},
            "format": {"dataType":"string"},
            "source_requirement": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["verified"]},{"dataType":"enum","enums":["unverified"]}]},
            "acceptable_sources": {"dataType":"array","array":{"dataType":"string"}},
            "confidence_threshold": {"dataType":"double"},
            "rule_ids": {"dataType":"array","array":{"dataType":"string"}},
            "problems": {"dataType":"array","array":{"dataType":"string"}},
            "ledger_citation": {"dataType":"enum","enums":["accepted"]},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "IncompleteResolveResponse": {
        "dataType": "refObject",
        "properties": {
            "operation_status": {"dataType":"enum","enums":["incomplete"],"required":true},
            "resolve_session_id": {"dataType":"string","required":true},
            "round": {"dataType":"double","required":true},
            "required_context": {"dataType":"array","array":{"dataType":"refObject","ref":"Requirement"},"required":true},
            "provisional_context": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RequiredContextRound": {
        "dataType": "refObject",
        "properties": {
            "round": {"dataType":"double","required":true},
            "fields": {"dataType":"array","array":{"dataType":"string"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "OverrideNotApplied": {
        "dataType": "refObject",
        "properties": {
            "override_id": {"dataType":"string","required":true},
            "reason": {"dataType":"string","required":true},
            "missing_fields": {"dataType":"array","array":{"dataType":"string"}},
            "error": {"dataType":"string"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "PrecedenceTraceEntry": {
        "dataType": "refObject",
        "properties": {
            "rule_id": {"dataType":"string","required":true},
            "rule_version_id": {"dataType":"string","required":true},
            "severity": {"dataType":"string","required":true},
            "scope_match": {"dataType":"string","required":true},
            "reason": {"dataType":"string","required":true},
            "decided_by": {"dataType":"string"},
            "missing_fields": {"dataType":"array","array":{"dataType":"string"}},
            "overridden_by": {"dataType":"string"},
            "overrides_not_applied": {"dataType":"array","array":{"dataType":"refObject","ref":"OverrideNotApplied"}},
            "limit_state": {"dataType":"string"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ApprovalHint": {
        "dataType": "refObject",
        "properties": {
            "endpoint": {"dataType":"string","required":true},
            "example_body": {"dataType":"nestedObjectLiteral","nestedProperties":{"requester_notes":{"dataType":"string","required":true},"consultation_id":{"dataType":"string","required":true}},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "LimitRecordEntry": {
        "dataType": "refObject",
        "properties": {
            "key": {"dataType":"string","required":true},
            "max": {"dataType":"double","required":true},
            "rule_id": {"dataType":"string","required":true},
            "used_after": {"dataType":"double","required":true},
            "used_before": {"dataType":"double","required":true},
            "window": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "NotInvertibleRow": {
        "dataType": "refObject",
        "properties": {
            "field": {"dataType":"string","required":true},
            "op": {"dataType":"string","required":true},
            "rule_id": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ExplanationChange": {
        "dataType": "refObject",
        "properties": {
            "field": {"dataType":"string","required":true},
            "op": {"dataType":"string","required":true},
            "value": {"dataType":"any","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ExplanationRequirement": {
        "dataType": "refObject",
        "properties": {
            "acceptable_sources": {"dataType":"array","array":{"dataType":"string"}},
            "confidence_threshold": {"dataType":"double"},
            "field": {"dataType":"string","required":true},
            "rule_id": {"dataType":"string","required":true},
            "source_requirement": {"dataType":"enum","enums":["verified"]},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ExplanationAlternative": {
        "dataType": "refObject",
        "properties": {
            "changes": {"dataType":"array","array":{"dataType":"refObject","ref":"ExplanationChange"},"required":true},
            "requirements": {"dataType":"array","array":{"dataType":"refObject","ref":"ExplanationRequirement"}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Explanation": {
        "dataType": "refObject",
        "properties": {
            "deciders": {"dataType":"array","array":{"dataType":"string"}},
            "not_invertible": {"dataType":"array","array":{"dataType":"refObject","ref":"NotInvertibleRow"},"required":true},
            "to_allow": {"dataType":"array","array":{"dataType":"refObject","ref":"ExplanationAlternative"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CompleteResolveResponse": {
        "dataType": "refObject",
        "properties": {
            "operation_status": {"dataType":"enum","enums":["complete"],"required":true},
            "verdict": {"dataType":"string","required":true},
            "cited_rule_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "cited_rule_version_ids": {"dataType":"array","array":{"dataType":"string"}},
            "dominating_rule_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}]},
            "precedence_trace": {"dataType":"array","array":{"dataType":"refObject","ref":"PrecedenceTraceEntry"}},
            "resolved_target_ids": {"dataType":"array","array":{"dataType":"string"}},
            "consultation_id": {"dataType":"string","required":true},
            "signed_verdict": {"dataType":"string","required":true},
            "context_hash": {"dataType":"string"},
            "approval": {"ref":"ApprovalHint"},
            "limits": {"dataType":"array","array":{"dataType":"refObject","ref":"LimitRecordEntry"}},
            "explanation": {"ref":"Explanation"},
            "required_context_history": {"dataType":"array","array":{"dataType":"refObject","ref":"RequiredContextRound"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "OverviewIncompleteResponse": {
        "dataType": "refObject",
        "properties": {
            "operation_status": {"dataType":"enum","enums":["incomplete"],"required":true},
            "required_context": {"dataType":"array","array":{"dataType":"refObject","ref":"Requirement"},"required":true},
            "resolve_session_id": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ApprovalTrigger": {
        "dataType": "refObject",
        "properties": {
            "rule_id": {"dataType":"string","required":true},
            "rule_version_id": {"dataType":"string","required":true},
            "reason": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Approver": {
        "dataType": "refObject",
        "properties": {
            "candidate_deciders": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "triggers": {"dataType":"array","array":{"dataType":"refObject","ref":"ApprovalTrigger"},"required":true},
            "endpoint": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "OverviewCompleteResponse": {
        "dataType": "refObject",
        "properties": {
            "operation_status": {"dataType":"enum","enums":["complete"],"required":true},
            "verdict": {"dataType":"string","required":true},
            "cited_rules": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "cited_rule_versions": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "dominating_rule_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "consultation_id": {"dataType":"string","required":true},
            "normative_hash": {"dataType":"string","required":true},
            "approver": {"ref":"Approver"},
            "limits": {"dataType":"array","array":{"dataType":"refObject","ref":"LimitRecordEntry"}},
            "explanation": {"ref":"Explanation"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ResolveResponse": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"ref":"IncompleteResolveResponse"},{"ref":"CompleteResolveResponse"},{"ref":"OverviewIncompleteResponse"},{"ref":"OverviewCompleteResponse"}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ScopeValue": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"double"},{"dataType":"boolean"}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ScopeFields": {
        "dataType": "refObject",
        "properties": {
        },
        "additionalProperties": {"ref":"ScopeValue"},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Fact": {
        "dataType": "refObject",
        "properties": {
            "value": {"dataType":"any","required":true},
            "source": {"dataType":"string","required":true},
            "verification_status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["unverified"]},{"dataType":"enum","enums":["verified"]}]},
            "confidence": {"dataType":"double","validators":{"minimum":{"value":0},"maximum":{"value":1}}},
            "as_of": {"dataType":"string"},
            "payload_path": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Context": {
        "dataType": "refObject",
        "properties": {
        },
        "additionalProperties": {"ref":"Fact"},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Correlation": {
        "dataType": "refObject",
        "properties": {
            "conversation_id": {"dataType":"string","validators":{"maxLength":{"value":200}}},
            "agent_run_id": {"dataType":"string","validators":{"maxLength":{"value":200}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ResolveRequest": {
        "dataType": "refObject",
        "properties": {
            "action": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":500}}},
            "resource": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":2000}}},
            "scope": {"ref":"ScopeFields","required":true},
            "context": {"ref":"Context","required":true},
            "on_behalf_of": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "resolve_session_id": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "correlation": {"ref":"Correlation"},
            "explain": {"dataType":"boolean"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "OverviewResolveRequest": {
        "dataType": "refObject",
        "properties": {
            "action_type": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":500}}},
            "context": {"ref":"Context","required":true},
            "correlation": {"ref":"Correlation"},
            "resolve_session_id": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "on_behalf_of": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "explain": {"dataType":"boolean"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ResolveBody": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"ref":"ResolveRequest"},{"ref":"OverviewResolveRequest"}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ErasureResult": {
        "dataType": "refObject",
        "properties": {
            "subject_commitment": {"dataType":"string","required":true},
            "erased_at": {"dataType":"string","required":true},
            "erased_by": {"dataType":"string","required":true},
            "stream_id": {"dataType":"string","required":true},
            "keys_deleted": {"dataType":"double","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ErasureBody": {
        "dataType": "refObject",
        "properties": {
            "subject": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"double"}]},
            "subject_commitment": {"dataType":"string"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Erasure": {
        "dataType": "refObject",
        "properties": {
            "subject_commitment": {"dataType":"string","required":true},
            "erased_at": {"dataType":"string","required":true},
            "erased_by": {"dataType":"string","required":true},
            "stream_id": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ErasureList": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"Erasure"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ShadowDisagreement": {
        "dataType": "refObject",
        "properties": {
            "rule_id": {"dataType":"string","required":true},
            "rule_version_id": {"dataType":"string","required":true},
            "would_be": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "LedgerCitationEntry": {
        "dataType": "refObject",
        "properties": {
            "fact_id": {"dataType":"string","required":true},
            "fact_hash": {"dataType":"string","required":true},
            "stream_id": {"dataType":"string","required":true},
            "sealed_by": {"dataType":"string"},
            "payload_path": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ConsultationRead": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "tenant_id": {"dataType":"string","required":true},
            "operation": {"dataType":"string","required":true},
            "caller_principal_id": {"dataType":"string","required":true},
            "on_behalf_of": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "on_behalf_of_authenticated": {"dataType":"boolean","required":true},
            "requested_at": {"dataType":"string","required":true},
            "action": {"dataType":"string","required":true},
            "resource": {"dataType":"string","required":true},
            "scope_used": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"double"},{"dataType":"boolean"}]},"required":true},
            "parameters": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"},"required":true},
            "context_hash": {"dataType":"string","required":true},
            "context_snapshot": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"},"required":true},
            "cited_entry_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "cited_rule_version_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "dominating_rule_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "precedence_trace": {"dataType":"array","array":{"dataType":"refObject","ref":"PrecedenceTraceEntry"},"required":true},
            "resolved_target_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "verdict": {"dataType":"string","required":true},
            "triggers": {"dataType":"array","array":{"dataType":"refObject","ref":"ApprovalTrigger"},"required":true},
            "candidate_deciders": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "applied_override_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "shadow": {"dataType":"array","array":{"dataType":"refObject","ref":"ShadowDisagreement"}},
            "approval_id": {"dataType":"string"},
            "explanation": {"ref":"Explanation"},
            "ledger_citations": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"ref":"LedgerCitationEntry"}},
            "limits": {"dataType":"array","array":{"dataType":"refObject","ref":"LimitRecordEntry"}},
            "signing_kid": {"dataType":"string","required":true},
            "signing_epoch": {"dataType":"string","required":true},
            "verdict_ttl_seconds": {"dataType":"double","required":true},
            "expired_at": {"dataType":"string","required":true},
            "required_context_history": {"dataType":"array","array":{"dataType":"refObject","ref":"RequiredContextRound"},"required":true},
            "correlation": {"dataType":"union","subSchemas":[{"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"}},{"dataType":"enum","enums":[null]}],"required":true},
            "state_hash": {"dataType":"string","required":true},
            "state_revision": {"dataType":"double","required":true},
            "normative_hash": {"dataType":"string","required":true},
            "signed_verdict": {"dataType":"string","required":true},
            "archived": {"dataType":"boolean"},
            "sensitive_values": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ConsultationExplanation": {
        "dataType": "refObject",
        "properties": {
            "consultation_id": {"dataType":"string","required":true},
            "verdict": {"dataType":"string","required":true},
            "archived": {"dataType":"boolean"},
            "explanation": {"dataType":"union","subSchemas":[{"ref":"Explanation"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "LedgerCheckpoint": {
        "dataType": "refObject",
        "properties": {
            "stream_id": {"dataType":"string","required":true},
            "tree_size": {"dataType":"integer","required":true},
            "root_hash": {"dataType":"string","required":true},
            "created_at_ms": {"dataType":"long","required":true},
            "key_id": {"dataType":"string","required":true},
            "signature_alg": {"dataType":"enum","enums":["Ed25519"],"required":true},
            "signature": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "LedgerFact": {
        "dataType": "refObject",
        "properties": {
            "fact_id": {"dataType":"string","required":true},
            "stream_id": {"dataType":"string","required":true},
            "tenant_id": {"dataType":"string","required":true},
            "actor": {"dataType":"string","required":true},
            "sealed_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "sealed_at_ms": {"dataType":"long","required":true},
            "sealed_at_iso": {"dataType":"string","required":true},
            "custom_payload": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"},"required":true},
            "fact_hash": {"dataType":"string","required":true},
            "prev_hash": {"dataType":"string","required":true},
            "parent_fact_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "sequence": {"dataType":"integer","required":true},
            "client_ref": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "LedgerPublicKey": {
        "dataType": "refObject",
        "properties": {
            "kid": {"dataType":"string","required":true},
            "kty": {"dataType":"string","required":true},
            "crv": {"dataType":"string","required":true},
            "x": {"dataType":"string","required":true},
            "alg": {"dataType":"string","required":true},
            "use": {"dataType":"string","required":true},
            "not_before": {"dataType":"string","required":true},
            "not_after": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ConsultationEvidence": {
        "dataType": "refObject",
        "properties": {
            "consultation_id": {"dataType":"string","required":true},
            "archived": {"dataType":"boolean"},
            "ledger": {"dataType":"nestedObjectLiteral","nestedProperties":{"keys":{"dataType":"nestedObjectLiteral","nestedProperties":{"transitions":{"dataType":"array","array":{"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"}}},"keys":{"dataType":"array","array":{"dataType":"refObject","ref":"LedgerPublicKey"},"required":true}},"required":true},"fact":{"ref":"LedgerFact","required":true},"checkpoint":{"ref":"LedgerCheckpoint","required":true},"inclusion_path":{"dataType":"array","array":{"dataType":"string"},"required":true},"tree_size":{"dataType":"integer","required":true},"leaf_index":{"dataType":"integer","required":true},"fact_hash":{"dataType":"string","required":true},"fact_id":{"dataType":"string","required":true},"stream_id":{"dataType":"string","required":true}},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "GivenBackAmount": {
        "dataType": "refObject",
        "properties": {
            "rule_id": {"dataType":"string","required":true},
            "key": {"dataType":"string","required":true},
            "window": {"dataType":"string","required":true},
            "amount": {"dataType":"double","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ConsultationOutcome": {
        "dataType": "refObject",
        "properties": {
            "consultation_id": {"dataType":"string","required":true},
            "executed": {"dataType":"boolean","required":true},
            "given_back": {"dataType":"array","array":{"dataType":"refObject","ref":"GivenBackAmount"},"required":true},
            "reported_at": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "OutcomeBody": {
        "dataType": "refObject",
        "properties": {
            "executed": {"dataType":"boolean","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ConsultationRecord": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "tenant_id": {"dataType":"string","required":true},
            "operation": {"dataType":"string","required":true},
            "caller_principal_id": {"dataType":"string","required":true},
            "on_behalf_of": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "on_behalf_of_authenticated": {"dataType":"boolean","required":true},
            "requested_at": {"dataType":"string","required":true},
            "action": {"dataType":"string","required":true},
            "resource": {"dataType":"string","required":true},
            "scope_used": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"double"},{"dataType":"boolean"}]},"required":true},
            "parameters": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"},"required":true},
            "context_hash": {"dataType":"string","required":true},
            "context_snapshot": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"},"required":true},
            "cited_entry_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "cited_rule_version_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "dominating_rule_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "precedence_trace": {"dataType":"array","array":{"dataType":"refObject","ref":"PrecedenceTraceEntry"},"required":true},
            "resolved_target_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "verdict": {"dataType":"string","required":true},
            "triggers": {"dataType":"array","array":{"dataType":"refObject","ref":"ApprovalTrigger"},"required":true},
            "candidate_deciders": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "applied_override_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "shadow": {"dataType":"array","array":{"dataType":"refObject","ref":"ShadowDisagreement"}},
            "approval_id": {"dataType":"string"},
            "explanation": {"ref":"Explanation"},
            "ledger_citations": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"ref":"LedgerCitationEntry"}},
            "limits": {"dataType":"array","array":{"dataType":"refObject","ref":"LimitRecordEntry"}},
            "signing_kid": {"dataType":"string","required":true},
            "signing_epoch": {"dataType":"string","required":true},
            "verdict_ttl_seconds": {"dataType":"double","required":true},
            "expired_at": {"dataType":"string","required":true},
            "required_context_history": {"dataType":"array","array":{"dataType":"refObject","ref":"RequiredContextRound"},"required":true},
            "correlation": {"dataType":"union","subSchemas":[{"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"}},{"dataType":"enum","enums":[null]}],"required":true},
            "state_hash": {"dataType":"string","required":true},
            "state_revision": {"dataType":"double","required":true},
            "normative_hash": {"dataType":"string","required":true},
            "signed_verdict": {"dataType":"string","required":true},
            "archived": {"dataType":"boolean"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ConsultationList": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"ConsultationRecord"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CheckResponse": {
        "dataType": "refObject",
        "properties": {
            "operation_status": {"dataType":"enum","enums":["complete"],"required":true},
            "verdict": {"dataType":"string","required":true},
            "cited_rule_ids": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "cited_rule_version_ids": {"dataType":"array","array":{"dataType":"string"}},
            "dominating_rule_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}]},
            "precedence_trace": {"dataType":"array","array":{"dataType":"refObject","ref":"PrecedenceTraceEntry"}},
            "resolved_target_ids": {"dataType":"array","array":{"dataType":"string"}},
            "consultation_id": {"dataType":"string","required":true},
            "signed_verdict": {"dataType":"string","required":true},
            "context_hash": {"dataType":"string"},
            "approval": {"ref":"ApprovalHint"},
            "limits": {"dataType":"array","array":{"dataType":"refObject","ref":"LimitRecordEntry"}},
            "explanation": {"ref":"Explanation"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CheckRequest": {
        "dataType": "refObject",
        "properties": {
            "action": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":500}}},
            "resource": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":2000}}},
            "scope": {"ref":"ScopeFields","required":true},
            "parameters": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"}},
            "on_behalf_of": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":200}}},
            "context": {"ref":"Context"},
            "explain": {"dataType":"boolean"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ApprovalStatus": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["pending"]},{"dataType":"enum","enums":["approved"]},{"dataType":"enum","enums":["rejected"]},{"dataType":"enum","enums":["expired"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ScopeFieldValue": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"double"},{"dataType":"boolean"}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ApprovalTriggerModel": {
        "dataType": "refObject",
        "properties": {
            "rule_id": {"dataType":"string","required":true},
            "rule_version_id": {"dataType":"string","required":true},
            "reason": {"dataType":"string","required":true},
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
            "rule_ids": {"dataType":"array","array":{"dataType":"string"}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ApprovalDecision": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["approve"]},{"dataType":"enum","enums":["reject"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ApprovalGrant": {
        "dataType": "refObject",
        "properties": {
            "override_id": {"dataType":"string","required":true},
            "applies_to_scope": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"ref":"ScopeFieldValue"},"required":true},
            "expires_at": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Approval": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "tenant_id": {"dataType":"string","required":true},
            "status": {"ref":"ApprovalStatus","required":true},
            "requester": {"dataType":"string","required":true},
            "requester_principal": {"dataType":"string","required":true},
            "intended_action": {"dataType":"string","required":true},
            "intended_resource": {"dataType":"string","required":true},
            "intended_parameters": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"},"required":true},
            "intended_scope": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"ref":"ScopeFieldValue"},"required":true},
            "triggers": {"dataType":"array","array":{"dataType":"refObject","ref":"ApprovalTriggerModel"},"required":true},
            "requester_notes": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "requested_at": {"dataType":"string","required":true},
            "consultation_id": {"dataType":"string","required":true},
            "dominating_rule_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "candidate_deciders": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "approvals_required": {"dataType":"double","required":true},
            "approvals": {"dataType":"array","array":{"dataType":"refObject","ref":"ApprovalGiven"},"required":true},
            "expires_at": {"dataType":"string","required":true},
            "escalates_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "escalation_deciders": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "decider": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "decision": {"dataType":"union","subSchemas":[{"ref":"ApprovalDecision"},{"dataType":"enum","enums":[null]}],"required":true},
            "decider_notes": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "decided_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "grants": {"dataType":"array","array":{"dataType":"refObject","ref":"ApprovalGrant"}},
            "authorizes_until": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}]},
            "consumed_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}]},
            "consumed_at": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}]},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CreateApprovalBody": {
        "dataType": "refObject",
        "properties": {
            "consultation_id": {"dataType":"string","required":true},
            "requester_notes": {"dataType":"string","validators":{"maxLength":{"value":20000}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ApprovalList": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"Approval"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "GrantRequestBody": {
        "dataType": "refObject",
        "properties": {
            "applies_to_scope": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"ref":"ScopeFieldValue"}},
            "expires_at": {"dataType":"string"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "DecisionBody": {
        "dataType": "refObject",
        "properties": {
            "decision": {"ref":"ApprovalDecision","required":true},
            "decider_notes": {"dataType":"string","validators":{"maxLength":{"value":20000}}},
            "grant": {"ref":"GrantRequestBody"},
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


    
        const argsWhoAmIController_whoAmI: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
        };
        app.get('/v1/whoami',
            authenticateMiddleware([{"apiKey":[]}]),
            ...(fetchMiddlewares<RequestHandler>(WhoAmIController)),
            ...(fetchMiddlewares<RequestHandler>(WhoAmIController.prototype.whoAmI)),

            async function WhoAmIController_whoAmI(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsWhoAmIController_whoAmI, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<WhoAmIController>(WhoAmIController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'whoAmI',
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
        const argsSimulationsController_simulate: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"SimulationRequest"},
        };
        app.post('/:tenant_id/v1/simulations',
            authenticateMiddleware([{"apiKey":["manage_rules"]}]),
            ...(fetchMiddlewares<RequestHandler>(SimulationsController)),
            ...(fetchMiddlewares<RequestHandler>(SimulationsController.prototype.simulate)),

            async function SimulationsController_simulate(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsSimulationsController_simulate, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<SimulationsController>(SimulationsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'simulate',
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
        const argsSigningKeysController_setupSigningKeys: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
        };
        app.post('/:tenant_id/v1/signing-keys',
            authenticateMiddleware([{"apiKey":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(SigningKeysController)),
            ...(fetchMiddlewares<RequestHandler>(SigningKeysController.prototype.setupSigningKeys)),

            async function SigningKeysController_setupSigningKeys(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsSigningKeysController_setupSigningKeys, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<SigningKeysController>(SigningKeysController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'setupSigningKeys',
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
        const argsSigningKeysController_listSigningKeys: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
        };
        app.get('/:tenant_id/v1/signing-keys',
            authenticateMiddleware([{"apiKey":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(SigningKeysController)),
            ...(fetchMiddlewares<RequestHandler>(SigningKeysController.prototype.listSigningKeys)),

            async function SigningKeysController_listSigningKeys(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsSigningKeysController_listSigningKeys, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<SigningKeysController>(SigningKeysController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listSigningKeys',
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
        const argsSigningKeysController_rotateSigningKey: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"RotateSigningKeyBody"},
        };
        app.post('/:tenant_id/v1/signing-keys/rotate',
            authenticateMiddleware([{"apiKey":["admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(SigningKeysController)),
            ...(fetchMiddlewares<RequestHandler>(SigningKeysController.prototype.rotateSigningKey)),

            async function SigningKeysController_rotateSigningKey(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsSigningKeysController_rotateSigningKey, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<SigningKeysController>(SigningKeysController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'rotateSigningKey',
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
        const argsJwksController_jwks: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_slug: {"in":"path","name":"tenant_slug","required":true,"dataType":"string"},
                v: {"in":"query","name":"v","dataType":"string"},
        };
        app.get('/v1/tenants/:tenant_slug/jwks',
            ...(fetchMiddlewares<RequestHandler>(JwksController)),
            ...(fetchMiddlewares<RequestHandler>(JwksController.prototype.jwks)),

            async function JwksController_jwks(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsJwksController_jwks, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<JwksController>(JwksController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'jwks',
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
        const argsSessionsController_openSession: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
        };
        app.post('/v1/sessions',
            authenticateMiddleware([{"apiKey":["check"]}]),
            ...(fetchMiddlewares<RequestHandler>(SessionsController)),
            ...(fetchMiddlewares<RequestHandler>(SessionsController.prototype.openSession)),

            async function SessionsController_openSession(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsSessionsController_openSession, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<SessionsController>(SessionsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'openSession',
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
        const argsSessionsController_endSession: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
        };
        app.delete('/v1/sessions',
            ...(fetchMiddlewares<RequestHandler>(SessionsController)),
            ...(fetchMiddlewares<RequestHandler>(SessionsController.prototype.endSession)),

            async function SessionsController_endSession(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsSessionsController_endSession, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<SessionsController>(SessionsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'endSession',
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
        const argsRuleVersionsController_getRuleVersion: Record<string, TsoaRoute.ParameterSchema> = {
                rule_version_id: {"in":"path","name":"rule_version_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
        };
        app.get('/v1/rule-versions/:rule_version_id',
            authenticateMiddleware([{"apiKey":[]}]),
            ...(fetchMiddlewares<RequestHandler>(RuleVersionsController)),
            ...(fetchMiddlewares<RequestHandler>(RuleVersionsController.prototype.getRuleVersion)),

            async function RuleVersionsController_getRuleVersion(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsRuleVersionsController_getRuleVersion, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<RuleVersionsController>(RuleVersionsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getRuleVersion',
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
        const argsResolveController_resolve: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"ResolveBody"},
                verdictTtl: {"in":"header","name":"X-Verdict-TTL","dataType":"string"},
        };
        app.post('/:tenant_id/v1/resolve',
            authenticateMiddleware([{"apiKey":["check"]},{"session":["check"]}]),
            ...(fetchMiddlewares<RequestHandler>(ResolveController)),
            ...(fetchMiddlewares<RequestHandler>(ResolveController.prototype.resolve)),

            async function ResolveController_resolve(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsResolveController_resolve, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ResolveController>(ResolveController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'resolve',
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
        const argsErasuresController_createErasure: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"ErasureBody"},
        };
        app.post('/:tenant_id/v1/erasures',
            authenticateMiddleware([{"apiKey":[]}]),
            ...(fetchMiddlewares<RequestHandler>(ErasuresController)),
            ...(fetchMiddlewares<RequestHandler>(ErasuresController.prototype.createErasure)),

            async function ErasuresController_createErasure(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsErasuresController_createErasure, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ErasuresController>(ErasuresController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createErasure',
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
        const argsErasuresController_listErasures: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                limit: {"in":"query","name":"limit","dataType":"double"},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/:tenant_id/v1/erasures',
            authenticateMiddleware([{"apiKey":[]}]),
            ...(fetchMiddlewares<RequestHandler>(ErasuresController)),
            ...(fetchMiddlewares<RequestHandler>(ErasuresController.prototype.listErasures)),

            async function ErasuresController_listErasures(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsErasuresController_listErasures, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ErasuresController>(ErasuresController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listErasures',
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
        const argsConsultationsController_getConsultation: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                consultation_id: {"in":"path","name":"consultation_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
        };
        app.get('/:tenant_id/v1/consultations/:consultation_id',
            authenticateMiddleware([{"apiKey":[]}]),
            ...(fetchMiddlewares<RequestHandler>(ConsultationsController)),
            ...(fetchMiddlewares<RequestHandler>(ConsultationsController.prototype.getConsultation)),

            async function ConsultationsController_getConsultation(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsConsultationsController_getConsultation, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ConsultationsController>(ConsultationsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getConsultation',
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
        const argsConsultationsController_getConsultationExplanation: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                consultation_id: {"in":"path","name":"consultation_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
        };
        app.get('/:tenant_id/v1/consultations/:consultation_id/explanation',
            authenticateMiddleware([{"apiKey":[]}]),
            ...(fetchMiddlewares<RequestHandler>(ConsultationsController)),
            ...(fetchMiddlewares<RequestHandler>(ConsultationsController.prototype.getConsultationExplanation)),

            async function ConsultationsController_getConsultationExplanation(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsConsultationsController_getConsultationExplanation, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ConsultationsController>(ConsultationsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getConsultationExplanation',
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
        const argsConsultationsController_getConsultationEvidence: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                consultation_id: {"in":"path","name":"consultation_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
        };
        app.get('/:tenant_id/v1/consultations/:consultation_id/evidence',
            authenticateMiddleware([{"apiKey":[]}]),
            ...(fetchMiddlewares<RequestHandler>(ConsultationsController)),
            ...(fetchMiddlewares<RequestHandler>(ConsultationsController.prototype.getConsultationEvidence)),

            async function ConsultationsController_getConsultationEvidence(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsConsultationsController_getConsultationEvidence, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ConsultationsController>(ConsultationsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getConsultationEvidence',
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
        const argsConsultationsController_reportConsultationOutcome: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                consultation_id: {"in":"path","name":"consultation_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"OutcomeBody"},
        };
        app.post('/:tenant_id/v1/consultations/:consultation_id/outcome',
            authenticateMiddleware([{"apiKey":[]}]),
            ...(fetchMiddlewares<RequestHandler>(ConsultationsController)),
            ...(fetchMiddlewares<RequestHandler>(ConsultationsController.prototype.reportConsultationOutcome)),

            async function ConsultationsController_reportConsultationOutcome(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsConsultationsController_reportConsultationOutcome, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ConsultationsController>(ConsultationsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'reportConsultationOutcome',
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
        const argsConsultationsController_listConsultations: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                actor: {"in":"query","name":"actor","dataType":"string"},
                since: {"in":"query","name":"since","dataType":"string"},
                until: {"in":"query","name":"until","dataType":"string"},
                action: {"in":"query","name":"action","dataType":"string"},
                verdict: {"in":"query","name":"verdict","dataType":"string"},
                dominating_rule_id: {"in":"query","name":"dominating_rule_id","dataType":"string"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/:tenant_id/v1/consultations',
            authenticateMiddleware([{"apiKey":[]}]),
            ...(fetchMiddlewares<RequestHandler>(ConsultationsController)),
            ...(fetchMiddlewares<RequestHandler>(ConsultationsController.prototype.listConsultations)),

            async function ConsultationsController_listConsultations(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsConsultationsController_listConsultations, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ConsultationsController>(ConsultationsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listConsultations',
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
        const argsCheckController_check: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"CheckRequest"},
                verdictTtl: {"in":"header","name":"X-Verdict-TTL","dataType":"string"},
        };
        app.post('/:tenant_id/v1/check',
            authenticateMiddleware([{"apiKey":["check"]},{"session":["check"]}]),
            ...(fetchMiddlewares<RequestHandler>(CheckController)),
            ...(fetchMiddlewares<RequestHandler>(CheckController.prototype.check)),

            async function CheckController_check(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsCheckController_check, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<CheckController>(CheckController);
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
        const argsApprovalsController_createApproval: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"CreateApprovalBody"},
        };
        app.post('/:tenant_id/v1/approvals',
            authenticateMiddleware([{"apiKey":[]}]),
            ...(fetchMiddlewares<RequestHandler>(ApprovalsController)),
            ...(fetchMiddlewares<RequestHandler>(ApprovalsController.prototype.createApproval)),

            async function ApprovalsController_createApproval(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsApprovalsController_createApproval, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<ApprovalsController>(ApprovalsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createApproval',
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
        const argsApprovalsController_getApproval: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                approval_id: {"in":"path","name":"approval_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
        };
        app.get('/:tenant_id/v1/approvals/:approval_id',
            authenticateMiddleware([{"apiKey":[]}]),
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
        const argsApprovalsController_listApprovals: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                status: {"in":"query","name":"status","dataType":"string"},
                assignee: {"in":"query","name":"assignee","dataType":"string"},
                requester: {"in":"query","name":"requester","dataType":"string"},
                since: {"in":"query","name":"since","dataType":"string"},
                until: {"in":"query","name":"until","dataType":"string"},
                dominating_rule_id: {"in":"query","name":"dominating_rule_id","dataType":"string"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/:tenant_id/v1/approvals',
            authenticateMiddleware([{"apiKey":[]}]),
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
        const argsApprovalsController_decideApproval: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                approval_id: {"in":"path","name":"approval_id","required":true,"dataType":"string"},
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"DecisionBody"},
        };
        app.post('/:tenant_id/v1/approvals/:approval_id/decision',
            authenticateMiddleware([{"apiKey":[]}]),
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
