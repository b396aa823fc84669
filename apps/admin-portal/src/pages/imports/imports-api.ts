import { http, ok, type ImportEntity, type ImportJob } from '../../api';

export type { ImportEntity, ImportJob, ImportState } from '../../api';

/** A file's media type by its name: CSV, or NDJSON for .ndjson, .jsonl and anything else. */
export function fileType(name: string): string {
  return /\.csv$/i.test(name) ? 'text/csv' : 'application/x-ndjson';
}

export const importsApi = {
  list: (tenantId?: string) => ok(http.GET('/imports', { params: { query: { tenantId } } })),
  /** The file goes as it is, with its own media type; the answer is JSON. */
  upload: (entity: ImportEntity, file: File, tenantId?: string) =>
    ok(
      http.POST('/imports', {
        params: { query: { entity, tenantId } },
        body: file as never,
        bodySerializer: () => file,
        headers: { 'content-type': fileType(file.name) },
      }),
    ),
  cancel: (jobId: string) => ok(http.DELETE('/imports/{id}', { params: { path: { id: jobId } } })),
  /** The errors file, as a Blob. */
  errors: (job: ImportJob): Promise<Blob> =>
    ok(
      http.GET('/imports/{id}/errors', {
        params: { path: { id: job.jobId } },
        parseAs: 'blob',
        headers: { accept: job.format === 'csv' ? 'text/csv' : 'application/x-ndjson' },
      }),
    ) as Promise<Blob>,
};
