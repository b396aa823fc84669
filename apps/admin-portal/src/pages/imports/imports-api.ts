import { api, apiDownload, apiUpload, type ImportAccepted, type ImportEntity, type ImportJob } from '../../api';

export type { ImportEntity, ImportJob, ImportState } from '../../api';

/** A file's media type by its name: CSV, or NDJSON for .ndjson, .jsonl and anything else. */
export function fileType(name: string): string {
  return /\.csv$/i.test(name) ? 'text/csv' : 'application/x-ndjson';
}

export const importsApi = {
  list: (tenantId?: string) => api.get<ImportJob[]>('/imports', { tenantId }),
  upload: (entity: ImportEntity, file: File, tenantId?: string) =>
    apiUpload<ImportAccepted>('/imports', { entity, tenantId }, file, fileType(file.name)),
  cancel: (jobId: string) => api.delete<ImportJob>(`/imports/${encodeURIComponent(jobId)}`),
  errors: (job: ImportJob) =>
    apiDownload(
      `/imports/${encodeURIComponent(job.jobId)}/errors`,
      job.format === 'csv' ? 'text/csv' : 'application/x-ndjson',
    ),
};
