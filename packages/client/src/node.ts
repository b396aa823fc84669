import { openAsBlob } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { clientWith, type ClientOptions } from './client.js';
import { uploadBody, type UploadBody, type UploadOptions, type UploadSource } from './uploads.js';

/**
 * @wms/client/node: the client with Node's own sources for an import. Everything of the main entry, and a
 * `createClient` whose `imports.upload` also takes a file's path (or file: URL), read again for a retry,
 * and a Node stream, sent once.
 */
export * from './index.js';

/** What an import reads in Node: the main entry's sources, a file's path or file: URL, or a Node stream. */
export type NodeUploadSource = UploadSource | string | URL | Readable;

/** A path is opened as a Blob (read lazily, again per attempt); a Node stream becomes a web stream. */
async function nodeUploadBody(source: NodeUploadSource, options: UploadOptions): Promise<UploadBody> {
  if (typeof source === 'string' || source instanceof URL) {
    const path = typeof source === 'string' ? source : fileURLToPath(source);
    return uploadBody(await openAsBlob(path), options, path);
  }
  if (source instanceof Readable) return uploadBody(Readable.toWeb(source) as ReadableStream<Uint8Array>, options);
  return uploadBody(source, options);
}

/** The integration API in one object, uploading from paths and Node streams too. */
export function createClient(options: ClientOptions) {
  return clientWith<NodeUploadSource>(options, nodeUploadBody);
}

export type WmsNodeClient = ReturnType<typeof createClient>;
