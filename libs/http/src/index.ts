export { createHttpApp, requireBearerToken, type HttpAppOptions, type ReadinessCheck } from './app';
export { HttpError, errorBody } from './errors';
export { listen, portOf, closeServer, stopOnSignals, runService, type StopStep, type StartedService, type ServiceDefinition, type ReadyMessage } from './service';
export { readOpenApiDocument, type FieldProblem, type OpenApiDocument, type OpenApiOptions, type RequestPart } from './openapi';
export { shippedFile } from './shipped-files';
