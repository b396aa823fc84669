#!/usr/bin/env node
// Writes the table of docs/error-codes.md from the error catalogue (libs/shared/platform/src/errors/error-codes.ts,
// the single source of truth), in place of the table that is there. A spec checks that the file holds exactly
// this table. Run after changing the catalogue (needs the built lib: `npx tsc -b` first):
//   node tools/error-codes-table.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { errorCodesMarkdown } from '@wms/platform';

const file = new URL('../docs/error-codes.md', import.meta.url);
const doc = readFileSync(file, 'utf8');
const table = /^\| status \| code \| meaning \|\n(?:\|.*\|\n?)*/m;
if (!table.test(doc)) throw new Error('docs/error-codes.md has no table of codes to replace');
writeFileSync(file, doc.replace(table, `${errorCodesMarkdown()}\n`));
console.log('docs/error-codes.md: table of error codes written');
