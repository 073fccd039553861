export { createHttpApp, requireBearerToken, type HttpAppOptions, type ReadinessCheck } from './app';
export { errorBody, refusalKindOf, REFUSAL_STATUS } from './errors';
export { Refusal, type RefusalKind } from '@crm/contracts';
export { requestListener, type HotRoute, type HotAnswer } from './hot-routes';
export { listen, portOf, closeServer, stopOnSignals, runService, type StopStep, type StartedService, type ServiceDefinition, type ReadyMessage } from './service';
export { readOpenApiDocument, type FieldProblem, type OpenApiDocument, type OpenApiOptions, type RequestPart } from './openapi';
export { shippedFile } from './shipped-files';
