import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminOpenApiDocument } from '../apps/gateway/src/admin-openapi/admin-openapi.js';
import { API_TYPES_FILE, renderApiTypes } from './api-types.mjs';

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');

describe("the admin portal's API types", () => {
  it('when the route table changes, the committed types are regenerated with it (npm run generate:api-types)', async () => {
    const committed = readFileSync(join(root, API_TYPES_FILE), 'utf8');

    const generated = await renderApiTypes(adminOpenApiDocument());

    expect(committed).toBe(generated);
  });
});
