export { default as ApiKeysPage } from './ApiKeysPage';
export { default as CreateApiKeyPage } from './CreateApiKeyPage';
export { default as ApiKeyDetailPage } from './ApiKeyDetailPage';
export { default as EditApiKeyPage } from './EditApiKeyPage';
