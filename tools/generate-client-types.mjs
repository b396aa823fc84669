// Writes the typed client's types from the integration API's route table (run after `tsc -b`).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLIENT_TYPES_FILE, renderClientTypes } from './client-types.mjs';

const root = join(import.meta.dirname, '..');
const { integrationOpenApiDocument } = await import(join(root, 'apps/gateway/dist/integration/docs.routes.js'));
await writeFile(join(root, CLIENT_TYPES_FILE), await renderClientTypes(integrationOpenApiDocument()));
console.log(`wrote ${CLIENT_TYPES_FILE}`);
