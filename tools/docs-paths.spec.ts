import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

// Every repository path the docs name exists: README.md, docs/**/*.md and libs/**/README.md, their links and
// their backticked or bare paths under a top-level folder of the repository. A moved or deleted file fails
// here, naming the doc and the path, instead of leaving a newcomer to find out.
const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);
const folders = new Set(
  tracked.flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, at, parts) => parts.slice(0, at + 1).join('/')),
  ),
);
const files = new Set(tracked);
const topLevel = new Set(tracked.filter((file) => file.includes('/')).map((file) => file.split('/')[0]!));

/** Paths a doc may name that git never holds: written by the operator or at run time, never committed. */
const NEVER_IN_GIT = new Set(['deploy/kubernetes/overlays/production/secrets.env']);

const docs = tracked.filter(
  (file) =>
    file === 'README.md' ||
    (file.startsWith('docs/') && file.endsWith('.md')) ||
    (file.startsWith('libs/') && file.endsWith('/README.md')),
);

/** Whether `path` (relative to the repository, maybe a glob with `*`, maybe ending in `/`) exists. */
function exists(path: string): boolean {
  const plain = path.replace(/\/$/, '');
  if (NEVER_IN_GIT.has(plain)) return true;
  if (!plain.includes('*')) return files.has(plain) || folders.has(plain);
  const pattern = new RegExp(`^${plain.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
  return [...files, ...folders].some((candidate) => pattern.test(candidate));
}

/** A placeholder or an example, not a path: `<app>`, `NNNN`, `…`, `{id}`, `$VAR`. */
const placeholder = (path: string) => /[<>…{}$]|NNNN|YYYY/.test(path);

/** The repository paths `doc` names: link targets (relative to the doc) and paths under a top-level folder. */
function namedPaths(doc: string, text: string): string[] {
  const paths = new Set<string>();
  const prose = text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
  for (const [, target] of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z+.-]*:|^#|^\/\//i.test(target!)) continue;
    const path = normalize(join(dirname(doc), decodeURIComponent(target!.split('#')[0]!)));
    if (!placeholder(path)) paths.add(relative('.', path) || '.');
  }
  for (const [, candidate] of prose.matchAll(/(?<![\w./@-])((?:\.[\w-]+|[\w-]+)\/[\w./@*…<>{}$-]*[\w*/…>}])/g)) {
    const path = candidate!.replace(/^\.\//, '').replace(/:\d+$/, '');
    if (topLevel.has(path.split('/')[0]!) && !placeholder(path) && !path.includes('//')) paths.add(path);
  }
  return [...paths];
}

describe('the paths the docs name', () => {
  it('reads README.md, docs/**/*.md and libs/**/README.md', () => {
    expect(docs).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'libs/shared/README.md']));
  });

  it.each(docs)('%s names only paths that exist', (doc) => {
    const missing = namedPaths(doc, readFileSync(join(root, doc), 'utf8')).filter((path) => !exists(path));

    expect(missing.map((path) => `${doc}: ${path}`)).toEqual([]);
  });

  it('sees links, backticked and bare paths, and leaves placeholders, URLs and anchors alone', () => {
    const text = [
      'See [the index](adr/README.md#areas), `tools/adr-index.mjs`, libs/shared/README.md and `apps/nothing.ts`.',
      'Cut short, not a path: docs/adr/0029-… and apps/<app>/main.ts.',
      'Not paths: [site](https://example.com), [top](#top), `docs/adr/NNNN-title.md`, `apps/<app>/src`.',
      '```\nnpm run x -- tools/ignored-in-code-blocks.ts\n```',
    ].join('\n');

    expect(namedPaths('docs/example.md', text).sort()).toEqual(
      ['apps/nothing.ts', 'docs/adr/README.md', 'libs/shared/README.md', 'tools/adr-index.mjs'].sort(),
    );
    expect(exists('tools/adr-index.mjs')).toBe(true);
    expect(exists('apps/nothing.ts')).toBe(false);
    expect(exists('libs/shared/*/package.json')).toBe(true);
  });
});
