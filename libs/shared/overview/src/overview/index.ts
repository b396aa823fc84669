export {
  OverviewService,
  BUSIEST_KEYS_SHOWN,
  FAILING_SUBSCRIPTIONS_SHOWN,
  type Overview,
  type TrafficSummary,
  type WebhooksSummary,
  type FailingSubscription,
  type QueueDepth,
  type QueueDepthReader,
} from './overview.service.js';
