/** The ADR index generator (tools/adr-index.mjs). */
export declare const ADR_DIR: string;
export declare const INDEX_FILE: string;
export declare const AREAS: Record<
  'platform' | 'access' | 'ingest' | 'warehouse' | 'webhooks' | 'operations' | 'quality',
  string
>;
export interface AdrRecord {
  number: string;
  title: string;
  file: string;
  area: string;
  summary: string;
}
export declare function firstSentence(text: string): string;
export declare function readRecord(file: string, text: string): AdrRecord;
export declare function renderIndex(records: AdrRecord[]): string;
export declare function generateIndex(dir?: string): string;
