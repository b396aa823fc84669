import { runWithContext } from '../context/index.js';
import { createLogger, explicitLineLogger } from './logger.js';

/** A logger whose lines are kept, as its output receives them, parsed. */
function capturedLogger(level = 'info') {
  const written: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    level,
    name: 'gateway',
    destination: { write: (line: string) => written.push(JSON.parse(line) as Record<string, unknown>) },
  });
  return { logger, written };
}

/** A line's fields in their order, the time left out (it is the clock's). */
const fields = (line: Record<string, unknown>) => Object.entries(line).filter(([name]) => name !== 'time');

const answered = {
  requestId: '3ea47e89-5a1d-46f8-bf60-fcd6986f9918',
  method: 'GET',
  path: '/api/v1/integration/v1/orders/SO-1',
  statusCode: 200,
  durationMs: 15.382309,
};

describe('the explicit line logger', () => {
  it('writes the line its logger writes for the same fields, to the same output, in the same order', () => {
    const { logger, written } = capturedLogger();

    explicitLineLogger(logger).info(answered, 'request completed');
    logger.info(answered, 'request completed');

    expect(written).toHaveLength(2);
    expect(fields(written[0]!)).toEqual(fields(written[1]!));
    expect(written[0]).toMatchObject({ level: 30, service: 'gateway', name: 'gateway', msg: 'request completed' });
  });

  it('adds nothing of the running context: the line carries the ids it is given', () => {
    const { logger, written } = capturedLogger();

    runWithContext({ requestId: 'job-7', jobId: '7' }, () => explicitLineLogger(logger).info(answered, 'line'));

    expect(written[0]).toMatchObject({ requestId: answered.requestId });
    expect(written[0]).not.toHaveProperty('jobId');
  });

  it('keeps its logger level', () => {
    const { logger, written } = capturedLogger('warn');
    const lines = explicitLineLogger(logger);

    lines.info(answered, 'not written');
    lines.error({ ...answered, statusCode: 500 }, 'written');

    expect(written.map((line) => line.msg)).toEqual(['written']);
  });
});

/** The shape of a Sequelize error of a failed statement: its SQL and bound values, on itself and its causes. */
function failedStatementError(): Error {
  const original = Object.assign(new Error('duplicate key value violates unique constraint "api_keys_key_hash"'), {
    code: '23505',
    sql: 'INSERT INTO api_keys (key_hash) VALUES ($1)',
    parameters: ['5f0c1e2d-secret-hash'],
    detail: 'Key (key_hash)=(5f0c1e2d-secret-hash) already exists.',
  });
  return Object.assign(new Error('Validation error'), {
    name: 'SequelizeUniqueConstraintError',
    sql: original.sql,
    parameters: original.parameters,
    original,
    parent: original,
    fields: { key_hash: '5f0c1e2d-secret-hash' },
    errors: [{ message: 'key_hash must be unique', value: '5f0c1e2d-secret-hash' }],
  });
}

describe('what a log line never carries', () => {
  it('an error logged on a 5xx keeps its message and code but not its SQL, parameters or offending values', () => {
    const { logger, written } = capturedLogger();

    logger.error({ err: failedStatementError(), requestId: answered.requestId }, 'request failed');

    const line = JSON.stringify(written[0]);
    expect(written[0]).toMatchObject({
      msg: 'request failed',
      err: { type: 'Error', message: 'Validation error', original: { code: '23505' } },
    });
    expect(line).not.toContain('5f0c1e2d-secret-hash');
    expect(line).not.toContain('INSERT INTO');
  });

  it('a secret up to two levels deep in a logged object, or in a request’s headers, is redacted', () => {
    const { logger, written } = capturedLogger();

    logger.warn(
      {
        body: { user: { email: 'a@b.test', password: 'p4ssword-nested' }, refreshToken: 'refresh-token-nested' },
        apiKey: { created: { rawKey: 'wms_live_raw_key_nested' }, secret: 'whsec_nested' },
        request: { headers: { authorization: 'Bearer access-nested', cookie: 'wms_refresh=cookie-nested' } },
        password: 'top-level-password',
      },
      'nested secrets',
    );

    const line = JSON.stringify(written[0]);
    for (const secret of [
      'p4ssword-nested',
      'refresh-token-nested',
      'wms_live_raw_key_nested',
      'whsec_nested',
      'access-nested',
      'cookie-nested',
      'top-level-password',
    ])
      expect(line).not.toContain(secret);
    expect(written[0]).toMatchObject({ body: { user: { email: 'a@b.test', password: '[redacted]' } } });
  });
});
