import { readFileSync } from 'node:fs';
import { INDEX_FILE, firstSentence, generateIndex, readRecord } from './adr-index.mjs';

describe('the ADR index', () => {
  it('is what tools/adr-index.mjs generates from the records (run it after adding a record)', () => {
    const written = readFileSync(INDEX_FILE, 'utf8');

    expect(written).toBe(generateIndex());
  });

  it('cuts no summary in the middle of a word', () => {
    const rows = generateIndex()
      .split('\n')
      .filter((line) => /^\| \d{4} \|/.test(line));

    const unfinished = rows.filter((row) => !/[.!?)`…] \|$/.test(row));

    expect(rows.length).toBeGreaterThan(0);
    expect(unfinished).toEqual([]);
  });

  it('summarises a record without a Summary line by the first sentence of its decision, cut at a word', () => {
    const long = `${'word '.repeat(80)}end.`;
    const record = readRecord(
      '0999-example.md',
      `# 0999 An example\n\n## Context\nWhy.\n\n## Decision\nDo the thing. Then more.\n\n## Consequences\nNone.\n`,
    );

    expect(record).toMatchObject({ number: '0999', title: 'An example', summary: 'Do the thing.' });
    expect(firstSentence(long)).toMatch(/^(word )+word…$/);
  });

  it('names the record that supersedes an older one', () => {
    const index = generateIndex();

    expect(index).toMatch(/\| 0003 \| .* Superseded by \[0165\]\(0165-libraries-by-layer\.md\)\. \|/);
  });
});
