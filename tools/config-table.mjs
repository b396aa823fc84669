#!/usr/bin/env node
// Writes the README's configuration table from the config schema (the single source of truth), in place
// of the table that is there. `npm test` checks that README.md contains exactly this table.
// Run after changing the schema (needs the built lib: `npx tsc -b` first):  node tools/config-table.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { configTableMarkdown } from '@wms/platform';

const file = new URL('../README.md', import.meta.url);
const readme = readFileSync(file, 'utf8');
const table = /^\| variable \| default \| meaning \|\n(?:\|.*\|\n?)*/m;
if (!table.test(readme)) throw new Error('README.md has no configuration table to replace');
writeFileSync(file, readme.replace(table, `${configTableMarkdown()}\n`));
console.log('README.md: configuration table written');
