import { capturingLogger } from '@crm/testing';
import { errorAnswer } from './errors';

describe('errorAnswer', () => {
  it.each([
    ['a database server refusing connections', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5441'), { code: 'ECONNREFUSED' })],
    ['no server that takes writes', Object.assign(new Error('no database server that takes writes answered (...)'), { code: '08001' })],
    ['the server shutting down', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a write on a standby', Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' })],
    ['a connection closed without a word', new Error('Connection terminated unexpectedly')],
  ])('answers %s with 503 and a time to try again', (_what, error) => {
    const { logger, lines } = capturingLogger('errors');
    const answer = errorAnswer(error, logger);
    expect(answer.status).toBe(503);
    expect(answer.headers).toEqual({ 'retry-after': '5' });
    expect(answer.body.error.code).toBe('unavailable');
    expect(lines.join('')).not.toContain('"level":"error"');
  });

  it('still answers an unknown fault with 500, logged as an error', () => {
    const { logger, lines } = capturingLogger('errors');
    expect(errorAnswer(Object.assign(new Error('duplicate key'), { code: '23505' }), logger).status).toBe(500);
    expect(lines.join('')).toContain('"level":"error"');
  });
});
