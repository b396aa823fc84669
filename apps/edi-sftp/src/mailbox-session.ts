import ssh2, { type Attributes, type FileEntry, type SFTPWrapper } from 'ssh2';
import { isAppError, type Logger } from '@wms/platform';
import {
  MAILBOX_FOLDERS,
  type EdiInbox,
  type MailboxFile,
  type MailboxRepository,
  type PartnersRepository,
} from '@wms/edi';
import { entry, fileAttributes, folderAttributes, rootAttributes } from './attributes.js';
import { locate, type Location } from './paths.js';
import { UploadBuffer } from './upload-buffer.js';

const { OPEN_MODE, STATUS_CODE } = ssh2.utils.sftp;

/** Entries per READDIR answer: a name, its `ls -l` line and its attributes must fit one SFTP packet. */
const ENTRIES_PER_READ = 32;
/** The most bytes one READ answers with; a client asks again for the rest. */
const MAX_READ_BYTES = 32 * 1024;
/** Uploads one session may hold open at once: each is buffered (up to EDI_SFTP_MAX_FILE_BYTES) until closed. */
export const MAX_OPEN_UPLOADS_PER_SESSION = 4;

/** Who is signed in on this session: its partner comes from the login, never from a path. */
export interface SessionPartner {
  partnerId: string;
  username: string;
}

export interface MailboxSessionDeps {
  mailbox: MailboxRepository;
  partners: PartnersRepository;
  inbox: EdiInbox;
  maxFileBytes: number;
  logger: Logger;
  /** Names being uploaded in this process (partner id / name), so two sessions cannot write one name at once. */
  uploading: Set<string>;
  /** Holds a stored upload's hand-over until it is done, so a graceful stop waits for it. */
  track<T>(work: Promise<T>): Promise<T>;
}

type Handle =
  | { kind: 'dir'; entries: FileEntry[] }
  | { kind: 'read'; file: MailboxFile; content: Buffer }
  | { kind: 'write'; name: string; upload: UploadBuffer; openedAt: Date };

/** A status a request is answered with, thrown from inside a handler. */
class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const denied = (message: string) => new Refusal(STATUS_CODE.PERMISSION_DENIED, message);
const noSuchFile = () => new Refusal(STATUS_CODE.NO_SUCH_FILE, 'No such file');
const failure = (message: string) => new Refusal(STATUS_CODE.FAILURE, message);

/**
 * One partner's mailbox over the SFTP subsystem: the root lists `in`, `out`, `archive`; an upload goes to
 * in/ only and is handed to the EDI inbox when the client closes it (before that nothing is stored, so a cut
 * upload leaves nothing); out/ and archive/ are read, removed, and moved from out/ to archive/.
 */
export function serveMailbox(sftp: SFTPWrapper, partner: SessionPartner, deps: MailboxSessionDeps): void {
  const { mailbox, logger } = deps;
  const handles = new Map<number, Handle>();
  let nextHandle = 1;
  const sessionStart = new Date();

  const open = (handle: Handle): Buffer => {
    const id = nextHandle++;
    handles.set(id, handle);
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32BE(id);
    return buffer;
  };
  const handleOf = (buffer: Buffer): [number, Handle] => {
    const id = buffer.length === 4 ? buffer.readUInt32BE() : -1;
    const handle = handles.get(id);
    if (!handle) throw failure('Invalid handle');
    return [id, handle];
  };

  /** Runs a request's handler; a refusal is its status, anything else a failure whose detail stays in the log. */
  const serve = (request: string, reqId: number, work: () => Promise<void> | void) => {
    Promise.resolve()
      .then(work)
      .catch((error: unknown) => {
        if (error instanceof Refusal) return sftp.status(reqId, error.code, error.message);
        logger.error({ err: error, request, partnerId: partner.partnerId }, 'edi-sftp: request failed');
        sftp.status(reqId, STATUS_CODE.FAILURE, 'The request failed; try again');
      });
  };

  const attributesOf = async (location: Location): Promise<Attributes> => {
    if (location.kind === 'root') return rootAttributes(sessionStart);
    if (location.kind === 'folder') return folderAttributes(sessionStart);
    if (location.kind === 'none') throw noSuchFile();
    const file = await mailbox.find(partner.partnerId, location.folder, location.name);
    if (!file) throw noSuchFile();
    return fileAttributes(file);
  };

  sftp.on('REALPATH', (reqId, path) =>
    serve('REALPATH', reqId, () => {
      const { path: normal } = locate(path);
      sftp.name(reqId, [{ filename: normal, longname: normal, attrs: {} as Attributes }]);
    }),
  );

  const stat = (request: string) => (reqId: number, path: string) =>
    serve(request, reqId, async () => sftp.attrs(reqId, await attributesOf(locate(path))));
  sftp.on('STAT', stat('STAT'));
  sftp.on('LSTAT', stat('LSTAT'));

  sftp.on('FSTAT', (reqId, buffer) =>
    serve('FSTAT', reqId, () => {
      const [, handle] = handleOf(buffer);
      if (handle.kind === 'dir') return sftp.attrs(reqId, folderAttributes(sessionStart));
      if (handle.kind === 'read') return sftp.attrs(reqId, fileAttributes(handle.file));
      sftp.attrs(reqId, fileAttributes({ folder: 'in', sizeBytes: handle.upload.size, updatedAt: handle.openedAt }));
    }),
  );

  sftp.on('OPENDIR', (reqId, path) =>
    serve('OPENDIR', reqId, async () => {
      const location = locate(path);
      if (location.kind === 'root') {
        const attrs = folderAttributes(sessionStart);
        return sftp.handle(
          reqId,
          open({ kind: 'dir', entries: MAILBOX_FOLDERS.map((name) => entry(name, attrs, partner.username)) }),
        );
      }
      if (location.kind === 'file') throw failure('Not a directory');
      if (location.kind === 'none') throw noSuchFile();
      const files = await mailbox.list(partner.partnerId, location.folder);
      const entries = files.map((file) => entry(file.name, fileAttributes(file), partner.username));
      sftp.handle(reqId, open({ kind: 'dir', entries }));
    }),
  );

  sftp.on('READDIR', (reqId, buffer) =>
    serve('READDIR', reqId, () => {
      const [, handle] = handleOf(buffer);
      if (handle.kind !== 'dir') throw failure('Not a directory handle');
      if (handle.entries.length === 0) return sftp.status(reqId, STATUS_CODE.EOF);
      sftp.name(reqId, handle.entries.splice(0, ENTRIES_PER_READ));
    }),
  );

  sftp.on('OPEN', (reqId, path, flags) =>
    serve('OPEN', reqId, async () => {
      const location = locate(path);
      const writing = (flags & (OPEN_MODE.WRITE | OPEN_MODE.APPEND | OPEN_MODE.CREAT | OPEN_MODE.TRUNC)) !== 0;
      if (location.kind !== 'file') throw location.kind === 'none' ? noSuchFile() : failure('Is a directory');
      if (writing) return sftp.handle(reqId, open(await startUpload(location)));
      if (location.folder === 'in') throw denied('Files in in/ are not read back; see archive/ once read');
      const file = await mailbox.find(partner.partnerId, location.folder, location.name);
      if (!file) throw noSuchFile();
      const content = await mailbox.content(file.id);
      if (!content) throw noSuchFile();
      sftp.handle(reqId, open({ kind: 'read', file, content }));
    }),
  );

  const startUpload = async (location: Extract<Location, { kind: 'file' }>): Promise<Handle> => {
    if (location.folder !== 'in') throw denied('Files are sent to in/; out/ and archive/ are ours to write');
    const openUploads = [...handles.values()].filter((handle) => handle.kind === 'write').length;
    if (openUploads >= MAX_OPEN_UPLOADS_PER_SESSION)
      throw failure(`At most ${MAX_OPEN_UPLOADS_PER_SESSION} uploads may be open at once; close one first`);
    const key = `${partner.partnerId}/${location.name}`;
    if (deps.uploading.has(key) || (await mailbox.find(partner.partnerId, 'in', location.name)))
      throw failure(`in/${location.name} exists; send the file under a new name`);
    deps.uploading.add(key);
    return { kind: 'write', name: location.name, upload: new UploadBuffer(deps.maxFileBytes), openedAt: new Date() };
  };

  sftp.on('READ', (reqId, buffer, offset, length) =>
    serve('READ', reqId, () => {
      const [, handle] = handleOf(buffer);
      if (handle.kind !== 'read') throw denied('The handle is not open for reading');
      if (offset >= handle.content.length) return sftp.status(reqId, STATUS_CODE.EOF);
      sftp.data(reqId, handle.content.subarray(offset, offset + Math.min(length, MAX_READ_BYTES)));
    }),
  );

  sftp.on('WRITE', (reqId, buffer, offset, data) =>
    serve('WRITE', reqId, () => {
      const [, handle] = handleOf(buffer);
      if (handle.kind !== 'write') throw denied('The handle is not open for writing');
      if (!handle.upload.write(offset, data))
        throw failure(`The file exceeds the limit of ${deps.maxFileBytes} bytes; nothing of it is stored`);
      sftp.status(reqId, STATUS_CODE.OK);
    }),
  );

  sftp.on('CLOSE', (reqId, buffer) =>
    serve('CLOSE', reqId, async () => {
      const [id, handle] = handleOf(buffer);
      handles.delete(id);
      if (handle.kind === 'write') {
        try {
          await deps.track(complete(handle));
        } finally {
          deps.uploading.delete(`${partner.partnerId}/${handle.name}`);
        }
      }
      sftp.status(reqId, STATUS_CODE.OK);
    }),
  );

  /** A closed upload is complete: its bytes go to the inbox, which stores them before the client hears OK. */
  const complete = async (handle: Extract<Handle, { kind: 'write' }>): Promise<void> => {
    if (handle.upload.exceeded)
      throw failure(`The file exceeds the limit of ${deps.maxFileBytes} bytes; nothing of it is stored`);
    const current = await deps.partners.find(partner.partnerId);
    if (!current || current.status !== 'active') throw denied('The trading partner is disabled');
    try {
      const interchange = await deps.inbox.receive(current, {
        source: 'sftp',
        fileName: handle.name,
        content: handle.upload.content(),
      });
      logger.info(
        {
          partnerId: partner.partnerId,
          interchangeId: interchange.id,
          fileName: handle.name,
          bytes: handle.upload.size,
        },
        'edi-sftp: file received',
      );
    } catch (error) {
      // A refusal of the inbox (4xx) is the partner's to read; anything else is ours, logged with its detail.
      if (isAppError(error) && error.status < 500) throw failure(error.message);
      throw error;
    }
  };

  sftp.on('REMOVE', (reqId, path) =>
    serve('REMOVE', reqId, async () => {
      const location = locate(path);
      if (location.kind !== 'file') throw location.kind === 'none' ? noSuchFile() : denied('Folders stay');
      if (location.folder === 'in') throw denied('Files in in/ are ours once sent');
      if (!(await mailbox.remove(partner.partnerId, location.folder, location.name))) throw noSuchFile();
      sftp.status(reqId, STATUS_CODE.OK);
    }),
  );

  sftp.on('RENAME', (reqId, fromPath, toPath) =>
    serve('RENAME', reqId, async () => {
      const from = locate(fromPath);
      const to = locate(toPath);
      if (from.kind === 'none') throw noSuchFile();
      if (from.kind !== 'file' || from.folder !== 'out' || to.kind !== 'file' || to.folder !== 'archive')
        throw denied('A file is moved from out/ to archive/ only');
      const moved = await mailbox.move(
        partner.partnerId,
        { folder: from.folder, name: from.name },
        { folder: to.folder, name: to.name },
      );
      if (moved) return sftp.status(reqId, STATUS_CODE.OK);
      if (!(await mailbox.find(partner.partnerId, from.folder, from.name))) throw noSuchFile();
      throw failure(`archive/${to.name} exists`);
    }),
  );

  const refuseFolders = (request: string, message: string) => (reqId: number) =>
    serve(request, reqId, () => {
      throw denied(message);
    });
  sftp.on('MKDIR', refuseFolders('MKDIR', 'The folders are in/, out/ and archive/ only'));
  sftp.on('RMDIR', refuseFolders('RMDIR', 'The folders are in/, out/ and archive/ only'));

  // A file's times and modes are ours: a client that sets them after an upload is told OK and nothing changes.
  sftp.on('SETSTAT', (reqId, path) =>
    serve('SETSTAT', reqId, async () => {
      const location = locate(path);
      if (location.kind !== 'file') throw location.kind === 'none' ? noSuchFile() : denied('Folders stay as they are');
      await attributesOf(location);
      sftp.status(reqId, STATUS_CODE.OK);
    }),
  );
  sftp.on('FSETSTAT', (reqId, buffer) =>
    serve('FSETSTAT', reqId, () => {
      const [, handle] = handleOf(buffer);
      if (handle.kind === 'dir') throw denied('Folders stay as they are');
      sftp.status(reqId, STATUS_CODE.OK);
    }),
  );

  const unsupported = (request: string) => (reqId: number) =>
    serve(request, reqId, () => {
      throw new Refusal(STATUS_CODE.OP_UNSUPPORTED, 'Links are not supported');
    });
  sftp.on('READLINK', unsupported('READLINK'));
  sftp.on('SYMLINK', unsupported('SYMLINK'));

  // The client is done (its EOF): the channel is closed from here too, as OpenSSH's client waits for.
  sftp.on('end', () => sftp.end());
  // A session that ends with uploads open stored nothing of them: their bytes go with the handles.
  sftp.on('close', () => {
    for (const handle of handles.values())
      if (handle.kind === 'write') deps.uploading.delete(`${partner.partnerId}/${handle.name}`);
    handles.clear();
  });
}
