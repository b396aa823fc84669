#!/usr/bin/env node
// Prints the README's configuration table from the config schema (the single source of truth).
// `npm test` checks that README.md contains exactly this table.
import { configTableMarkdown } from '@wms/shared';

console.log(configTableMarkdown());
