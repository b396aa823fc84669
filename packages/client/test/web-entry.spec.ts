import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compileForTheWeb, installPackedClient, type PackedClient } from './packed-client.js';

/**
 * A browser app's (or a Deno or edge function's) code against the main entry: every resource by its plural,
 * a Blob upload, jobs.wait, a typed webhook; the old singular names still compile (deprecated); a file's
 * path is refused here (it is `@wms/client/node`'s).
 */
const WEB_CONSUMER = `import { createClient, WmsApiError, type WebhookEvent, type UploadSource } from '@wms/client';
const wms = createClient({ baseUrl: 'https://wms.example.com', apiKey: 'key', retries: { retries: 2 } });
export async function run(body: string, headers: Headers, file: File): Promise<number> {
  const event: WebhookEvent = wms.webhooks.unwrap(body, headers, ['whsec_new', 'whsec_old']);
  const written = await wms.items.upsert({ sku: 'A', name: 'A', baseUomCode: 'EA' });
  const asn = await wms.asns.get('ASN-1');
  const aliases: [typeof wms.asns, typeof wms.grns] = [wms.asn, wms.grn];
  const source: UploadSource = file;
  const job = await wms.imports.upload(source, { entity: 'items', gzip: true, signal: AbortSignal.timeout(60_000) });
  await wms.jobs.wait(job.jobId, { intervalMs: 500 });
  // @ts-expect-error: a file's path is @wms/client/node's
  await wms.imports.upload('./items.ndjson', { entity: 'items' });
  for await (const order of wms.paginate('/orders', { limit: 10 })) void order;
  void aliases;
  if (asn.data.asnNo === undefined) return 0;
  if (written.data.created && event.event === 'stock.adjusted') return Number(event.data.qtyDelta);
  return new WmsApiError({ statusCode: 400, message: 'x' }).statusCode;
}
`;

describe('the packed client in a project without Node', () => {
  let packed: PackedClient;

  beforeAll(async () => {
    packed = await installPackedClient();
  }, 120_000);
  afterAll(async () => {
    await packed?.remove();
  });

  it('when a project without @types/node (lib ES2022 and DOM) compiles against the main entry, its declarations type-check', async () => {
    await writeFile(join(packed.folder, 'web-consumer.ts'), WEB_CONSUMER);
    const nodeTypes = await access(join(packed.folder, 'node_modules/@types/node')).then(
      () => true,
      () => false,
    );

    const compiled = await compileForTheWeb(packed.folder, 'web-consumer.ts');

    expect(nodeTypes).toBe(false);
    expect(compiled).toEqual({ ok: true, output: '' });
  }, 60_000);
});
