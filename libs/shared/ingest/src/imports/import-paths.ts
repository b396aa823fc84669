import { INTEGRATION_JOBS_PATH } from '../integration/index.js';

/** Where an import is read: the integration API's jobs for a key's import, the admin API for a portal upload. */
export const ADMIN_IMPORTS_PATH = '/api/v1/imports';

export function importStatusPath(job: { id: string; apiKeyId: string | null }): string {
  return `${job.apiKeyId ? INTEGRATION_JOBS_PATH : ADMIN_IMPORTS_PATH}/${job.id}`;
}

export function importErrorsPath(job: { id: string; apiKeyId: string | null }): string {
  return `${importStatusPath(job)}/errors`;
}

/** Import ids carry this prefix, so GET /jobs/{jobId} tells an import from a bulk job without a query. */
export const IMPORT_ID_PREFIX = 'import-';

export function isImportId(id: string): boolean {
  return id.startsWith(IMPORT_ID_PREFIX);
}
