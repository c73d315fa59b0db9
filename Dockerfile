# One image for every process of the scaled-out deployment; ROLE selects what runs (see docker-compose.yml).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund --omit=dev
COPY . .
ENV NODE_ENV=production DATA_DIR=/data
# A 64 MB young generation: the ingest allocates per block and tx, and V8's default 16 MB semi-space makes it
# scavenge several times as often (decision 010: dense backfill +15 %, 150 MB more RSS). platform/node-flags.ts lists it.
CMD ["node", "--max-semi-space-size=64", "--import", "tsx", "scripts/main.ts"]
