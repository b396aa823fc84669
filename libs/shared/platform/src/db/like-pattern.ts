/** An ILIKE pattern for "contains": `%`, `_` and `\` in what a reader types match themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
