export { ApiKeysService, MISSING_API_KEY, INVALID_API_KEY, MISSING_SCOPE } from './api-keys.service.js';
export { ApiKeysRepository, toArrayLiteral } from './api-keys.repository.js';
export { generateRawKey, isWellFormedKey, hashKey, displayPrefix, API_KEY_PREFIX, API_KEY_LENGTH, KEY_PREFIX_LENGTH } from './key-format.js';
export { hasScope, type ApiKeyRecord, type CreatedApiKey, type ApiKeyInput, type ApiKeyPrincipal, type ApiKeyScope } from './api-key.types.js';
