# One image for all three apps; the compose file (or the orchestrator) names the app as the command.
# Its base image is the project's Node release: package.json's engines, .nvmrc and CI (.ci/provision-node
# reads the version here) follow it, and tools/deployment.spec.ts keeps them in step.
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# Each library of libs/shared is a workspace package; their manifests first, so npm ci is cached apart.
COPY libs/shared/platform/package.json libs/shared/platform/package.json
COPY libs/shared/identity/package.json libs/shared/identity/package.json
COPY libs/shared/api-keys/package.json libs/shared/api-keys/package.json
COPY libs/shared/events/package.json libs/shared/events/package.json
COPY libs/shared/warehouse/package.json libs/shared/warehouse/package.json
COPY libs/shared/ingest/package.json libs/shared/ingest/package.json
COPY libs/shared/webhooks/package.json libs/shared/webhooks/package.json
COPY libs/shared/overview/package.json libs/shared/overview/package.json
COPY libs/shared/setup/package.json libs/shared/setup/package.json
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json ./
COPY libs/shared libs/shared
COPY apps apps
# The admin portal is static files the gateway serves; its build tools are dev dependencies, pruned after.
RUN npx vite build apps/admin-portal --logLevel warn
RUN npx tsc -b && npm prune --omit=dev --no-audit --no-fund

FROM node:24.21.0-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/libs/shared/platform/package.json ./libs/shared/platform/package.json
COPY --from=build /app/libs/shared/platform/dist ./libs/shared/platform/dist
COPY --from=build /app/libs/shared/identity/package.json ./libs/shared/identity/package.json
COPY --from=build /app/libs/shared/identity/dist ./libs/shared/identity/dist
COPY --from=build /app/libs/shared/api-keys/package.json ./libs/shared/api-keys/package.json
COPY --from=build /app/libs/shared/api-keys/dist ./libs/shared/api-keys/dist
COPY --from=build /app/libs/shared/events/package.json ./libs/shared/events/package.json
COPY --from=build /app/libs/shared/events/dist ./libs/shared/events/dist
COPY --from=build /app/libs/shared/warehouse/package.json ./libs/shared/warehouse/package.json
COPY --from=build /app/libs/shared/warehouse/dist ./libs/shared/warehouse/dist
COPY --from=build /app/libs/shared/ingest/package.json ./libs/shared/ingest/package.json
COPY --from=build /app/libs/shared/ingest/dist ./libs/shared/ingest/dist
COPY --from=build /app/libs/shared/webhooks/package.json ./libs/shared/webhooks/package.json
COPY --from=build /app/libs/shared/webhooks/dist ./libs/shared/webhooks/dist
COPY --from=build /app/libs/shared/overview/package.json ./libs/shared/overview/package.json
COPY --from=build /app/libs/shared/overview/dist ./libs/shared/overview/dist
COPY --from=build /app/libs/shared/setup/package.json ./libs/shared/setup/package.json
COPY --from=build /app/libs/shared/setup/dist ./libs/shared/setup/dist
COPY --from=build /app/apps/gateway/dist ./apps/gateway/dist
COPY --from=build /app/apps/admin-portal/dist ./apps/admin-portal/dist
COPY --from=build /app/apps/ingest-worker/dist ./apps/ingest-worker/dist
COPY --from=build /app/apps/webhook-worker/dist ./apps/webhook-worker/dist
# The launcher, and the operator's `npm run wms -- users unlock|reset-password <email>`.
COPY tools/entrypoint.sh tools/start.mjs tools/wms.mjs ./tools/
USER node
EXPOSE 3000
# entrypoint.sh sizes the heap for the container (NODE_MAX_OLD_SPACE_MB, docs/runtime.md) and runs start.mjs,
# which migrates (under an advisory lock, so replicas may start together), seeds, then runs the app named.
ENTRYPOINT ["sh", "tools/entrypoint.sh"]
CMD ["gateway"]
