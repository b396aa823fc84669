# One image for all three apps; the compose file (or the orchestrator) picks the app with the command.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs/shared/package.json libs/shared/package.json
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json ./
COPY libs/shared libs/shared
COPY apps apps
# The admin portal is static files the gateway serves; its build tools are dev dependencies, pruned after.
RUN npx vite build apps/admin-portal --logLevel warn
RUN npx tsc -b && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/libs/shared/package.json ./libs/shared/package.json
COPY --from=build /app/libs/shared/dist ./libs/shared/dist
COPY --from=build /app/apps/gateway/dist ./apps/gateway/dist
COPY --from=build /app/apps/admin-portal/dist ./apps/admin-portal/dist
COPY --from=build /app/apps/ingest-worker/dist ./apps/ingest-worker/dist
COPY --from=build /app/apps/webhook-worker/dist ./apps/webhook-worker/dist
COPY tools/start.mjs tools/node-flags.mjs ./tools/
USER node
EXPOSE 3000
# start.mjs migrates (under an advisory lock, so replicas may start together), seeds, then runs the app; the
# gateway's V8 flags are those of tools/node-flags.mjs (compose sets them as NODE_OPTIONS).
CMD ["node", "--max-semi-space-size=8", "tools/start.mjs", "gateway"]
