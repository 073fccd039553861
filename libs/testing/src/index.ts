export { amqpUrl, databaseServerUrl, restartBroker, stopBroker, startBroker, freshVirtualHost, type TestVirtualHost, DEFAULT_AMQP_URL, DEFAULT_DATABASE_URL } from './environment';
export { testLogger, capturingLogger, freshDatabase, deleteBrokerObjects, queueDepth, waitFor, type TestDatabase } from './helpers';
