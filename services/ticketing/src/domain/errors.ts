/**
 * A delivery that can never be turned into domain events (a required field missing or
 * garbled). The message names the field; the consumer sends such a delivery to the DLQ.
 */
export class InvalidActivity extends Error {
  override name = 'InvalidActivity';
}
