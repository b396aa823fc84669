import { configVariables } from './config.schema.js';

function defaultOf(name: string): string {
  const spec = configVariables[name as keyof typeof configVariables];
  const described = spec.schema.describe() as { flags?: { default?: unknown; presence?: string } };
  if (described.flags?.presence === 'required') return '(required)';
  const value = described.flags?.default;
  return value === undefined ? '(unset)' : `\`${String(value)}\``;
}

/** The README's configuration table, generated from the schema so the two cannot drift apart. */
export function configTableMarkdown(): string {
  const rows = Object.entries(configVariables).map(
    ([name, spec]) => `| \`${name}\` | ${defaultOf(name)} | ${spec.description} |`,
  );
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
