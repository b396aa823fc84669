import { setTimeout as sleep } from 'node:timers/promises';
import express, { type RequestHandler, type Router } from 'express';
import { AppError, closeWithin, queuePrefix, timeLeft, type AppLifecycle, type Runtime } from '@wms/platform';
import {
  EdiInboxService,
  InterchangesRepository,
  PartnersRepository,
  createEdiQueue,
  type Interchange,
  type TradingPartner,
} from '@wms/edi';
import { successEnvelope } from '@wms/ingest';
import { mount } from './scope.js';
import { EDI_ROUTES } from './edi.route-table.js';
import {
  caseSensitiveRouter,
  rawBodyOf,
  requestIdOf,
  setRawBody,
  type KeyHandler,
  type KeyRequest,
} from '../http/index.js';
import { idempotencyOf } from './idempotency.middleware.js';

const BASE = '/api/v1/integration/v1';
const X12_TYPES = ['application/edi-x12', 'application/edi', 'text/plain'];
/** How often a waiting POST /edi looks at its interchange's state. */
const POLL_MS = 100;
/** Kept free of the request's deadline, for the answer itself. */
const DEADLINE_MARGIN_MS = 1_000;

/** The interchange's state a caller sees, with our acknowledgment once it is read. */
async function statusOf(interchanges: InterchangesRepository, interchange: Interchange) {
  const answer = interchange.acknowledgmentId ? await interchanges.find(interchange.acknowledgmentId) : null;
  const content = answer ? await interchanges.raw(answer.id) : null;
  return {
    id: interchange.id,
    state: interchange.state,
    interchangeControl: interchange.interchangeControl,
    setCodes: interchange.setCodes,
    error: interchange.error,
    duplicateOf: interchange.duplicateOf,
    createdAt: interchange.createdAt,
    processedAt: interchange.processedAt,
    acknowledgment:
      answer && content
        ? {
            id: answer.id,
            setCode: answer.setCodes[0] ?? '997',
            interchangeControl: answer.interchangeControl,
            content: content.toString('latin1'),
          }
        : null,
  };
}

/** Still waiting for the engine. */
const reading = (interchange: Interchange) => interchange.state === 'received' || interchange.state === 'processing';

/**
 * POST /edi (a raw X12 body from the trading partner the key is bound to, stored through the EDI inbox, then
 * waited for a bounded time) and GET /edi/interchanges/:id. Another partner's interchange is not found.
 */
export function ediRoutes(runtime: Runtime, lifecycle: AppLifecycle, idempotency: KeyHandler): Router {
  const { config, db, logger } = runtime;
  const queue = createEdiQueue({ connection: runtime.redis, prefix: queuePrefix(config) });
  queue.on('error', () => undefined);
  lifecycle.onClose(() => closeWithin(queue, 2_000));
  const inbox = new EdiInboxService(db, queue, logger);
  const partners = new PartnersRepository(db);
  const interchanges = new InterchangesRepository(db);
  const router = caseSensitiveRouter();

  const partnerOf = async (req: KeyRequest): Promise<TradingPartner> => {
    const partner = await partners.findByApiKey(req.apiKey.id);
    if (!partner) throw new AppError('EDI_PARTNER_REQUIRED', 'This API key is bound to no EDI trading partner');
    return partner;
  };

  const parse = express.raw({ type: () => true, limit: config.ediHttpMaxBytes });
  const x12Body: RequestHandler = (req, res, next) => {
    if (!req.is(X12_TYPES))
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'The body must be an X12 interchange (Content-Type: application/edi-x12, application/edi or text/plain)',
      );
    parse(req, res, (error?: unknown) => {
      if ((error as { type?: string } | undefined)?.type === 'entity.too.large')
        return next(
          new AppError(
            'PAYLOAD_TOO_LARGE',
            `The interchange exceeds EDI_HTTP_MAX_BYTES (${config.ediHttpMaxBytes} bytes)`,
          ),
        );
      if (error) return next(error);
      setRawBody(req, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
      // The idempotency fingerprint takes the bytes; the body is no JSON.
      req.body = undefined;
      next();
    });
  };

  mount(router, EDI_ROUTES.receive, x12Body, idempotency, async (req, res) => {
    const partner = await partnerOf(req);
    let interchange = await inbox.receive(partner, { source: 'http', fileName: null, content: rawBodyOf(req)! });
    const left = timeLeft();
    const until = Date.now() + Math.min(config.ediHttpWaitMs, left === null ? Infinity : left - DEADLINE_MARGIN_MS);
    while (reading(interchange) && Date.now() < until) {
      await sleep(POLL_MS);
      interchange = (await interchanges.find(interchange.id)) ?? interchange;
    }
    const statusUrl = `${BASE}/edi/interchanges/${interchange.id}`;
    if (reading(interchange)) {
      res
        .status(202)
        .json({ status: 'accepted', interchangeId: interchange.id, statusUrl, requestId: requestIdOf(req) });
      return;
    }
    const status = await statusOf(interchanges, interchange);
    await idempotencyOf(req)?.storeText(200, JSON.stringify(successEnvelope(status, requestIdOf(req))));
    res
      .status(200)
      .set('X-Interchange-Id', interchange.id)
      .set('Location', statusUrl)
      .type('application/edi-x12')
      .send(status.acknowledgment?.content ?? '');
  });

  mount(router, EDI_ROUTES.interchange, async (req, res) => {
    const partner = await partnerOf(req);
    const id = String(req.params.interchangeId);
    const interchange = /^[0-9a-f-]{36}$/i.test(id) ? await interchanges.find(id) : null;
    if (!interchange || interchange.partnerId !== partner.id || interchange.direction !== 'in')
      throw AppError.notFound(`Interchange ${id} not found`);
    res.json(successEnvelope(await statusOf(interchanges, interchange), requestIdOf(req)));
  });
  return router;
}
