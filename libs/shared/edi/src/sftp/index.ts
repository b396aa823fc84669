export { SftpHostKeysRepository } from './sftp-host-keys.repository.js';
