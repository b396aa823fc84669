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
