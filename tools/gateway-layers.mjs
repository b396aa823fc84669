#!/usr/bin/env node
// Draws the gateway's folders and which imports which (a Mermaid graph) into docs/architecture.md, between
// its two gateway-layers markers, from the sources' relative imports (specs left out). Run after an import
// between the gateway's folders appears or goes:  node tools/gateway-layers.mjs
// (tools/gateway-layers.spec.ts fails while the drawing differs from what this writes).
import { globSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GATEWAY = 'apps/gateway/src';
export const ARCHITECTURE_FILE = fileURLToPath(new URL('../docs/architecture.md', import.meta.url));
export const START_MARKER = '<!-- gateway-layers:start (node tools/gateway-layers.mjs writes this drawing) -->';
export const END_MARKER = '<!-- gateway-layers:end -->';

/**
 * The gateway's parts, lowest first (docs/adr/0064-gateway-request-path.md): a part imports only parts
 * below it. A folder is its name, a file at the gateway's root its file name.
 */
export const LAYERS = ['services.ts', 'http', 'integration', 'routes', 'admin-openapi', 'app.ts', 'main.ts'];

const CAPTIONS = {
  'services.ts': 'services.ts: the service graph',
  http: 'http/: the edge',
  integration: 'integration/: the integration API',
  routes: 'routes/: the admin API',
  'admin-openapi': "admin-openapi/: the admin API's document",
  'app.ts': 'app.ts: the wiring',
  'main.ts': 'main.ts: start and stop',
};

const FROM = /\bfrom\s+'(\.\.?\/[^']+)'/g;

/** The part of the gateway a path inside it (`http/body.js`, `app.ts`) belongs to. */
const partOf = (path) => (path.includes('/') ? path.split('/')[0] : path.replace(/\.js$/, '.ts'));

/** Every import from one part of the gateway to another, as `[from, to]` pairs, once each, in LAYERS order. */
export function gatewayImports() {
  const pairs = new Set();
  for (const file of globSync([`${GATEWAY}/*.ts`, `${GATEWAY}/*/*.ts`], { cwd: ROOT })) {
    if (file.endsWith('.spec.ts')) continue;
    const from = partOf(posix.relative(GATEWAY, file));
    for (const match of readFileSync(`${ROOT}${file}`, 'utf8').matchAll(FROM)) {
      const to = partOf(posix.relative(GATEWAY, posix.join(dirname(file), match[1])));
      if (to !== from) pairs.add(`${from}\n${to}`);
    }
  }
  const rank = (part) => (LAYERS.includes(part) ? LAYERS.indexOf(part) : LAYERS.length);
  return [...pairs]
    .map((pair) => pair.split('\n'))
    .sort(([a, b], [c, d]) => rank(c) - rank(a) || rank(d) - rank(b) || `${a} ${b}`.localeCompare(`${c} ${d}`));
}

const nodeId = (part) => part.replace(/\.ts$/, '').replace(/-(\w)/g, (_, letter) => letter.toUpperCase());

/** The section's body: the drawing in a Mermaid block, the highest part on top. */
export function renderDrawing(imports) {
  const parts = LAYERS.filter((part) => imports.some((pair) => pair.includes(part)));
  const nodes = [...parts].reverse().map((part) => `  ${nodeId(part)}["${CAPTIONS[part]}"]`);
  const arrows = imports.map(([from, to]) => `  ${nodeId(from)} --> ${nodeId(to)}`);
  return ['```mermaid', 'flowchart TD', ...nodes, ...arrows, '```'].join('\n');
}

/** `text` with the drawing between its markers written anew. */
export function withDrawing(text, drawing) {
  const start = text.indexOf(START_MARKER);
  const end = text.indexOf(END_MARKER);
  if (start === -1 || end < start) throw new Error(`docs/architecture.md: no "${START_MARKER}" … "${END_MARKER}"`);
  return `${text.slice(0, start + START_MARKER.length)}\n\n${drawing}\n\n${text.slice(end)}`;
}

/** docs/architecture.md as this tool writes it. */
export function generateArchitecture() {
  return withDrawing(readFileSync(ARCHITECTURE_FILE, 'utf8'), renderDrawing(gatewayImports()));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(ARCHITECTURE_FILE, generateArchitecture());
  console.log("docs/architecture.md: the gateway's folders drawn");
}
