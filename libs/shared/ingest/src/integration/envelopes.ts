/** The integration API's answers: success, bulk (per-entry results), accepted (202) and error envelopes. */
import type { EntryRef } from '@wms/warehouse';

export interface SuccessEnvelope<T> {
  status: 'success';
  data: T;
  requestId: string;
}

export function successEnvelope<T>(data: T, requestId: string): SuccessEnvelope<T> {
  return { status: 'success', data, requestId };
}

/** The same envelope as text around data that is JSON text already (an inquiry PostgreSQL built). */
export function successEnvelopeText(dataJson: string, requestId: string): string {
  return `{"status":"success","data":${dataJson},"requestId":${JSON.stringify(requestId)}}`;
}

export type BulkEntryResult =
  | { index: number; key: string; status: 'created' | 'updated'; data: EntryRef }
  | { index: number; key: string; status: 'error'; error: string };

export interface BulkEntryError {
  index: number;
  key: string;
  error: string;
}

/** The bulk envelope without its requestId: what an ingest job returns and GET /jobs/:jobId shows. */
export interface BulkResult {
  status: 'success' | 'partial';
  total: number;
  created: number;
  updated: number;
  errors: BulkEntryError[];
  data: BulkEntryResult[];
}

export type BulkEnvelope = BulkResult & { requestId: string };

/** Where a job of the integration API is read: `GET <path>/{jobId}` (bulk jobs, imports, snapshots). */
export const INTEGRATION_JOBS_PATH = '/api/v1/integration/v1/jobs';

export interface AcceptedEnvelope {
  status: 'accepted';
  jobId: string;
  statusUrl: string;
  requestId: string;
}

/** A bulk result as it is stored and handed on: its JSON text, with its status beside it. */
export interface BulkResultText {
  status: BulkResult['status'];
  json: string;
}

export function bulkResultText(result: BulkResult): BulkResultText {
  return { status: result.status, json: JSON.stringify(result) };
}

/**
 * The bulk envelope as text around a stored result's JSON text (no parse and serialisation of a result
 * that is JSON already), and its HTTP status: 207 when the result is partial.
 */
export function bulkEnvelopeText(result: BulkResultText, requestId: string): { status: 200 | 207; body: string } {
  return {
    status: result.status === 'partial' ? 207 : 200,
    body: `${result.json.slice(0, -1)},"requestId":${JSON.stringify(requestId)}}`,
  };
}

/** Builds the bulk result from index-aligned entry results. */
export function toBulkResult(entries: BulkEntryResult[]): BulkResult {
  const errors: BulkEntryError[] = [];
  let created = 0;
  let updated = 0;
  for (const entry of entries) {
    if (entry.status === 'created') created += 1;
    else if (entry.status === 'updated') updated += 1;
    if (entry.status === 'error') errors.push({ index: entry.index, key: entry.key, error: entry.error });
  }
  return {
    status: errors.length ? 'partial' : 'success',
    total: entries.length,
    created,
    updated,
    errors,
    data: entries,
  };
}

/** A bulk answers 200 when every entry succeeded, 207 when at least one has an error. */
export function bulkHttpStatus(result: Pick<BulkResult, 'errors'>): 200 | 207 {
  return result.errors.length ? 207 : 200;
}

export function bulkEnvelope(result: BulkResult, requestId: string): BulkEnvelope {
  return { ...result, requestId };
}
