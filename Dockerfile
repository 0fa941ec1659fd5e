# syntax=docker/dockerfile:1
# proxy-migrate: multi-stage build; the runtime image holds production dependencies and the
# compiled JavaScript only, and runs as the unprivileged `node` user. The cluster twin is a
# workspace package (packages/twin): built here too, linked from node_modules like any dependency.
# CI builds and runs the tests on this Node major too (.ci/run reads it from here).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/twin/package.json ./packages/twin/
RUN npm ci --ignore-scripts
COPY tsconfig.base.json tsconfig.json tsconfig.build.json ./
COPY packages/twin/tsconfig.json packages/twin/tsconfig.build.json ./packages/twin/
COPY packages/twin/src ./packages/twin/src
COPY src ./src
RUN npm run build && chmod +x dist/main.js

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/twin/package.json ./packages/twin/
# Optional native accelerators (msgpackr-extract) are skipped; their pure-JS fallbacks are used.
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/packages/twin/dist ./packages/twin/dist
COPY package.json ./
COPY packages/twin/package.json ./packages/twin/
COPY packages/twin/scenarios ./packages/twin/scenarios
RUN ln -s /app/dist/main.js /usr/local/bin/proxy-migrate
USER node
EXPOSE 3000
ENTRYPOINT ["proxy-migrate"]
CMD ["bot"]
