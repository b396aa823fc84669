import { Transform, type TransformCallback } from 'node:stream';
import type Joi from 'joi';
import { parse as parseCsv } from 'csv-parse';
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { AppError } from '@wms/platform';

/** How a file's rows are written: one JSON entry per line, or CSV with a header row of field names. */
export type ImportFormat = 'ndjson' | 'csv';

/** The file's format by its media type (parameters such as charset ignored), or null for any other. */
export function formatOf(contentType: string | undefined): ImportFormat | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-ndjson' || type === 'application/ndjson' || type === 'application/jsonl') return 'ndjson';
  if (type === 'text/csv') return 'csv';
  return null;
}

/** The field paths an entry schema accepts, nested objects' fields by dotted names (`contact.phone`). */
export function fieldPaths(schema: Joi.ObjectSchema): string[] {
  const paths: string[] = [];
  const walk = (description: Joi.Description, prefix: string) => {
    const keys = (description as { keys?: Record<string, Joi.Description> }).keys ?? {};
    for (const [name, child] of Object.entries(keys)) {
      const path = prefix ? `${prefix}.${name}` : name;
      if (child.type === 'object' && (child as { keys?: object }).keys) walk(child, path);
      else paths.push(path);
    }
  };
  walk(schema.describe(), '');
  return paths;
}

/**
 * Checks a CSV header against the fields an entry accepts: a header that is empty, repeats a column or
 * names a field the entry does not have is refused (400) before anything is stored.
 */
export function checkCsvHeader(columns: string[], accepted: string[]): string[] {
  const names = columns.map((column) => column.trim());
  if (!names.length || names.every((name) => !name))
    throw AppError.validation('The CSV file has no header row of field names');
  const known = new Set(accepted);
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length)
    throw AppError.validation(
      `The CSV header names unknown columns: ${unknown.join(', ')}`,
      unknown.map((name) => ({ path: name, message: `${name} is not a field (fields: ${accepted.join(', ')})` })),
    );
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  if (repeated.length) throw AppError.validation(`The CSV header repeats columns: ${repeated.join(', ')}`);
  return names;
}

/**
 * The entry a CSV record stands for: each column's value at its dotted path; an empty value leaves the
 * field out. Values stay text: the entry schema converts numbers and booleans as it does for JSON.
 */
export function entryFromCsv(columns: string[], values: string[]): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  columns.forEach((column, index) => {
    const value = values[index];
    if (value === undefined || value === '') return;
    const path = column.split('.');
    let target = entry;
    for (const part of path.slice(0, -1)) {
      const next = target[part];
      target = (next && typeof next === 'object' ? next : (target[part] = {})) as Record<string, unknown>;
    }
    target[path[path.length - 1]!] = value;
  });
  return entry;
}

/** The CSV record of an entry, by the uploaded header's columns (the errors file in CSV). */
export function csvValuesOf(columns: string[], values: unknown): string[] {
  return columns.map((_column, index) => (Array.isArray(values) ? String(values[index] ?? '') : ''));
}

/**
 * CSV records as text a spreadsheet opens safely (the errors file): quoted where RFC 4180 needs it, and
 * every cell a spreadsheet would read as a formula (a leading `=`, `+`, `-`, `@`, tab or CR) prefixed
 * with `'` (OWASP's CSV-injection rule). A negative plain number (`-5`) is a number, not a formula: it is
 * written as it was whenever its text is the number's own.
 */
export function spreadsheetCsv(records: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return stringifyCsv(
    records.map((record) => record.map(plainNumberOrText)),
    // Naming the record delimiter turns off quoting of a lone CR or LF in a cell unless asked for again.
    { escape_formulas: true, record_delimiter: 'windows', quote_record_delimiter: true },
  );
}

/** csv-stringify leaves a leading `-` alone on numbers only: a plain number's text goes in as the number. */
function plainNumberOrText(value: string | number): string | number {
  if (typeof value !== 'string' || !/^-\d/.test(value)) return value;
  const number = Number(value);
  return Number.isFinite(number) && String(number) === value ? number : value;
}

/** COPY's text format: backslash, tab, newline and carriage return escaped; NUL (which text cannot hold) as the JSON escape. */
function copyText(value: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[\\\t\n\r\u0000]/.test(value)) return value;
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\\\t\n\r\u0000]/g, (char) => COPY_ESCAPES[char]!);
}

const COPY_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\u0000': '\\\\u0000',
};

/** Output is pushed in pieces of about this many characters: one push per line would cost more than the line. */
const FLUSH_AT = 64 * 1024;

/** Counts the rows given to COPY, refuses more than the limit (413), and batches their text. */
abstract class CopyRows extends Transform {
  rows = 0;
  private pending = '';

  constructor(
    private readonly importId: string,
    private readonly maxRows: number,
    objectMode: boolean,
  ) {
    super({ writableObjectMode: objectMode, readableObjectMode: false });
  }

  protected row(line: number, body: string): void {
    this.rows += 1;
    if (this.rows > this.maxRows)
      throw new AppError('PAYLOAD_TOO_LARGE', `The file holds more than ${this.maxRows} rows (IMPORT_MAX_ROWS)`);
    this.pending += `${this.importId}\t${this.rows}\t${line}\t${copyText(body)}\n`;
    if (this.pending.length >= FLUSH_AT) this.flushPending();
  }

  protected flushPending(): void {
    if (!this.pending) return;
    this.push(this.pending);
    this.pending = '';
  }

  override _flush(callback: TransformCallback): void {
    try {
      this.finish();
      this.flushPending();
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  protected finish(): void {}
}

/** 413 ROW_TOO_LARGE: the line (of the file, from 1) is longer than the limit; the answer names it. */
export function rowTooLarge(line: number, maxRowBytes: number): AppError {
  return new AppError(
    'ROW_TOO_LARGE',
    `Line ${line} is longer than ${maxRowBytes} bytes (IMPORT_MAX_ROW_BYTES); nothing was stored`,
    undefined,
    { line },
  );
}

/**
 * NDJSON bytes to COPY rows: one row per line that is not blank, numbered by its line in the file. Each byte
 * is scanned once: the start of a line still open is kept as the pieces it came in, joined once its end
 * arrives, and a line longer than `maxRowBytes` ends the file (413) as soon as it is.
 */
export class NdjsonCopyRows extends CopyRows {
  private line = 0;
  private open: Buffer[] = [];
  private openBytes = 0;

  constructor(
    importId: string,
    maxRows: number,
    private readonly maxRowBytes: number,
  ) {
    super(importId, maxRows, false);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      let start = 0;
      for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
        this.takeLine(this.closeLine(chunk.subarray(start, end)));
        start = end + 1;
      }
      if (start < chunk.length) this.keepOpen(chunk.subarray(start));
      this.flushPending();
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  protected override finish(): void {
    if (this.openBytes) this.takeLine(this.closeLine(Buffer.alloc(0)));
  }

  private keepOpen(piece: Buffer): void {
    this.assertWithinRow(piece.length);
    this.open.push(piece);
    this.openBytes += piece.length;
  }

  /** The whole text of the line that `end` closes. */
  private closeLine(end: Buffer): string {
    this.assertWithinRow(end.length);
    if (!this.open.length) return end.toString('utf8');
    const text = Buffer.concat([...this.open, end], this.openBytes + end.length).toString('utf8');
    this.open = [];
    this.openBytes = 0;
    return text;
  }

  private assertWithinRow(more: number): void {
    if (this.openBytes + more > this.maxRowBytes) throw rowTooLarge(this.line + 1, this.maxRowBytes);
  }

  private takeLine(text: string): void {
    this.line += 1;
    const body = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (!body.trim()) return;
    this.row(this.line, body);
  }
}

/** Parsed CSV records to COPY rows: the first is the header (checked); each other row is its values as a JSON array. */
export class CsvCopyRows extends CopyRows {
  columns: string[] | null = null;

  constructor(
    importId: string,
    maxRows: number,
    private readonly accepted: string[],
  ) {
    super(importId, maxRows, true);
  }

  override _transform(
    record: { record: string[]; info: { lines: number } },
    _encoding: BufferEncoding,
    callback: TransformCallback,
  ): void {
    try {
      if (!this.columns) this.columns = checkCsvHeader(record.record, this.accepted);
      else this.row(record.info.lines, JSON.stringify(record.record));
      this.flushPending();
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }
}

/** Most fields of one CSV record: more ends the file (413 ROW_TOO_LARGE), however short they are. */
export const CSV_MAX_COLUMNS = 1_024;

/**
 * The CSV parser in front of CsvCopyRows: a record's column count is checked per row, not for the file. A
 * record whose fields hold more than `maxRowBytes`, or that has more than CSV_MAX_COLUMNS fields, ends the file
 * (413) as soon as the parser passes the limit: it never holds more than that of one record.
 */
export function csvParser(maxRowBytes: number): Transform {
  return parseCsv({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
    max_record_size: maxRowBytes,
    // Called once per field, with the field's index in its record; values stay text.
    cast: (value, context) => {
      if (context.index >= CSV_MAX_COLUMNS)
        throw new AppError(
          'ROW_TOO_LARGE',
          `Line ${context.lines} has more than ${CSV_MAX_COLUMNS} fields; nothing was stored`,
          undefined,
          { line: context.lines },
        );
      return value;
    },
  });
}

/** csv-parse's own refusal of a record longer than max_record_size, as the 413 that names its line. */
export function csvRecordTooLarge(error: unknown, maxRowBytes: number): AppError | null {
  const { code, lines } = error as { code?: unknown; lines?: unknown };
  return code === 'CSV_MAX_RECORD_SIZE' ? rowTooLarge(typeof lines === 'number' ? lines : 0, maxRowBytes) : null;
}

/** Counts the body's bytes (after gzip is undone) and refuses more than the limit (413). */
export class ByteLimit extends Transform {
  bytes = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes)
      return callback(
        new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${this.maxBytes} bytes (IMPORT_MAX_BYTES)`),
      );
    callback(null, chunk);
  }
}
