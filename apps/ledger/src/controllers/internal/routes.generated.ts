/* tslint:disable */
/* eslint-disable */
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import type { TsoaRoute } from '@tsoa/runtime';
import {  fetchMiddlewares, ExpressTemplateService } from '@tsoa/runtime';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { InternalSealsController } from './seals.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { InternalInclusionController } from './inclusion.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { InternalCitationsController } from './citations.controller';
import { iocContainer } from './../../http/ioc';
import type { IocContainer, IocContainerFactory } from '@tsoa/runtime';
import type { Request as ExRequest, Response as ExResponse, RequestHandler, Router } from 'express';



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
    "ServiceSealed": {
        "dataType": "refObject",
        "properties": {
            "ok": {"dataType":"enum","enums":[true],"required":true},
            "fact_id": {"dataType":"string","required":true},
            "stream_id": {"dataType":"string","required":true},
            "seq": {"dataType":"integer","required":true},
            "fact_hash": {"dataType":"string","required":true},
            "created": {"dataType":"boolean","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ServiceSealRefused": {
        "dataType": "refObject",
        "properties": {
            "ok": {"dataType":"enum","enums":[false],"required":true},
            "status": {"dataType":"integer","required":true},
            "code": {"dataType":"string","required":true},
            "message": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ServiceSealResult": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"ref":"ServiceSealed"},{"ref":"ServiceSealRefused"}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ServiceSealAnswer": {
        "dataType": "refObject",
        "properties": {
            "results": {"dataType":"array","array":{"dataType":"refAlias","ref":"ServiceSealResult"},"required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ServiceSeal": {
        "dataType": "refObject",
        "properties": {
            "stream_id": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":128}}},
            "tenant_id": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":128}}},
            "actor": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":256}}},
            "custom_payload": {"dataType":"nestedObjectLiteral","nestedProperties":{},"additionalProperties":{"dataType":"any"},"required":true},
            "client_ref": {"dataType":"string","required":true,"validators":{"minLength":{"value":1},"maxLength":{"value":255}}},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ServiceSealRequest": {
        "dataType": "refObject",
        "properties": {
            "seals": {"dataType":"array","array":{"dataType":"refObject","ref":"ServiceSeal"},"required":true,"validators":{"minItems":{"value":1},"maxItems":{"value":1000}}},
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
    "AuditInclusion": {
        "dataType": "refObject",
        "properties": {
            "fact": {"ref":"Fact","required":true},
            "leaf_index": {"dataType":"integer","required":true},
            "tree_size": {"dataType":"integer","required":true},
            "inclusion_path": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "checkpoint": {"ref":"Checkpoint","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "CitedFact": {
        "dataType": "refObject",
        "properties": {
            "fact": {"ref":"Fact","required":true},
            "parent": {"dataType":"union","subSchemas":[{"ref":"Fact"},{"dataType":"enum","enums":[null]}],"required":true},
            "leaf_index": {"dataType":"integer","required":true},
            "tree_size": {"dataType":"integer","required":true},
            "inclusion_path": {"dataType":"array","array":{"dataType":"string"},"required":true},
            "checkpoint": {"ref":"Checkpoint","required":true},
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
};
const templateService = new ExpressTemplateService(models, {"noImplicitAdditionalProperties":"throw-on-extras","bodyCoercion":false});

// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa




export function RegisterRoutes(app: Router) {

    // ###########################################################################################################
    //  NOTE: If you do not see routes for all of your controllers in this file, then you might not have informed tsoa of where to look
    //      Please look into the "controllerPathGlobs" config option described in the readme: https://github.com/lukeautry/tsoa
    // ###########################################################################################################


    
        const argsInternalSealsController_seal: Record<string, TsoaRoute.ParameterSchema> = {
                body: {"in":"body","name":"body","required":true,"ref":"ServiceSealRequest"},
        };
        app.post('/internal/v1/seals',
            ...(fetchMiddlewares<RequestHandler>(InternalSealsController)),
            ...(fetchMiddlewares<RequestHandler>(InternalSealsController.prototype.seal)),

            async function InternalSealsController_seal(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalSealsController_seal, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalSealsController>(InternalSealsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'seal',
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
        const argsInternalInclusionController_inclusion: Record<string, TsoaRoute.ParameterSchema> = {
                stream_id: {"in":"query","name":"stream_id","required":true,"dataType":"string"},
                client_ref: {"in":"query","name":"client_ref","required":true,"dataType":"string"},
                tree_size: {"in":"query","name":"tree_size","dataType":"double"},
        };
        app.get('/internal/v1/inclusion',
            ...(fetchMiddlewares<RequestHandler>(InternalInclusionController)),
            ...(fetchMiddlewares<RequestHandler>(InternalInclusionController.prototype.inclusion)),

            async function InternalInclusionController_inclusion(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalInclusionController_inclusion, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalInclusionController>(InternalInclusionController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'inclusion',
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
        const argsInternalCitationsController_cited: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                fact_id: {"in":"path","name":"fact_id","required":true,"dataType":"string"},
        };
        app.get('/internal/v1/tenants/:tenant_id/facts/:fact_id',
            ...(fetchMiddlewares<RequestHandler>(InternalCitationsController)),
            ...(fetchMiddlewares<RequestHandler>(InternalCitationsController.prototype.cited)),

            async function InternalCitationsController_cited(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalCitationsController_cited, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalCitationsController>(InternalCitationsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'cited',
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
        const argsInternalCitationsController_ledgerKeys: Record<string, TsoaRoute.ParameterSchema> = {
        };
        app.get('/internal/v1/ledger-keys',
            ...(fetchMiddlewares<RequestHandler>(InternalCitationsController)),
            ...(fetchMiddlewares<RequestHandler>(InternalCitationsController.prototype.ledgerKeys)),

            async function InternalCitationsController_ledgerKeys(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalCitationsController_ledgerKeys, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalCitationsController>(InternalCitationsController);
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

    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa


    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
}

// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
