import { AppError, type ErrorDetail } from '@wms/platform';
import type { ItemRef } from '../master-data/index.js';

/**
 * The unit rule (a line's uomCode must be its item's base unit: there is no unit conversion) and a lot
 * problem of one line, as error details.
 */
export function lineProblems(
  path: string,
  lineNo: number,
  item: ItemRef,
  uomCode: string,
  lot: string | null,
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (uomCode !== item.baseUomCode) {
    details.push({
      path: `${path}.uomCode`,
      message: `line ${lineNo}: uomCode ${uomCode} is not the base unit ${item.baseUomCode} of item SKU ${item.sku}`,
    });
  }
  if (lot) details.push({ path: `${path}.lotNo`, message: `line ${lineNo}: ${lot}` });
  return details;
}

/** A document whose lines break a rule: 400 VALIDATION_FAILED whose message names every problem. */
export function documentInvalid(details: ErrorDetail[]): AppError {
  return AppError.validation(details.map((detail) => detail.message).join('; '), details);
}

export function duplicateReference(
  kind: 'ASN' | 'Order',
  referenceNo: string,
  existingNo: string | undefined,
): AppError {
  return AppError.conflict(
    'DUPLICATE_REFERENCE',
    `${kind} with referenceNo ${referenceNo} already exists: ${existingNo ?? 'another document'}`,
  );
}
