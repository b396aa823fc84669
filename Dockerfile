# syntax=docker/dockerfile:1.20
# One image for all four apps; the compose file (or the orchestrator) names the app as the command.
# Its base image is the project's Node release: package.json's engines, .nvmrc and CI (.ci/provision-node
# reads the version here) follow it, and tools/deployment.spec.ts keeps them in step.
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# Each library of libs/shared is a workspace package; their manifests first (COPY --parents keeps their folders),
# so npm ci is cached apart from the sources and a new library needs no line here.
COPY --parents libs/shared/*/package.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json ./
COPY libs/shared libs/shared
COPY apps apps
# The admin portal is static files the gateway serves; its build tools are dev dependencies, pruned after.
RUN npx vite build apps/admin-portal --logLevel warn
RUN npx tsc -b && npm prune --omit=dev --no-audit --no-fund
# A library runs from its manifest and its build: everything else of libs/shared stays in this stage.
RUN find libs/shared -mindepth 2 -maxdepth 2 ! -name package.json ! -name dist ! -name node_modules -exec rm -rf {} +

FROM node:24.21.0-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/libs/shared ./libs/shared
COPY --from=build /app/apps/gateway/dist ./apps/gateway/dist
COPY --from=build /app/apps/admin-portal/dist ./apps/admin-portal/dist
COPY --from=build /app/apps/ingest-worker/dist ./apps/ingest-worker/dist
COPY --from=build /app/apps/webhook-worker/dist ./apps/webhook-worker/dist
COPY --from=build /app/apps/edi-sftp/dist ./apps/edi-sftp/dist
# The launcher, and the operator's `npm run wms -- users unlock|reset-password <email>`.
COPY tools/entrypoint.sh tools/start.mjs tools/wms.mjs ./tools/
USER node
EXPOSE 3000 2222
# entrypoint.sh sizes the heap for the container (NODE_MAX_OLD_SPACE_MB, docs/runtime.md) and runs start.mjs,
# which migrates (under an advisory lock, so replicas may start together), seeds, then runs the app named.
ENTRYPOINT ["sh", "tools/entrypoint.sh"]
CMD ["gateway"]
