import { readFileSync } from 'node:fs';
import { AREAS, INDEX_FILE, firstSentence, generateIndex, readRecord, renderIndex } from './adr-index.mjs';

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
      `# 0999 An example\nArea: quality\n\n## Context\nWhy.\n\n## Decision\nDo the thing. Then more.\n\n## Consequences\nNone.\n`,
    );

    expect(record).toMatchObject({ number: '0999', title: 'An example', summary: 'Do the thing.' });
    expect(firstSentence(long)).toMatch(/^(word )+word…$/);
  });

  it("groups the records by area, a table per area in the areas' order, records in number order", () => {
    const record = (number: string, area: string) => ({
      number,
      title: `Record ${number}`,
      file: `${number}-record.md`,
      area,
      summary: 'Holds.',
    });

    const index = renderIndex([record('0001', 'quality'), record('0002', 'platform'), record('0003', 'platform')]);

    const headings = index.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual([`## ${AREAS.platform}`, `## ${AREAS.quality}`]);
    const platform = index.slice(index.indexOf(AREAS.platform), index.indexOf(AREAS.quality));
    expect(platform.match(/^\| \d{4} /gm)).toEqual(['| 0002 ', '| 0003 ']);
  });

  it('refuses a record without a known area, naming it', () => {
    const text = `# 0999. An example\n\nSummary: Holds.\n\n## Decision\nDo it.\n`;

    expect(() => readRecord('0999-example.md', text)).toThrow(/0999-example\.md: no "Area: <platform\|access/);
    expect(() => readRecord('0999-example.md', text.replace('Summary', 'Area: kitchen\nSummary'))).toThrow(
      /0999-example\.md/,
    );
  });

  it("says that a change amends its area's record", () => {
    expect(readFileSync(INDEX_FILE, 'utf8')).toMatch(/A change amends its area's record/);
  });
});
