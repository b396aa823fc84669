import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { integrationOpenApiDocument } from '../apps/gateway/src/integration/docs.routes.js';
import { CLIENT_TYPES_FILE, renderClientTypes } from './client-types.mjs';

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');

describe("the typed client's types", () => {
  it('when the integration route table changes, the committed client types are regenerated with it (npm run generate:client)', async () => {
    const committed = readFileSync(join(root, CLIENT_TYPES_FILE), 'utf8');

    const generated = await renderClientTypes(integrationOpenApiDocument());

    expect(committed).toBe(generated);
  });
});
