// Compiled by the typecheck (tsconfig.spec.json, strict), never run: the catalogue reads, the stock of many skus
// and order.shipped's lines are typed field by field, so an integrator reads them without a cast.
import { createClient } from '../src/index.js';

const client = createClient({ baseUrl: 'https://wms.example.com', apiKey: 'key' });

export async function catalogue(): Promise<string[]> {
  const item = await client.items.get('SKU-1');
  const name: string = item.data.name;
  const weight: number | null | undefined = item.data.weightKg;
  const page = await client.items.list({ sku: ['SKU-1', 'SKU-2'], limit: 50 });
  const next: string | null = page.nextCursor;
  const partners = await client.partners.list({ type: 'customer' });
  const phone: string | null | undefined = partners.data[0]?.contact.phone;
  const locations = await client.locations.list({ warehouseCode: 'WH1' });
  const pickFace: boolean | undefined = locations.data[0]?.pickFace;
  // @ts-expect-error: an item has no qtyOnHand
  void item.data.qtyOnHand;
  const skus: string[] = [];
  for await (const listed of client.paginate('/items', { updatedSince: '2026-01-01T00:00:00Z' })) skus.push(listed.sku);
  return [name, String(weight), String(next), String(phone), String(pickFace), ...skus];
}

export async function levels(): Promise<string> {
  const answer = await client.stock.levels({ sku: ['SKU-1', 'SKU-2'], warehouseCode: 'WH1' });
  const first = answer.data[0];
  // Quantities are exact decimal strings in the version the client's types follow.
  const onHand: string | undefined = first?.stocks[0]?.qtyOnHand;
  const lot: string | null | undefined = first?.stocks[0]?.lotNo;
  return `${first?.sku} ${onHand} ${lot}`;
}

export function shippedLines(rawBody: string, headers: Record<string, string>, secret: string): string[] {
  const e = client.webhooks.unwrap(rawBody, headers, secret);
  if (e.event !== 'order.shipped') return [];
  const reference: string | null = e.data.referenceNo;
  const carrier: string | null = e.data.carrier;
  return [
    String(reference),
    String(carrier),
    ...e.data.lines.map((line) => `${line.lineNo} ${line.sku} ${line.lotNo ?? '-'} ${line.qty}`),
  ];
}
