import { E2E_PATTERN, defaultTierSpecs, needsAService, specFilesOnDisk, unitTierSpecs } from './test-tiers.mjs';

describe('test tiers', () => {
  it('runs every spec file of the repository under the default config', () => {
    const onDisk = specFilesOnDisk();
    const run = new Set(defaultTierSpecs());

    expect(onDisk.filter((file) => !run.has(file))).toEqual([]);
    expect(onDisk.length).toBeGreaterThan(0);
  });

  it('puts each spec that needs no service in the unit tier, and only those', () => {
    const unit = new Set(unitTierSpecs());

    const missing = defaultTierSpecs().filter(
      (file) => !file.startsWith(E2E_PATTERN) && !needsAService(file) && !unit.has(file),
    );
    const needingServices = [...unit].filter((file) => needsAService(file) || file.startsWith(E2E_PATTERN));

    expect(missing).toEqual([]);
    expect(needingServices).toEqual([]);
  });

  it('finds the unit specs of the libraries under libs/shared', () => {
    const libraries = new Set(
      unitTierSpecs()
        .map((file) => /^libs\/shared\/([^/]+)\//.exec(file)?.[1])
        .filter(Boolean),
    );

    expect(libraries.size).toBeGreaterThan(0);
  });
});
