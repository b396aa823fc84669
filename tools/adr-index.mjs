#!/usr/bin/env node
// Writes docs/adr/README.md whole from the records: each record's title (its first line, `# NNNN. Title`) and
// its `Summary:` line, or else the first sentence of its Decision. A record that has a `Superseded by NNNN`
// line says so in the index. Run after adding or changing a record:  node tools/adr-index.mjs
// (tools/adr-index.spec.ts fails while the index differs from what this writes). Before writing, a record
// without a `Summary:` line adopts the line the index had for it (hand-written rows of merged branches keep
// their words); a row cut short is not adopted.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ADR_DIR = fileURLToPath(new URL('../docs/adr/', import.meta.url));
export const INDEX_FILE = `${ADR_DIR}README.md`;
/** A summary longer than this is its first sentence cut at a word, with an ellipsis. */
const MAX_SUMMARY = 240;

const HEADER = `# Architecture decision records

One decision per record: its context, the decision, and its consequences. A changed decision gets a new
record that names the one it supersedes, and the older record gets a \`Superseded by NNNN\` line. Numbers
0001–0099 hold the decisions the service was built on; later decisions take 0100 and up. How to measure,
and where the figures are kept, are in [../benchmarks.md](../benchmarks.md).

This index is generated from the records (their title and \`Summary:\` line): after adding or changing a
record, run \`node tools/adr-index.mjs\`; a test fails while it differs.

| number | decision | in one line |
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

/** One record: its number, title, file, one-line summary, and the record superseding it if any. */
export function readRecord(file, text) {
  const [heading = '', ...rest] = text.split('\n');
  const title = /^#\s+(\d{4})\.?\s+(.*)$/.exec(heading);
  if (!title) throw new Error(`${file}: the first line is not "# NNNN. Title"`);
  const summaryLine = rest.find((line) => line.startsWith('Summary: '));
  const decision = text.split(/\n(?=## )/).find((section) => section.startsWith('## Decision')) ?? '';
  const firstParagraph =
    decision
      .replace(/^## Decision.*\n/, '')
      .trim()
      .split(/\n\s*\n|\n(?=[-*] )/)[0] ?? '';
  const supersededBy = /^Superseded by \[?(\d{4})/m.exec(text)?.[1];
  return {
    number: title[1],
    title: oneLine(title[2]),
    file,
    summary: summaryLine ? oneLine(summaryLine.slice('Summary: '.length)) : firstSentence(firstParagraph),
    supersededBy,
  };
}

export function renderIndex(records) {
  const byNumber = new Map(records.map((record) => [record.number, record]));
  const rows = records.map((record) => {
    const successor = record.supersededBy && byNumber.get(record.supersededBy);
    const superseded = successor ? ` Superseded by [${successor.number}](${successor.file}).` : '';
    const cell = `${record.summary}${superseded}`.replace(/\|/g, '\\|');
    return `| ${record.number} | [${record.title.replace(/\|/g, '\\|')}](${record.file}) | ${cell} |`;
  });
  return `${HEADER}${rows.join('\n')}\n`;
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
    const summary = row[2].replace(/ Superseded by \[\d{4}\]\(.*?\)\.$/, '').replace(/\\\|/g, '|');
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
