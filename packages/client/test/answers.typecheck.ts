// Compiled by the typecheck (tsconfig.spec.json, strict), never run: the answers are typed field by field, as the
// OpenAPI document declares them, so an integrator reads them without a cast and a field no answer has is refused.
import { createClient } from '../src/index.js';

const client = createClient({ baseUrl: 'https://wms.example.com', apiKey: 'key' });

export async function readAnswers(): Promise<string[]> {
  const order = await client.orders.get('SO-1');
  const orderNo: string = order.data.orderNo;
  const shippedQty: string | number = order.data.lines[0].qtyShipped;
  // @ts-expect-error: an order has no field nope
  void order.data.nope;
  const stock = await client.stock.get({ sku: 'A' });
  const onHand: string | number = stock.data.stocks[0].qtyOnHand;
  const lot: string | null = stock.data.stocks[0].lotNo;
  const asn = await client.asns.get('ASN-1');
  const grnNo: string = asn.data.grns[0].grnNo;
  const page = await client.orders.list({ limit: 10 });
  const firstStatus: string = page.data[0].status;
  return [orderNo, String(shippedQty), String(onHand), lot ?? '', grnNo, firstStatus];
}
