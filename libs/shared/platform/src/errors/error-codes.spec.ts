import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STATUS_CODES } from 'node:http';
import { AppError } from './app-error.js';
import { ERROR_CATALOGUE, ERROR_CODES, errorCodesMarkdown, httpStatusOf, isErrorCode } from './error-codes.js';

/**
 * The error catalogue is the one list of codes (docs/adr/0023-hostile-input-is-a-4xx.md): every `AppError` the
 * service constructs names a code of it, no throw site names an HTTP status, and docs/error-codes.md shows it.
 */

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../../../../..');

/** The service's source files (not their specs), as `tools/sql-style.spec.ts` reads them. */
function sources(): Array<{ file: string; text: string }> {
  return globSync(['libs/shared/*/src/**/*.ts', 'libs/*/src/**/*.ts', 'apps/*/src/**/*.ts'], { cwd: root })
    .filter((file) => !file.endsWith('.spec.ts') && !file.includes('/dist/'))
    .sort()
    .map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }));
}

/** Each construction of an error: `new AppError(…)`, a shorthand `AppError.x(…)` or the gateway's `tooManyRequests(…)`. */
interface Construction {
  file: string;
  callee: string;
  args: string;
}

const CONSTRUCTION = /(new AppError|AppError\.(\w+)|\btooManyRequests)\(/g;

/** The text of a call's arguments, up to its closing parenthesis (strings and templates keep theirs balanced). */
function argumentsAt(text: string, open: number): string {
  let depth = 1;
  let quote: string | null = null;
  for (let at = open; at < text.length; at += 1) {
    const char = text[at]!;
    if (quote) {
      if (char === '\\') at += 1;
      else if (char === quote) quote = null;
      continue;
    }
    if (char === "'" || char === '"' || char === '`') quote = char;
    else if (char === '(') depth += 1;
    else if (char === ')' && --depth === 0) return text.slice(open, at);
  }
  throw new Error('unbalanced call');
}

function constructions(): Construction[] {
  return sources().flatMap(({ file, text }) =>
    [...text.matchAll(CONSTRUCTION)]
      .filter((match) => !/^\s*(\*|\/\/)/.test(text.slice(text.lastIndexOf('\n', match.index) + 1, match.index)))
      .map((match) => ({
        file,
        callee: match[1]!,
        args: argumentsAt(text, match.index + match[0].length),
      })),
  );
}

/** The codes a construction names as string literals (codes are upper snake case; messages never are). */
const codesNamed = (args: string) => [...args.matchAll(/'([A-Z][A-Z0-9_]+)'/g)].map((match) => match[1]!);

/** Shorthands whose code is their default unless they name one. */
const DEFAULT_CODE: Record<string, string> = {
  'AppError.validation': 'VALIDATION_FAILED',
  'AppError.referenceNotFound': 'REFERENCE_NOT_FOUND',
  'AppError.unauthorized': 'UNAUTHORIZED',
  'AppError.forbidden': 'FORBIDDEN',
  'AppError.notFound': 'NOT_FOUND',
};

/** The places that pass on a code typed `ErrorCode` (or a status subset of it) rather than naming it. */
const PASSES_A_TYPED_CODE = [
  'apps/gateway/src/http/too-many-requests.ts',
  'libs/shared/platform/src/errors/app-error.ts',
];

describe('the error catalogue', () => {
  it('names, for every code, an HTTP error status and a meaning', () => {
    for (const code of ERROR_CODES) {
      const { status, meaning } = ERROR_CATALOGUE[code];
      expect([code, status >= 400 && status < 600 && STATUS_CODES[status] !== undefined]).toEqual([code, true]);
      expect([code, meaning.length > 10]).toEqual([code, true]);
      expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
    }
  });

  it('gives an AppError the status of its code, so a throw site names no status', () => {
    expect(new AppError('TENANT_MISMATCH', 'Access to another tenant is not allowed').status).toBe(403);
    expect(AppError.conflict('DUPLICATE_REFERENCE', 'exists').status).toBe(httpStatusOf('DUPLICATE_REFERENCE'));
    expect(AppError.unauthorized('Key', 'INVALID_API_KEY')).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
    expect(AppError.validation('bad', [{ path: 'sku', message: 'sku is required' }])).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      details: [{ path: 'sku', message: 'sku is required' }],
    });
    expect([isErrorCode('NOT_FOUND'), isErrorCode('NOT_A_CODE'), isErrorCode('toString')]).toEqual([
      true,
      false,
      false,
    ]);
  });
});

describe('every AppError in libs/ and apps/', () => {
  const found = constructions();

  it('is found where the service constructs errors (the grep itself works)', () => {
    expect(found.length).toBeGreaterThan(150);
    expect(found.some(({ file }) => file.startsWith('libs/shared/warehouse/'))).toBe(true);
    expect(found.some(({ file }) => file.startsWith('apps/gateway/'))).toBe(true);
  });

  it('names only codes of the catalogue', () => {
    const unknown = found.flatMap(({ file, args }) =>
      codesNamed(args)
        .filter((code) => !isErrorCode(code))
        .map((code) => `${file}: ${code}`),
    );

    expect(unknown).toEqual([]);
  });

  it('names a code, or takes its shorthand default, or passes on a typed code in the few places that do', () => {
    const unnamed = found
      .filter(({ callee, args }) => codesNamed(args).length === 0 && !(callee in DEFAULT_CODE))
      .map(({ file }) => file);

    expect([...new Set(unnamed)].sort()).toEqual(PASSES_A_TYPED_CODE);
  });

  it('names no HTTP status: the catalogue does', () => {
    const withStatus = found
      .filter(({ callee, args }) => callee === 'new AppError' && /^\s*\d{3}\s*,/.test(args))
      .map(({ file }) => file);

    expect(withStatus).toEqual([]);
  });

  it('leaves no code of the catalogue unused', () => {
    const used = new Set([
      ...found.flatMap(({ args }) => codesNamed(args)),
      ...Object.values(DEFAULT_CODE),
      // The gateway's error handler names what Express raises in its own table.
      ...codesNamed(readFileSync(join(root, 'apps/gateway/src/http/errors.ts'), 'utf8')),
    ]);

    expect(ERROR_CODES.filter((code) => !used.has(code))).toEqual([]);
  });
});

describe('docs/error-codes.md', () => {
  it('shows the table exactly as the catalogue generates it (node tools/error-codes-table.mjs)', () => {
    const doc = readFileSync(join(root, 'docs/error-codes.md'), 'utf8');

    expect(doc).toContain(`${errorCodesMarkdown()}\n`);
    expect(doc.match(/^\| \d{3} \|/gm)?.length).toBe(ERROR_CODES.length);
  });
});
