// Structured logging: one JSON object per line on stdout (stderr for warn/error).
type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(event: string, fields?: Record<string, unknown>): void;
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

function threshold(): number {
  const lvl = (process.env.LOG_LEVEL ?? 'info') as Level;
  return order[lvl] ?? order.info;
}

function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return { name: value.name, message: value.message };
  return value;
}

export function createLogger(base: Record<string, unknown> = {}): Logger {
  const emit = (level: Level, event: string, fields?: Record<string, unknown>) => {
    if (order[level] < threshold()) return;
    const line = JSON.stringify({ ts: new Date().toISOString(), level, event, ...base, ...fields }, (_k, v) =>
      jsonSafe(v),
    );
    (level === 'warn' || level === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
  };
  return {
    debug: (e, f) => emit('debug', e, f),
    info: (e, f) => emit('info', e, f),
    warn: (e, f) => emit('warn', e, f),
    error: (e, f) => emit('error', e, f),
    child: (fields) => createLogger({ ...base, ...fields }),
  };
}

export const log = createLogger();
