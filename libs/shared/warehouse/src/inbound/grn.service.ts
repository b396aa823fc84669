import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { AppError, type ErrorDetail } from '@wms/platform';
import { changeStock, openStockRows, stockKey, type WriteContext } from '../writes/index.js';
import type { EventsService } from '@wms/events';
import { documentInvalid, lineProblems } from '../documents/index.js';
import { lotProblem } from '../inventory/index.js';
import { ReferenceRepository, type ItemRef } from '../master-data/index.js';
import { DocumentNumbers } from '../numbering/index.js';
import { AsnRepository, type LockedAsn } from './asn.repository.js';
import { GrnRepository } from './grn.repository.js';
import { RECEIVING_LOCATION, type GrnInput, type GrnLineInput } from './asn.schemas.js';

/** One GRN line as it is put on hand. */
interface ReceiptLine {
  lineNo: number;
  asnLine: LockedAsn['lines'][number] | null;
  item: ItemRef;
  uomCode: string;
  qty: number;
  lotNo: string;
  expiryDate: string | null;
  locationCode: string;
  locationId: string;
}

/**
 * Goods receipt: against an ASN or blind, all in the caller's
 * transaction: the ASN row is locked FOR UPDATE first (concurrent receipts of one ASN queue behind
 * each other and each sees the quantities the previous one received), stock is put on hand under row
 * locks, the ASN's lines and state are updated, and the events of the transition are appended.
 */
export class GrnService {
  private readonly asns: AsnRepository;
  private readonly grns: GrnRepository;
  private readonly references: ReferenceRepository;
  private readonly numbers: DocumentNumbers;

  constructor(
    private readonly db: Database,
    private readonly events: Pick<EventsService, 'append'>,
  ) {
    this.asns = new AsnRepository(db);
    this.grns = new GrnRepository(db);
    this.references = new ReferenceRepository(db);
    this.numbers = new DocumentNumbers(db);
  }

  async receive(context: WriteContext, input: GrnInput): Promise<Record<string, unknown>> {
    const { tenantId, transaction } = context;
    const refs = await this.references.resolve(
      tenantId,
      { warehouseCodes: [input.warehouseCode], skus: input.lines.map((line) => line.sku) },
      transaction,
    );
    const warehouse = refs.warehouse(input.warehouseCode);
    const asn = input.asnNo ? await this.lockAsn(tenantId, input.asnNo, warehouse.id, transaction) : null;
    const items = input.lines.map((line) => refs.item(line.sku));
    const locationIds = await this.locationIds(warehouse.id, input.lines, transaction);
    const lines = planReceipt(input.lines, items, locationIds, asn);

    const grnNo = await this.numbers.next('GRN', transaction);
    const stockRows = await this.putOnHand(context, grnNo, warehouse.id, lines);
    const grn = await this.grns.insert(
      { tenantId, grnNo, asnId: asn?.id ?? null, warehouseId: warehouse.id },
      lines.map((line) => ({
        lineNo: line.lineNo,
        asnLineId: line.asnLine?.id ?? null,
        itemId: line.item.id,
        uomCode: line.uomCode,
        qty: line.qty,
        lotNo: line.lotNo,
        expiryDate: line.expiryDate,
        locationId: line.locationId,
        stockRowId: stockRows.get(
          stockKey({ warehouseId: warehouse.id, locationId: line.locationId, itemId: line.item.id, lotNo: line.lotNo }),
        )!,
      })),
      transaction,
    );
    const asnStatus = asn
      ? await this.recordAsnReceipt(transaction, tenantId, asn, grnNo, input.warehouseCode, lines)
      : null;
    return {
      id: grn.id,
      grnNo,
      asnNo: asn?.asnNo ?? null,
      asnStatus,
      warehouseCode: input.warehouseCode,
      createdAt: grn.createdAt,
      lines: lines.map((line) => ({
        lineNo: line.lineNo,
        asnLineNo: line.asnLine?.lineNo ?? null,
        sku: line.item.sku,
        uomCode: line.uomCode,
        qty: line.qty,
        lotNo: line.lotNo || null,
        expiryDate: line.expiryDate,
        locationCode: line.locationCode,
      })),
    };
  }

  /**
   * Receives every line of the ASN still short of what it expects, in full, into its warehouse's receiving
   * location, by one GRN (what a sandbox simulation of `asn.received` does). An ASN with nothing left to
   * receive is 409 NOTHING_TO_RECEIVE.
   */
  async receiveOpenLines(context: WriteContext, asnNo: string): Promise<Record<string, unknown>> {
    const asn = await this.asns.lockForReceipt(context.tenantId, asnNo, context.transaction);
    if (!asn) throw AppError.notFound(`ASN ${asnNo} not found`);
    const open = asn.lines.filter((line) => line.receivedQty < line.expectedQty);
    if (asn.status === 'completed' || !open.length)
      throw AppError.conflict('NOTHING_TO_RECEIVE', `ASN ${asnNo} has nothing left to receive`);
    return this.receive(context, {
      warehouseCode: asn.warehouseCode,
      asnNo: asn.asnNo,
      lines: open.map((line) => ({
        asnLineNo: line.lineNo,
        sku: line.sku,
        uomCode: line.uomCode,
        qty: Number((line.expectedQty - line.receivedQty).toFixed(4)),
        locationCode: RECEIVING_LOCATION,
      })),
    });
  }

  /** Opens the lines' stock rows and puts their quantities on hand; answers each key's row id. */
  private async putOnHand(
    context: WriteContext,
    grnNo: string,
    warehouseId: string,
    lines: ReceiptLine[],
  ): Promise<Map<string, string>> {
    const keyOf = (line: ReceiptLine) =>
      stockKey({ warehouseId, locationId: line.locationId, itemId: line.item.id, lotNo: line.lotNo });
    const stockRows = await openStockRows(
      this.db,
      context,
      lines.map((line) => ({
        warehouseId,
        locationId: line.locationId,
        itemId: line.item.id,
        lotNo: line.lotNo,
        expiryDate: line.expiryDate,
      })),
    );
    await changeStock(
      this.db,
      context,
      { cause: 'grn', documentNo: grnNo },
      lines.map((line) => ({ stockRowId: stockRows.get(keyOf(line))!, onHand: line.qty, allocated: 0 })),
    );
    return stockRows;
  }

  /**
   * The ASN transition of a receipt and its events seam: `asn.received` always, `asn.completed` when
   * this receipt completed the ASN.
   */
  private async recordAsnReceipt(
    transaction: Transaction,
    tenantId: string,
    asn: LockedAsn,
    grnNo: string,
    warehouseCode: string,
    lines: ReceiptLine[],
  ) {
    const after = await this.asns.recordReceipt(
      asn.id,
      lines.map((line) => ({ asnLineId: line.asnLine!.id, qty: line.qty })),
      transaction,
    );
    await this.events.append(transaction, {
      tenantId,
      event: 'asn.received',
      data: { asnNo: asn.asnNo, grnNo, warehouseCode, lines: after.lines },
    });
    if (after.status === 'completed') {
      await this.events.append(transaction, {
        tenantId,
        event: 'asn.completed',
        data: { asnNo: asn.asnNo, warehouseCode },
      });
    }
    return after.status;
  }

  private async lockAsn(
    tenantId: string,
    asnNo: string,
    warehouseId: string,
    transaction: Transaction,
  ): Promise<LockedAsn> {
    const asn = await this.asns.lockForReceipt(tenantId, asnNo, transaction);
    // The asnNo is a reference inside the body, so a miss is 400 REFERENCE_NOT_FOUND, not 404: 404 is for the
    // resource the path names.
    if (!asn) throw AppError.referenceNotFound(`ASN ${asnNo} not found`);
    if (asn.status === 'completed')
      throw AppError.conflict('INVALID_STATE', `ASN ${asnNo} is completed and cannot be received against`);
    if (asn.warehouseId !== warehouseId) {
      throw AppError.validation(`ASN ${asnNo} is for another warehouse`, [
        { path: 'warehouseCode', message: `ASN ${asnNo} is for another warehouse` },
      ]);
    }
    return asn;
  }

  private async locationIds(
    warehouseId: string,
    lines: GrnLineInput[],
    transaction: Transaction,
  ): Promise<Map<string, string>> {
    const codes = [...new Set(lines.map((line) => line.locationCode ?? RECEIVING_LOCATION))];
    const found = await this.references.locationIds(warehouseId, codes, transaction);
    const missing = codes.find((code) => !found.has(code));
    if (missing) throw AppError.referenceNotFound(`Location code ${missing} not found`);
    return found;
  }
}

/** Checks every line against its item (and ASN line), throwing all problems at once; returns what goes on hand. */
function planReceipt(
  inputs: GrnLineInput[],
  items: ItemRef[],
  locationIds: Map<string, string>,
  asn: LockedAsn | null,
): ReceiptLine[] {
  const details: ErrorDetail[] = [];
  const asnLines = new Map(asn?.lines.map((line) => [line.lineNo, line]));
  const receiving = new Map<number, number>();
  const lines = inputs.map((input, n): ReceiptLine => {
    const path = `lines.${n}`;
    const lineNo = n + 1;
    const item = items[n]!;
    const asnLine = asn ? (asnLines.get(input.asnLineNo!) ?? null) : null;
    const lotNo = asnLine?.lotNo ?? input.lotNo ?? '';
    const expiryDate = asnLine?.expiryDate ?? input.expiryDate ?? null;
    if (asn && !asnLine)
      details.push({
        path: `${path}.asnLineNo`,
        message: `line ${lineNo}: ASN ${asn.asnNo} has no line ${input.asnLineNo}`,
      });
    if (asnLine) details.push(...asnLineProblems(path, lineNo, input, asnLine, receiving));
    details.push(...lineProblems(path, lineNo, item, input.uomCode, lotProblem(item, lotNo, expiryDate, true)));
    const locationCode = input.locationCode ?? RECEIVING_LOCATION;
    return {
      lineNo,
      asnLine,
      item,
      uomCode: input.uomCode,
      qty: input.qty,
      lotNo,
      expiryDate,
      locationCode,
      locationId: locationIds.get(locationCode)!,
    };
  });
  if (details.length) throw documentInvalid(details);
  return lines;
}

/** A GRN line must match its ASN line's sku and lot and may not receive more than the line still expects. */
function asnLineProblems(
  path: string,
  lineNo: number,
  input: GrnLineInput,
  asnLine: LockedAsn['lines'][number],
  receiving: Map<number, number>,
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (input.sku !== asnLine.sku)
    details.push({
      path: `${path}.sku`,
      message: `line ${lineNo}: ASN line ${asnLine.lineNo} is for SKU ${asnLine.sku}, not ${input.sku}`,
    });
  if (input.lotNo && asnLine.lotNo && input.lotNo !== asnLine.lotNo) {
    details.push({
      path: `${path}.lotNo`,
      message: `line ${lineNo}: ASN line ${asnLine.lineNo} is of lot ${asnLine.lotNo}, not ${input.lotNo}`,
    });
  }
  const total = (receiving.get(asnLine.lineNo) ?? 0) + input.qty;
  receiving.set(asnLine.lineNo, total);
  const open = asnLine.expectedQty - asnLine.receivedQty;
  if (total > open + 1e-9) {
    details.push({
      path: `${path}.qty`,
      message: `line ${lineNo}: over-receipt of ASN line ${asnLine.lineNo}: ${total} received now, ${open} still expected`,
    });
  }
  return details;
}
