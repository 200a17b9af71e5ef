/* tslint:disable */
/* eslint-disable */
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import type { TsoaRoute } from '@tsoa/runtime';
import {  fetchMiddlewares, ExpressTemplateService } from '@tsoa/runtime';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { InternalShadowController } from './shadow.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { InternalSealOutboxController } from './seal-outbox.controller';
// WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
import { InternalMaintenanceController } from './maintenance.controller';
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
            "code": {"dataType":"string","required":true},
            "message": {"dataType":"string","required":true},
            "details": {"dataType":"any"},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ShadowVersionDisagreements": {
        "dataType": "refObject",
        "properties": {
            "rule_version_id": {"dataType":"string","required":true},
            "disagreements": {"dataType":"double","required":true},
            "last_at": {"dataType":"string","required":true},
        },
        "additionalProperties": false,
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "ShadowDisagreements": {
        "dataType": "refObject",
        "properties": {
            "tenant_id": {"dataType":"string","required":true},
            "rule_id": {"dataType":"string","required":true},
            "disagreements": {"dataType":"double","required":true},
            "by_version": {"dataType":"array","array":{"dataType":"refObject","ref":"ShadowVersionDisagreements"},"required":true},
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
    "ApprovalStatus": {
        "dataType": "refAlias",
        "type": {"dataType":"union","subSchemas":[{"dataType":"enum","enums":["pending"]},{"dataType":"enum","enums":["approved"]},{"dataType":"enum","enums":["rejected"]},{"dataType":"enum","enums":["expired"]}],"validators":{}},
    },
    // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa
    "InternalApprovalStatus": {
        "dataType": "refObject",
        "properties": {
            "id": {"dataType":"string","required":true},
            "status": {"ref":"ApprovalStatus","required":true},
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


    
        const argsInternalShadowController_shadowDisagreements: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                rule_id: {"in":"path","name":"rule_id","required":true,"dataType":"string"},
        };
        app.get('/internal/v1/tenants/:tenant_id/rules/:rule_id/shadow',
            ...(fetchMiddlewares<RequestHandler>(InternalShadowController)),
            ...(fetchMiddlewares<RequestHandler>(InternalShadowController.prototype.shadowDisagreements)),

            async function InternalShadowController_shadowDisagreements(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalShadowController_shadowDisagreements, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalShadowController>(InternalShadowController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'shadowDisagreements',
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
        const argsInternalApprovalsController_approvalStatus: Record<string, TsoaRoute.ParameterSchema> = {
                tenant_id: {"in":"path","name":"tenant_id","required":true,"dataType":"string"},
                approval_id: {"in":"path","name":"approval_id","required":true,"dataType":"string"},
        };
        app.get('/internal/v1/tenants/:tenant_id/approvals/:approval_id/status',
            ...(fetchMiddlewares<RequestHandler>(InternalApprovalsController)),
            ...(fetchMiddlewares<RequestHandler>(InternalApprovalsController.prototype.approvalStatus)),

            async function InternalApprovalsController_approvalStatus(request: ExRequest, response: ExResponse, next: any) {

            // WARNING: This file was auto-generated with tsoa. Please do not modify it. Re-run tsoa to re-generate this file: https://github.com/lukeautry/tsoa

            let validatedArgs: any[] = [];
            try {
                validatedArgs = templateService.getValidatedArgs({ args: argsInternalApprovalsController_approvalStatus, request, response });

                const container: IocContainer = typeof iocContainer === 'function' ? (iocContainer as IocContainerFactory)(request) : iocContainer;

                const controller: any = await container.get<InternalApprovalsController>(InternalApprovalsController);
                if (typeof controller['setStatus'] === 'function') {
                controller.setStatus(undefined);
                }

              await templateService.apiHandler({
                methodName: 'approvalStatus',
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
