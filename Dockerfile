# The emulator as an image:
#   docker build -t promo-emulator .
#   docker run --rm -p 4010:4010 -v promo-emulator-data:/data promo-emulator
# `--target tools` is an image with the reference agency, the harness and Chromium; compose.yaml
# runs the three together. test/packaging/docker.test.ts checks this file against the repository.

# Compiles the TypeScript, and better-sqlite3's native binding where no prebuilt one downloads.
FROM node:22-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# Without scripts, the build (`dependencies`, run after an install) waits for the sources; the native binding does not.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild better-sqlite3
COPY tsconfig.json tsconfig.build.json ./
COPY emulator emulator
COPY harness harness
COPY fixtures fixtures
COPY scenarios scenarios
COPY scripts/bundle-cli.mjs scripts/
# `npm run build` less the Playwright fixtures' CommonJS build: the image runs the emulator only.
RUN npx tsc -p tsconfig.build.json && node scripts/bundle-cli.mjs \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && chmod +x dist/emulator/cli.js

# The reference agency and the harness, with Debian's Chromium for the harness.
FROM node:22-bookworm-slim AS tools
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production HARNESS_CHROMIUM=/usr/bin/chromium
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/scenarios scenarios
RUN mkdir harness-report && chown node:node harness-report
USER node

# The emulator: the last stage, so the default target.
FROM node:22-bookworm-slim AS emulator
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/fixtures/default.json fixtures/default.json
# `emulator` on the PATH for `docker exec <container> emulator env --data /data`.
RUN ln -s /app/dist/emulator/cli.js /usr/local/bin/emulator \
 && mkdir /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 4010
# Bound to 0.0.0.0, the control plane asks every caller for its token, loopback ones too: `status`
# finds it where the emulator keeps it for the CLI and calls /_emulator/health with it.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "/app/dist/emulator/cli.js", "status", "--data", "/data"]
ENTRYPOINT ["node", "/app/dist/emulator/cli.js"]
CMD ["start", "--host", "0.0.0.0", "--foreground", "--data", "/data"]
