export { createHttpApp, requireBearerToken, type HttpAppOptions, type ReadinessCheck } from './app';
export { HttpError, errorBody } from './errors';
export { listen, portOf, closeServer, stopOnSignals, type StopStep } from './service';
