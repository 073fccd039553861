export { ajv } from './ajv';
export {
  type Envelope,
  type Contract,
  EnvelopeSchema,
  defineContract,
  registeredContracts,
  validateEnvelope,
  ContractViolation,
  describeErrors,
} from './envelope';
export { DELIVERY_KINDS, DeliverySchema, type DeliveryKind, type Delivery, type DeliveryCheck, checkDelivery } from './delivery';
export { AnyObject, Nullable, StringEnum } from './schema';
export { XAA_EVENT_TYPES, XAA_DELIVERY_KINDS, XAA_LIKE_DIRECTIONS, XaaDeliverySchema, type XaaDelivery, type XaaEventType, type XaaDeliveryCheck, checkXaaDelivery, accountActivityForm, XAA_NOTICE_TYPES, xaaNoticeOf } from './xaa';
export { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth';
export * from './messages';
export * from './topology';
export * from './commands';
export * from './auth-account-events';
export * from './tracking';
export * from './rate-card';
export * from './tracking-events';
export * from './account-events';
export * from './silence-events';
export * from './budget-events';
export { cleanText, cleanJson, REPLACEMENT_CHARACTER } from './clean-text';
export * from './credentials';
export * from './crm-events';
export * from './routes';
export { REFUSAL_KINDS, Refusal, type RefusalKind, type RefusalDetails } from './refusal';
export * from './ticket-lists';
