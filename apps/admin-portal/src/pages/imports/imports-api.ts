import { api, apiDownload, apiUpload } from '../../api';

export type ImportEntity = 'items' | 'partners' | 'locations' | 'asn' | 'orders';
export type ImportState = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** An import as `GET /api/v1/imports` lists it. */
export interface ImportJob {
  jobId: string;
  entity: ImportEntity;
  format: 'ndjson' | 'csv';
  state: ImportState;
  total: number;
  processed: number;
  created: number;
  updated: number;
  failed: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  error?: string;
}

/** A file's media type by its name: CSV, or NDJSON for .ndjson, .jsonl and anything else. */
export function fileType(name: string): string {
  return /\.csv$/i.test(name) ? 'text/csv' : 'application/x-ndjson';
}

export const importsApi = {
  list: (tenantId?: string) => api.get<ImportJob[]>('/imports', { tenantId }),
  upload: (entity: ImportEntity, file: File, tenantId?: string) =>
    apiUpload<{ jobId: string }>('/imports', { entity, tenantId }, file, fileType(file.name)),
  cancel: (jobId: string) => api.delete<ImportJob>(`/imports/${encodeURIComponent(jobId)}`),
  errors: (job: ImportJob) =>
    apiDownload(
      `/imports/${encodeURIComponent(job.jobId)}/errors`,
      job.format === 'csv' ? 'text/csv' : 'application/x-ndjson',
    ),
};
