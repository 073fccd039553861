export { amqpUrl, databaseServerUrl, restartBroker, stopBroker, startBroker, freshVirtualHost, type TestVirtualHost } from './environment';
export { testLogger, capturingLogger, freshDatabase, deleteBrokerObjects, queueDepth, waitFor, testPool, testClient, type TestDatabase } from './helpers';
export { browserSession } from './browser';
