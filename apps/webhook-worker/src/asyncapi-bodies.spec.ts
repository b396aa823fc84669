import { createRequire } from 'node:module';
import type { Ajv as AjvClass } from 'ajv';
import { eventCatalogue } from '@wms/events';
import { API_VERSIONS } from '@wms/platform';
import { asyncApiDocument } from '@wms/webhooks';
import {
  appendEvents,
  createSubscription,
  createTenantWithWarehouse,
  createTestContext,
  sampleEvents,
  startTestWebhookWorker,
  startWebhookReceiver,
  type TestContext,
  type WebhookReceiver,
} from '@wms/testing';

// ajv and ajv-formats are CommonJS whose type declarations describe the ES module form.
const require = createRequire(import.meta.url);
const Ajv2020: typeof AjvClass = require('ajv/dist/2020');
const addFormats: (ajv: AjvClass) => void = require('ajv-formats');

interface Document {
  components: { messages: Record<string, { payload: object; headers: object }> };
}

describe('delivered bodies against the AsyncAPI document', () => {
  let ctx: TestContext;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    ctx = await createTestContext('asyncapi-bodies', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  it.each(API_VERSIONS)(
    'when a subscription of %s receives every event type, each body and its headers match the document’s message',
    async (version) => {
      const worker = startTestWebhookWorker(ctx, { webhook: { backoffBaseMs: 200, maxAttempts: 3 } });
      const { tenant } = await createTenantWithWarehouse(ctx);
      const path = `/bodies-${version}`;
      const listener = await createSubscription(ctx, {
        url: receiver.urlFor(path),
        tenantId: tenant.id,
        events: ['*', 'webhook.disabled'],
        apiVersion: version,
      });
      const gone = await createSubscription(ctx, { url: receiver.urlFor(`${path}-gone`), tenantId: tenant.id });
      const viewer = { tenantId: null };

      await appendEvents(ctx, sampleEvents(tenant.id));
      await ctx.services.webhooks.sendTest(listener.id, viewer);
      await ctx.services.webhookLifecycle.disableGone(gone.id, 'the receiver answered 410');
      const received = await receiver.waitForRequests(path, Object.keys(eventCatalogue).length);
      await worker.close();

      const document = asyncApiDocument(version) as unknown as Document;
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      const problems = received.flatMap((request) => {
        const body = JSON.parse(request.body);
        const message = document.components.messages[body.event];
        if (!message) return [`${body.event}: no message in the document`];
        const payload = ajv.validate(message.payload, body) ? [] : [`${body.event}: ${ajv.errorsText()}`];
        const headers = ajv.validate(message.headers, request.headers) ? [] : [`${body.event}: ${ajv.errorsText()}`];
        return [...payload, ...headers];
      });
      expect(problems).toEqual([]);
      expect(received.map((request) => JSON.parse(request.body).event).sort()).toEqual(
        Object.keys(eventCatalogue).sort(),
      );
    },
  );
});
