export { default, default as WebhooksPage } from './WebhooksPage';
export { default as CreateWebhookPage } from './CreateWebhookPage';
export { default as WebhookDetailPage } from './WebhookDetailPage';
export { default as EditWebhookPage } from './EditWebhookPage';
