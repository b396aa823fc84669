import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The gateway's request edge (docs/adr/0064-gateway-request-path.md): a route receives its caller typed, so
 * no source asserts a key or a person onto the request, and what middleware learns of a request lives in
 * typed slots, not on the global `Request` type; an answer leaves through the one pipeline, so only
 * the Express adapter (`http/server.ts`) replaces a response's `json`/`end` or swaps a prototype.
 */

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const ADAPTER = 'apps/gateway/src/http/server.ts';

/** The apps' source files (not their specs). */
function sources(): Array<{ file: string; text: string }> {
  return globSync(['apps/*/src/**/*.ts'], { cwd: root })
    .filter((file) => !file.endsWith('.spec.ts') && !file.includes('/dist/'))
    .sort()
    .map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }));
}

const filesWhere = (pattern: RegExp) =>
  sources()
    .filter(({ text }) => pattern.test(text))
    .map(({ file }) => file);

describe('the request edge', () => {
  it('asserts no caller onto a request: a route receives its key or person typed', () => {
    expect(filesWhere(/\breq\.(apiKey|principal)!/)).toEqual([]);
  });

  it('declares no key or person on the global Request type', () => {
    const augmented = sources().filter(({ text }) => /interface Request\s*\{[^}]*\b(apiKey|principal)\??:/s.test(text));
    expect(augmented.map(({ file }) => file)).toEqual([]);
  });

  it("adds nothing to Express' global Request type: a request's state is read through http/request-state.ts", () => {
    const augmenting = sources().filter(
      ({ file, text }) => file.startsWith('apps/gateway/') && /\bdeclare global\b/.test(text),
    );
    expect(augmenting.map(({ file }) => file)).toEqual([]);
  });
});

describe('the answer pipeline', () => {
  it("replaces a response's json or end only in the Express adapter", () => {
    expect(filesWhere(/\bres\.(json|end)\s*=[^=]/)).toEqual([ADAPTER]);
  });

  it('swaps prototypes only in the Express adapter', () => {
    expect(filesWhere(/\bsetPrototypeOf\(/).filter((file) => file.startsWith('apps/gateway/'))).toEqual([ADAPTER]);
  });

  it('sets its stages only through answerPipeline', () => {
    expect(filesWhere(/\bhookAnswer\(/)).toEqual(['apps/gateway/src/http/answer-pipeline.ts', ADAPTER]);
  });
});
