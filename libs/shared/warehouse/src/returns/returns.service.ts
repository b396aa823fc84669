import {
  AppError,
  toPage,
  type Database,
  type ErrorDetail,
  type ListPage,
  type ListQuery,
  type QuantityFormat,
} from '@wms/platform';
import type { EntryOutcome, WriteContext } from '../writes/index.js';
import { documentInvalid } from '../documents/index.js';
import { lotProblem } from '../inventory/index.js';
import { ReferenceRepository, type ItemRef } from '../master-data/index.js';
import { ReturnsRepository, type ReturnedOrder, type Returnable } from './returns.repository.js';
import type { ReturnInput, ReturnStatus } from './return.schemas.js';

/**
 * Customer returns (RMAs), their creation (single and bulk through the ingest registry), the inquiry and
 * the list. A return names a shipped order of the tenant and may not take back more of a sku than the
 * order shipped, counting the returns before it (409 RETURN_EXCEEDS_SHIPPED). Orders are locked while
 * their returns are checked and written, so concurrent returns of one order count each other.
 */
export class ReturnsService {
  private readonly repository: ReturnsRepository;
  private readonly references: ReferenceRepository;

  constructor(db: Database) {
    this.repository = new ReturnsRepository(db);
    this.references = new ReferenceRepository(db);
  }

  /** Creates a batch of returns in the caller's transaction, in entry order; every entry gets its own outcome. */
  async createReturns(context: WriteContext, inputs: ReturnInput[]): Promise<EntryOutcome[]> {
    const { tenantId, transaction } = context;
    const refs = await this.references.resolve(
      tenantId,
      { skus: inputs.flatMap((input) => input.lines.map((line) => line.sku)) },
      transaction,
    );
    const orders = await this.repository.lockOrders(
      tenantId,
      inputs.map((input) => input.orderNo),
      transaction,
    );
    const outcomes: EntryOutcome[] = [];
    for (const input of inputs) {
      try {
        const items = input.lines.map((line) => refs.item(line.sku));
        outcomes.push(await this.createOne(context, input, items, orders.get(input.orderNo)));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }

  /**
   * The return inquiry: the return, its lines with receivedQty, and its receipts. Quantities come as JSON
   * numbers, or as exact decimal strings (`format` 'decimal') for an answer the API's version renders.
   */
  async inquire(tenantId: string, rmaNo: string, format: QuantityFormat = 'number'): Promise<Record<string, unknown>> {
    const document = await this.repository.findDocument(tenantId, rmaNo, undefined, format);
    if (!document) throw AppError.notFound(`Return ${rmaNo} not found`);
    return document;
  }

  async list(
    tenantId: string,
    query: ListQuery<ReturnStatus>,
    format: QuantityFormat = 'number',
  ): Promise<ListPage<Record<string, unknown>>> {
    return toPage(await this.repository.list(tenantId, query, format), query.limit);
  }

  private async createOne(
    { tenantId, transaction }: WriteContext,
    input: ReturnInput,
    items: ItemRef[],
    order: ReturnedOrder | undefined,
  ): Promise<EntryOutcome> {
    // The orderNo is a reference inside the body: a miss is 400 REFERENCE_NOT_FOUND, as for a sku.
    if (!order) throw AppError.referenceNotFound(`Order ${input.orderNo} not found`);
    if (order.status !== 'shipped') {
      throw AppError.conflict(
        'INVALID_STATE',
        `Order ${order.orderNo} is ${order.status}; only a shipped order can be returned`,
      );
    }
    checkLines(input, items);
    refuseBeyondShipped(input, items, await this.repository.returnable(order.id, transaction));
    const row = await this.repository.insert(
      { tenantId, rmaNo: input.rmaNo, orderId: order.id, warehouseId: order.warehouseId },
      input.lines.map((line, n) => ({
        lineNo: n + 1,
        itemId: items[n]!.id,
        qty: line.qty,
        lotNo: line.lotNo ?? '',
        reason: line.reason ?? null,
      })),
      transaction,
    );
    if (!row) {
      throw AppError.conflict('DUPLICATE_REFERENCE', `Return with rmaNo ${input.rmaNo} already exists`);
    }
    // The created return as the integration API answers it (single or bulk): exact, for the version renderer.
    const document = await this.repository.findDocument(tenantId, input.rmaNo, transaction, 'decimal');
    return { ok: true, created: true, data: { id: row.id, rmaNo: input.rmaNo }, document: document! };
  }
}

/** A lot may only be named for a lot-tracked item. */
function checkLines(input: ReturnInput, items: ItemRef[]): void {
  const details: ErrorDetail[] = [];
  input.lines.forEach((line, n) => {
    const problem = lotProblem(items[n]!, line.lotNo, null, false);
    if (problem) details.push({ path: `lines.${n}.lotNo`, message: `line ${n + 1}: ${problem}` });
  });
  if (details.length) throw documentInvalid(details);
}

/** 409 RETURN_EXCEEDS_SHIPPED naming every sku the return would take back more of than the order shipped. */
function refuseBeyondShipped(input: ReturnInput, items: ItemRef[], returnable: Map<string, Returnable>): void {
  const asked = new Map<string, { item: ItemRef; qty: number }>();
  input.lines.forEach((line, n) => {
    const item = items[n]!;
    const entry = asked.get(item.id) ?? { item, qty: 0 };
    asked.set(item.id, { item, qty: Number((entry.qty + line.qty).toFixed(4)) });
  });
  const problems: string[] = [];
  for (const [itemId, { item, qty }] of asked) {
    const shipped = returnable.get(itemId)?.shipped ?? 0;
    const returned = returnable.get(itemId)?.returned ?? 0;
    const open = Number((shipped - returned).toFixed(4));
    if (qty > open) {
      problems.push(
        `Order ${input.orderNo} shipped ${shipped} of item SKU ${item.sku} and earlier returns take back ${returned}; ` +
          `${qty} cannot be returned (at most ${Math.max(open, 0)})`,
      );
    }
  }
  if (problems.length) throw AppError.conflict('RETURN_EXCEEDS_SHIPPED', problems.join('; '));
}
