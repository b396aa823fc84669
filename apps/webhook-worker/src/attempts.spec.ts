import { Writable } from 'node:stream';
import { createLogger, unredactedChild } from '@wms/platform';
import { report } from './attempts.js';

/** The attempt line, as the worker writes it (through the unredacted child it gives the processor). */
describe('the webhook attempt line', () => {
  const capture = () => {
    const lines: Array<Record<string, unknown>> = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const logger = unredactedChild(createLogger({ level: 'info', name: 'attempts-spec', destination }));
    return { logger, lines };
  };

  it('when an attempt succeeds, the line names the delivery, the event and the request and trace that caused it', () => {
    const { logger, lines } = capture();

    report(
      logger,
      {
        kind: 'succeeded',
        statusCode: 204,
        latencyMs: 3,
        about: { eventId: 'event-1', event: 'stock.adjusted', requestId: 'request-1', traceId: 'a'.repeat(32) },
      },
      { deliveryId: 'delivery-1', subscriptionId: 'subscription-1', attemptNo: 1 },
      'job-1',
    );

    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'webhook delivery attempt',
        requestId: 'request-1',
        jobId: 'job-1',
        trace_id: 'a'.repeat(32),
        deliveryId: 'delivery-1',
        subscriptionId: 'subscription-1',
        attemptNo: 1,
        eventId: 'event-1',
        event: 'stock.adjusted',
        outcome: 'succeeded',
        statusCode: 204,
        latencyMs: 3,
      }),
    ]);
  });

  it('when an attempt is to be retried, the line says why', () => {
    const { logger, lines } = capture();

    report(
      logger,
      { kind: 'retry', delayMs: 1_000, error: 'HTTP 503' },
      { deliveryId: 'delivery-2', attemptNo: 2 },
      'job-2',
    );

    expect(lines).toEqual([
      expect.objectContaining({ requestId: 'job-2', outcome: 'retry', error: 'HTTP 503', attemptNo: 2 }),
    ]);
  });
});
