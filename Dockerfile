# One image for every process of the scaled-out deployment; ROLE selects what runs (see docker-compose.yml).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund --omit=dev
COPY . .
ENV NODE_ENV=production DATA_DIR=/data
CMD ["node", "--import", "tsx", "scripts/main.ts"]
