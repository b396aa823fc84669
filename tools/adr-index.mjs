#!/usr/bin/env node
// Writes docs/adr/README.md whole from the records: a table per area (each record's `Area:` line), a row per
// record with its title (its first line, `# NNNN. Title`) and its `Summary:` line, or else the first
// sentence of its Decision. Run after adding or changing a record:  node tools/adr-index.mjs
// (tools/adr-index.spec.ts fails while the index differs from what this writes). Before writing, a record
// without a `Summary:` line adopts the line the index had for it (hand-written rows of merged branches keep
// their words); a row cut short is not adopted.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ADR_DIR = fileURLToPath(new URL('../docs/adr/', import.meta.url));
export const INDEX_FILE = `${ADR_DIR}README.md`;
/** A summary longer than this is its first sentence cut at a word, with an ellipsis. */
const MAX_SUMMARY = 240;

/** The areas of the product, in the index's order, each with the heading of its table. */
export const AREAS = {
  platform: 'Platform: libraries, processes, answers, Redis',
  access: 'Access: sign-in, users, API keys, the request log',
  ingest: 'Ingest: bulk writes, bulk jobs, file imports',
  warehouse: 'Warehouse: documents, stock, reads, the sandbox',
  webhooks: 'Webhooks: events, subscriptions, delivery',
  edi: 'EDI: X12 trading partners, SFTP and HTTP, acknowledgments',
  operations: 'Operations: logs, metrics, deployment, periodic work, the portal',
  quality: 'Quality: decisions, tests, benchmarks',
};

const HEADER = `# Architecture decision records

One record per area of the product, each with its context, its decisions (a part per decision) and their
consequences, written as the product is now. **A change amends its area's record**: rewrite what holds now
and say in the commit what changed and why; a purely tuning note goes into a code comment where the number
lives; a record whose decisions all moved elsewhere leaves the folder (git keeps it), and every link to it
moves to the record that holds it. A new area takes the next free number ([0001](0001-record-decisions-as-adrs.md)).
How to measure, and where the figures are kept, are in [../benchmarks.md](../benchmarks.md).

This index is generated from the records (their title, \`Summary:\` and \`Area:\` lines): after adding or
changing a record, run \`node tools/adr-index.mjs\`; a test fails while it differs.
`;

const TABLE_HEAD = `| number | decision | in one line |
|---|---|---|
`;

const oneLine = (text) => text.replace(/\s+/g, ' ').trim();

/** The first sentence of `text`, whole when short enough, else cut at the last word that fits. */
export function firstSentence(text) {
  const flat = oneLine(text.replace(/^[-*]\s+/gm, ''));
  const end = flat.search(/[.!?](\s|$)/);
  const sentence = end === -1 ? flat : flat.slice(0, end + 1);
  if (sentence.length <= MAX_SUMMARY) return sentence;
  const cut = sentence.slice(0, MAX_SUMMARY - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ')).replace(/[,;:(\s]+$/, '')}…`;
}

/** One record: its number, title, file, area and one-line summary. */
export function readRecord(file, text) {
  const [heading = '', ...rest] = text.split('\n');
  const title = /^#\s+(\d{4})\.?\s+(.*)$/.exec(heading);
  if (!title) throw new Error(`${file}: the first line is not "# NNNN. Title"`);
  const summaryLine = rest.find((line) => line.startsWith('Summary: '));
  const area = rest
    .find((line) => line.startsWith('Area: '))
    ?.slice('Area: '.length)
    .trim();
  if (!area || !Object.hasOwn(AREAS, area))
    throw new Error(`${file}: no "Area: <${Object.keys(AREAS).join('|')}>" line under the title`);
  const decision = text.split(/\n(?=## )/).find((section) => section.startsWith('## Decision')) ?? '';
  const firstParagraph =
    decision
      .replace(/^## Decision.*\n/, '')
      .trim()
      .split(/\n\s*\n|\n(?=[-*] )/)[0] ?? '';
  return {
    number: title[1],
    title: oneLine(title[2]),
    file,
    area,
    summary: summaryLine ? oneLine(summaryLine.slice('Summary: '.length)) : firstSentence(firstParagraph),
  };
}

export function renderIndex(records) {
  const row = (record) =>
    `| ${record.number} | [${record.title.replace(/\|/g, '\\|')}](${record.file}) | ${record.summary.replace(/\|/g, '\\|')} |`;
  const sections = Object.entries(AREAS)
    .map(([area, heading]) => [heading, records.filter((record) => record.area === area)])
    .filter(([, inArea]) => inArea.length > 0)
    .map(([heading, inArea]) => `## ${heading}\n\n${TABLE_HEAD}${inArea.map(row).join('\n')}\n`);
  return `${HEADER}\n${sections.join('\n')}`;
}

export function generateIndex(dir = ADR_DIR) {
  const files = readdirSync(dir)
    .filter((name) => /^\d{4}-.*\.md$/.test(name))
    .sort();
  return renderIndex(files.map((file) => readRecord(file, readFileSync(`${dir}${file}`, 'utf8'))));
}

/** The index's one-line summaries by record number, for the rows that end a sentence. */
function summariesInIndex(index) {
  const summaries = new Map();
  for (const line of index.split('\n')) {
    const row = /^\| (\d{4}) \| \[.*?\]\(.*?\) \| (.*) \|$/.exec(line);
    if (!row) continue;
    const summary = row[2].replace(/\\\|/g, '|');
    if (/[.!?)`]$/.test(summary)) summaries.set(row[1], summary);
  }
  return summaries;
}

/** Writes the index's summary into each record that has no `Summary:` line yet. */
export function adoptSummaries(index, dir = ADR_DIR) {
  const summaries = summariesInIndex(index);
  for (const file of readdirSync(dir).filter((name) => /^\d{4}-.*\.md$/.test(name))) {
    const text = readFileSync(`${dir}${file}`, 'utf8');
    const summary = summaries.get(file.slice(0, 4));
    if (!summary || /^Summary: /m.test(text)) continue;
    const [heading, ...rest] = text.split('\n');
    writeFileSync(`${dir}${file}`, [heading, '', `Summary: ${summary}`, ...rest].join('\n'));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  adoptSummaries(readFileSync(INDEX_FILE, 'utf8'));
  writeFileSync(INDEX_FILE, generateIndex());
  console.log('docs/adr/README.md: index written');
}
