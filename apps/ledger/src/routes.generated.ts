/* tslint:disable */
/* eslint-disable */
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import type { TsoaRoute } from '@tsoa/runtime';
import {  fetchMiddlewares, ExpressTemplateService } from '@tsoa/runtime';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { WhoAmIController } from './controllers/whoami.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { TenantsController } from './controllers/tenants.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { StreamsController } from './controllers/streams.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { LedgerKeysController } from './controllers/signing-keys.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { SigningKeysAdminController } from './controllers/signing-keys.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { StreamProofsController } from './controllers/proofs.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { FactProofsController } from './controllers/proofs.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { HealthController } from './controllers/health.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { FactsController } from './controllers/facts.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { BundlesController } from './controllers/bundles.controller';
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
            "code": {"dataType":"string","required":true},
            "message": {"dataType":"string","required":true},
            "details": {"dataType":"any"},
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
    "Stream": {
        "dataType": "refObject",
        "properties": {
            "stream_id": {"dataType":"string","required":true},
            "tenant_id": {"dataType":"string","required":true},
            "fact_count": {"dataType":"integer","required":true},
            "head_fact_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "head_hash": {"dataType":"string","required":true},
            "created_at_ms": {"dataType":"long","required":true},
            "created_at_iso": {"dataType":"string","required":true},
            "updated_at_ms": {"dataType":"long","required":true},
            "updated_at_iso": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "StreamPage": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"Stream"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Fact": {
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
    "SealFactBody": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":128}}},
            "actor": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":256}}},
            "custom_payload": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"},"required":true},
            "client_ref": {"dataType":"string","validators":{"minLength":{"value":1},"maxLength":{"value":255}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "FactListEntry": {
        "dataType": "refObject",
        "properties": {
            "fact_id": {"dataType":"string","required":true},
            "sealed_at_ms": {"dataType":"long","required":true},
            "sealed_at_iso": {"dataType":"string","required":true},
            "actor": {"dataType":"string","required":true},
            "sealed_by": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "custom_payload": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "FactList": {
        "dataType": "refObject",
        "properties": {
            "facts": {"dataType":"array","array":{"dataType":"refObject","ref":"FactListEntry"},"required":true},
            "count": {"dataType":"integer","required":true},
            "limit": {"dataType":"integer","required":true},
            "offset": {"dataType":"integer","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ProofBundle": {
        "dataType": "refObject",
        "properties": {
            "bundle_id": {"dataType":"string","required":true},
            "stream_id": {"dataType":"string","required":true},
            "tenant_id": {"dataType":"string","required":true},
            "bundle_version": {"dataType":"integer","required":true},
            "head_fact_id": {"dataType":"string","required":true},
            "head_hash": {"dataType":"string","required":true},
            "facts_manifest": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "created_at_ms": {"dataType":"long","required":true},
            "created_at_iso": {"dataType":"string","required":true},
            "signature": {"dataType":"string","required":true},
            "signature_alg": {"dataType":"enum","enums":["ed25519"],"required":true},
            "key_id": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "BundleSummary": {
        "dataType": "refObject",
        "properties": {
            "bundle_id": {"dataType":"string","required":true},
            "stream_id": {"dataType":"string","required":true},
            "tenant_id": {"dataType":"string","required":true},
            "bundle_version": {"dataType":"integer","required":true},
            "head_fact_id": {"dataType":"string","required":true},
            "head_hash": {"dataType":"string","required":true},
            "fact_count": {"dataType":"integer","required":true},
            "created_at_ms": {"dataType":"long","required":true},
            "created_at_iso": {"dataType":"string","required":true},
            "signature_alg": {"dataType":"enum","enums":["ed25519"],"required":true},
            "key_id": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "BundlePage": {
        "dataType": "refObject",
        "properties": {
            "items": {"dataType":"array","array":{"dataType":"refObject","ref":"BundleSummary"},"required":true},
            "next_cursor": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "VerificationResult": {
        "dataType": "refObject",
        "properties": {
            "valid": {"dataType":"boolean","required":true},
            "facts_verified": {"dataType":"integer","required":true},
            "error": {"dataType":"string"},
            "broken_fact_id": {"dataType":"string"},
            "stream_id": {"dataType":"string","required":true},
            "head_fact_id": {"dataType":"union","subSchemas":[{"dataType":"string"},{"dataType":"enum","enums":[null]}],"required":true},
            "head_hash": {"dataType":"string","required":true},
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
    "LedgerTransitionKey": {
        "dataType": "refObject",
        "properties": {
            "kid": {"dataType":"string","required":true},
            "kty": {"dataType":"string","required":true},
            "crv": {"dataType":"string","required":true},
            "x": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "LedgerTransitionSignature": {
        "dataType": "refObject",
        "properties": {
            "key_id": {"dataType":"string","required":true},
            "signature": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "LedgerKeyTransition": {
        "dataType": "refObject",
        "properties": {
            "type": {"dataType":"string","required":true},
            "mode": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["scheduled"]},{"dataType":"enum","enums":["emergency"]}],"required":true},
            "created_at_ms": {"dataType":"long","required":true},
            "key": {"ref":"LedgerTransitionKey","required":true},
            "retired": {"dataType":"array","array":{"dataType":"nestedObjectLiteral","nestedProperties":{"not_after":{"dataType":"string","required":true},"kid":{"dataType":"string","required":true}}},"required":true},
            "signature_alg": {"dataType":"string","required":true},
            "signatures": {"dataType":"array","array":{"dataType":"refObject","ref":"LedgerTransitionSignature"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "LedgerKeySet": {
        "dataType": "refObject",
        "properties": {
            "keys": {"dataType":"array","array":{"dataType":"refObject","ref":"LedgerPublicKey"},"required":true},
            "transitions": {"dataType":"array","array":{"dataType":"refObject","ref":"LedgerKeyTransition"}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "KeyRotation": {
        "dataType": "refObject",
        "properties": {
            "mode": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["scheduled"]},{"dataType":"enum","enums":["emergency"]}],"required":true},
            "key_id": {"dataType":"string","required":true},
            "retired": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "keys": {"dataType":"array","array":{"dataType":"refObject","ref":"LedgerPublicKey"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "RotateKeysBody": {
        "dataType": "refObject",
        "properties": {
            "mode": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["scheduled"]},{"dataType":"enum","enums":["emergency"]}],"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Checkpoint": {
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
    "ConsistencyProof": {
        "dataType": "refObject",
        "properties": {
            "from": {"dataType":"integer","required":true},
            "to": {"dataType":"integer","required":true},
            "consistency_path": {"dataType":"array","array":{"dataType":"string"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "InclusionProof": {
        "dataType": "refObject",
        "properties": {
            "fact_id": {"dataType":"string","required":true},
            "leaf_index": {"dataType":"integer","required":true},
            "tree_size": {"dataType":"integer","required":true},
            "inclusion_path": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "checkpoint": {"ref":"Checkpoint","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CheckStatus": {
        "dataType": "refAlias",
        "type": {"dataType":"string","validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "Health": {
        "dataType": "refObject",
        "properties": {
            "status": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["ok"]},{"dataType":"enum","enums":["degraded"]}],"required":true},
            "service": {"dataType":"enum","enums":["ledger"],"required":true},
            "time_ms": {"dataType":"long","required":true},
            "time_iso": {"dataType":"string","required":true},
            "checks": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"ref":"CheckStatus"},"required":true},
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
        const argsTenantsController_listStreams: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/tenants/:tenant_id/streams',
            authenticateMiddleware([{"apiKey":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(TenantsController)),
            ...(fetchMiddlewares<RequestHandler>(TenantsController.prototype.listStreams)),

            async function TenantsController_listStreams(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsTenantsController_listStreams, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<TenantsController>(TenantsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listStreams',
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
        const argsStreamsController_sealFact: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                stream_id: {"in":"path","name":"stream_id","required":true,"dataType":"string"},
                body: {"in":"body","name":"body","required":true,"ref":"SealFactBody"},
        };
        app.post('/streams/:stream_id/facts',
            authenticateMiddleware([{"apiKey":["seal"]}]),
            ...(fetchMiddlewares<RequestHandler>(StreamsController)),
            ...(fetchMiddlewares<RequestHandler>(StreamsController.prototype.sealFact)),

            async function StreamsController_sealFact(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsStreamsController_sealFact, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<StreamsController>(StreamsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'sealFact',
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
        const argsStreamsController_listFacts: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                stream_id: {"in":"path","name":"stream_id","required":true,"dataType":"string"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                offset: {"in":"query","name":"offset","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 0"},"minimum":{"errorMsg":"must be an integer from 0","value":0}}},
        };
        app.get('/streams/:stream_id/facts',
            authenticateMiddleware([{"apiKey":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(StreamsController)),
            ...(fetchMiddlewares<RequestHandler>(StreamsController.prototype.listFacts)),

            async function StreamsController_listFacts(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsStreamsController_listFacts, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<StreamsController>(StreamsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listFacts',
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
        const argsStreamsController_createBundle: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                stream_id: {"in":"path","name":"stream_id","required":true,"dataType":"string"},
        };
        app.post('/streams/:stream_id/bundles',
            authenticateMiddleware([{"apiKey":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(StreamsController)),
            ...(fetchMiddlewares<RequestHandler>(StreamsController.prototype.createBundle)),

            async function StreamsController_createBundle(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsStreamsController_createBundle, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<StreamsController>(StreamsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'createBundle',
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
        const argsStreamsController_listBundles: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                stream_id: {"in":"path","name":"stream_id","required":true,"dataType":"string"},
                limit: {"in":"query","name":"limit","dataType":"integer","validators":{"isInt":{"errorMsg":"must be an integer from 1 to 1000"},"minimum":{"errorMsg":"must be an integer from 1 to 1000","value":1},"maximum":{"errorMsg":"must be an integer from 1 to 1000","value":1000}}},
                cursor: {"in":"query","name":"cursor","dataType":"string"},
        };
        app.get('/streams/:stream_id/bundles',
            authenticateMiddleware([{"apiKey":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(StreamsController)),
            ...(fetchMiddlewares<RequestHandler>(StreamsController.prototype.listBundles)),

            async function StreamsController_listBundles(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsStreamsController_listBundles, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<StreamsController>(StreamsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'listBundles',
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
        const argsStreamsController_verifyStream: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                stream_id: {"in":"path","name":"stream_id","required":true,"dataType":"string"},
        };
        app.post('/streams/:stream_id/verify',
            authenticateMiddleware([{"apiKey":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(StreamsController)),
            ...(fetchMiddlewares<RequestHandler>(StreamsController.prototype.verifyStream)),

            async function StreamsController_verifyStream(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsStreamsController_verifyStream, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<StreamsController>(StreamsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'verifyStream',
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
        const argsLedgerKeysController_ledgerKeys: Record<string, TsoaRoute.ParameterSchema> = {
        };
        app.get('/.well-known/ledger-keys',
            ...(fetchMiddlewares<RequestHandler>(LedgerKeysController)),
            ...(fetchMiddlewares<RequestHandler>(LedgerKeysController.prototype.ledgerKeys)),

            async function LedgerKeysController_ledgerKeys(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsLedgerKeysController_ledgerKeys, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<LedgerKeysController>(LedgerKeysController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'ledgerKeys',
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
        const argsSigningKeysAdminController_rotateSigningKey: Record<string, TsoaRoute.ParameterSchema> = {
                _req: {"in":"request","name":"_req","required":true,"dataType":"object"},
                body: {"in":"body","name":"body","required":true,"ref":"RotateKeysBody"},
        };
        app.post('/admin/signing-keys/rotate',
            authenticateMiddleware([{"apiKey":["platform_admin"]}]),
            ...(fetchMiddlewares<RequestHandler>(SigningKeysAdminController)),
            ...(fetchMiddlewares<RequestHandler>(SigningKeysAdminController.prototype.rotateSigningKey)),

            async function SigningKeysAdminController_rotateSigningKey(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsSigningKeysAdminController_rotateSigningKey, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<SigningKeysAdminController>(SigningKeysAdminController);
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
        const argsStreamProofsController_getCheckpoint: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                stream_id: {"in":"path","name":"stream_id","required":true,"dataType":"string"},
                tree_size: {"in":"query","name":"tree_size","dataType":"integer","validators":{"isInt":{"errorMsg":"must be a positive integer"},"minimum":{"errorMsg":"must be a positive integer","value":1}}},
        };
        app.get('/streams/:stream_id/checkpoint',
            authenticateMiddleware([{"apiKey":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(StreamProofsController)),
            ...(fetchMiddlewares<RequestHandler>(StreamProofsController.prototype.getCheckpoint)),

            async function StreamProofsController_getCheckpoint(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsStreamProofsController_getCheckpoint, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<StreamProofsController>(StreamProofsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getCheckpoint',
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
        const argsStreamProofsController_getConsistency: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                stream_id: {"in":"path","name":"stream_id","required":true,"dataType":"string"},
                from: {"in":"query","name":"from","dataType":"integer","validators":{"isInt":{"errorMsg":"must be a positive integer"},"minimum":{"errorMsg":"must be a positive integer","value":1}}},
                to: {"in":"query","name":"to","dataType":"integer","validators":{"isInt":{"errorMsg":"must be a positive integer"},"minimum":{"errorMsg":"must be a positive integer","value":1}}},
        };
        app.get('/streams/:stream_id/consistency',
            authenticateMiddleware([{"apiKey":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(StreamProofsController)),
            ...(fetchMiddlewares<RequestHandler>(StreamProofsController.prototype.getConsistency)),

            async function StreamProofsController_getConsistency(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsStreamProofsController_getConsistency, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<StreamProofsController>(StreamProofsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getConsistency',
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
        const argsFactProofsController_getInclusion: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                fact_id: {"in":"path","name":"fact_id","required":true,"dataType":"string"},
                tree_size: {"in":"query","name":"tree_size","dataType":"integer","validators":{"isInt":{"errorMsg":"must be a positive integer"},"minimum":{"errorMsg":"must be a positive integer","value":1}}},
        };
        app.get('/facts/:fact_id/inclusion',
            authenticateMiddleware([{"apiKey":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(FactProofsController)),
            ...(fetchMiddlewares<RequestHandler>(FactProofsController.prototype.getInclusion)),

            async function FactProofsController_getInclusion(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsFactProofsController_getInclusion, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<FactProofsController>(FactProofsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getInclusion',
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
        const argsHealthController_health: Record<string, TsoaRoute.ParameterSchema> = {
                _req: {"in":"request","name":"_req","required":true,"dataType":"object"},
        };
        app.get('/health',
            authenticateMiddleware([{"apiKey":[]}]),
            ...(fetchMiddlewares<RequestHandler>(HealthController)),
            ...(fetchMiddlewares<RequestHandler>(HealthController.prototype.health)),

            async function HealthController_health(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsHealthController_health, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<HealthController>(HealthController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'health',
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
        const argsFactsController_getFact: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                fact_id: {"in":"path","name":"fact_id","required":true,"dataType":"string"},
        };
        app.get('/facts/:fact_id',
            authenticateMiddleware([{"apiKey":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(FactsController)),
            ...(fetchMiddlewares<RequestHandler>(FactsController.prototype.getFact)),

            async function FactsController_getFact(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsFactsController_getFact, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<FactsController>(FactsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getFact',
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
        const argsBundlesController_getBundle: Record<string, TsoaRoute.ParameterSchema> = {
                req: {"in":"request","name":"req","required":true,"dataType":"object"},
                bundle_id: {"in":"path","name":"bundle_id","required":true,"dataType":"string"},
        };
        app.get('/bundles/:bundle_id',
            authenticateMiddleware([{"apiKey":["read"]}]),
            ...(fetchMiddlewares<RequestHandler>(BundlesController)),
            ...(fetchMiddlewares<RequestHandler>(BundlesController.prototype.getBundle)),

            async function BundlesController_getBundle(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsBundlesController_getBundle, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<BundlesController>(BundlesController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'getBundle',
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
