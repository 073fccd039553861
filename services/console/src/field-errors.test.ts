/** The screens' one mapping of the API's refused fields to sentences beside each field. */
import { ApiError } from '../web/src/api';
import { errorAt, fieldErrors, fieldSentence, refusalSummary } from '../web/src/fieldErrors';

describe('refused fields in plain words', () => {
  it("says a rule's empty queue is required, beside that rule's queue field", () => {
    const refused = new ApiError(400, 'invalid_partner_config', '/routing/rules/0/queue must match pattern "\\S"');
    const errors = fieldErrors(refused);
    expect(errors).toEqual({ '/routing/rules/0/queue': 'Queue is required' });
    expect(errorAt(errors, '/routing/rules/0/queue')).toBe('Queue is required');
    expect(errorAt(errors, '/routing/rules/1/queue')).toBeUndefined();
  });

  it("maps the request checks' fields and keeps them over the message's copy", () => {
    const refused = new ApiError(400, 'invalid_request', 'body.sla.firstResponseMinutes must be >= 1; body.routing.rules[1].when.senders[0] is required', [
      { in: 'body', field: 'sla.firstResponseMinutes', message: 'must be >= 1' },
      { in: 'body', field: 'routing.rules[1].when.senders[0]', message: 'is required' },
      { in: 'query', field: 'limit', message: 'must be <= 100' },
    ]);
    const errors = fieldErrors(refused);
    expect(errors).toEqual({ '/sla/firstResponseMinutes': 'First response time must be at least 1', '/routing/rules/1/when/senders/0': 'Senders is required' });
    expect(errorAt(errors, '/routing/rules/1/when/senders')).toBe('Senders is required');
    expect(refusalSummary(refused, 'not saved')).toBe('Not saved: First response time must be at least 1. Senders is required.');
  });

  it.each([
    ['/merge/windowMinutes', 'must be integer', 'Merge window must be a whole number'],
    ['/routing/defaultFolder', 'must NOT have more than 64 characters', 'Default folder can be at most 64 characters long'],
    ['/searchQueries', 'must NOT have more than 10 items', 'Search queries can have at most 10 entries'],
    ['/routing/rules/0/when/kinds/0', 'must be equal to one of the allowed values', 'Kinds must be one of the choices offered'],
    ['/someSetting', 'Something the service says itself', 'Some setting: Something the service says itself'],
  ])('%s %s reads "%s"', (pointer, message, sentence) => {
    expect(fieldSentence(pointer, message)).toBe(sentence);
  });

  it('gives nothing for refusals that are not about fields', () => {
    expect(fieldErrors(new ApiError(409, 'conflict', 'changed meanwhile'))).toEqual({});
    expect(refusalSummary(new ApiError(409, 'conflict', 'changed meanwhile'), 'not saved')).toBe('changed meanwhile');
    expect(refusalSummary(new Error('boom'), 'not saved')).toBe('not saved');
  });
});
