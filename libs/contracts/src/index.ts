export { ajv } from './ajv';
export {
  type Envelope,
  type Contract,
  defineContract,
  validateEnvelope,
  ContractViolation,
  describeErrors,
} from './envelope';
export { DELIVERY_KINDS, type DeliveryKind, type Delivery, type DeliveryCheck, checkDelivery } from './delivery';
export * from './messages';
export * from './topology';
export * from './commands';
export * from './auth-account-events';
export * from './tracking';
export * from './social-events';
export * from './account-events';
export { cleanText, cleanJson, REPLACEMENT_CHARACTER } from './clean-text';
