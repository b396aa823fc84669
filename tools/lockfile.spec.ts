import { readFileSync } from 'node:fs';

// `npm ci` refuses a lock file that lacks an entry for any optional platform package; the registry
// here does not serve some of them, so tools/complete-lockfile.mjs adds their entries.
describe('package-lock.json', () => {
  it('has an entry for every optional platform package, so npm ci accepts it', () => {
    const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as {
      packages: Record<string, { optionalDependencies?: Record<string, string> }>;
    };
    const missing = Object.entries(lock.packages).flatMap(([path, meta]) =>
      Object.keys(meta.optionalDependencies ?? {}).filter(
        (name) =>
          !lock.packages[`node_modules/${name}`] && !lock.packages[`${path ? `${path}/` : ''}node_modules/${name}`],
      ),
    );

    expect(missing).toEqual([]);
  });
});
