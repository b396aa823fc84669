import { ESLint } from 'eslint';
import { join } from 'node:path';

// The dependency rules live in eslint.config.mjs and `npm test` runs the linter over the workspace;
// this proves the rules bite: each import below is linted as if it stood in the file named.
const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');

async function restrictedImports(filePath: string, importPath: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(`import { probe } from '${importPath}';\nexport const used = probe;\n`, {
    filePath: join(root, filePath),
  });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

describe('module boundaries', () => {
  it.each([
    ['libs/shared/identity/src/users/probe.ts', '../auth/auth.service.js'],
    ['libs/shared/warehouse/src/outbound/probe.ts', '../db/migrations/0001-foundation.js'],
    ['libs/shared/setup/src/probe.ts', './users/users.service.js'],
    ['libs/shared/platform/src/db/probe.ts', '../users/index.js'],
    ['libs/shared/platform/src/db/migrations/probe.ts', '../../tenants/index.js'],
    ['apps/gateway/src/probe.ts', 'sequelize'],
  ])('%s may not import %s', async (file, target) => {
    expect(await restrictedImports(file, target)).toEqual(['no-restricted-imports']);
  });

  it.each([
    ['apps/gateway/src/probe.ts', '@wms/webhook-worker'],
    ['apps/gateway/src/probe.ts', '@wms/testing'],
    ['libs/shared/identity/src/users/probe.ts', '@wms/testing'],
    ['libs/shared/identity/src/users/probe.ts', '@wms/gateway'],
    ['libs/shared/warehouse/src/outbound/probe.ts', '@wms/ingest'],
    ['libs/shared/platform/src/db/probe.ts', '@wms/identity'],
  ])('%s may not depend on %s (Nx project tags)', async (file, target) => {
    expect(await restrictedImports(file, target)).toEqual(['@nx/enforce-module-boundaries']);
  });

  it.each([
    ['apps/gateway/src/probe.ts', '@wms/platform'],
    ['libs/shared/identity/src/users/probe.ts', '../auth/index.js'],
    ['libs/shared/identity/src/users/probe.ts', './users.repository.js'],
    ['libs/shared/setup/src/probe.ts', './users/index.js'],
    ['libs/shared/platform/src/db/probe.ts', '../config/index.js'],
    ['libs/shared/platform/src/db/migrations/probe.ts', '../migration.js'],
  ])('%s may import %s', async (file, target) => {
    expect(await restrictedImports(file, target)).toEqual([]);
  });
});
