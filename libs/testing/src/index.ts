export { amqpUrl, databaseServerUrl, freshVirtualHost, type TestVirtualHost } from './environment';
export { freePort, startPrivateBroker, type PrivateBroker } from './private-broker';
export { testLogger, capturingLogger, freshDatabase, migratedDatabase, migratedTemplateName, dropMigratedTemplates, deleteBrokerObjects, queueDepth, readQueues, waitFor, testPool, testClient, type TestDatabase } from './helpers';
export { browserSession } from './browser';
export { provideSimulators, simulators, type RunningSimulator, type SimulatorStarters } from './simulators';
export { TINY_PNG } from './images';
