// Writes the admin portal's API types from the admin API's route table (run after `tsc -b`).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { API_TYPES_FILE, renderApiTypes } from './api-types.mjs';

const root = join(import.meta.dirname, '..');
const { adminOpenApiDocument } = await import(join(root, 'apps/gateway/dist/admin-openapi/admin-openapi.js'));
await writeFile(join(root, API_TYPES_FILE), await renderApiTypes(adminOpenApiDocument()));
console.log(`wrote ${API_TYPES_FILE}`);
