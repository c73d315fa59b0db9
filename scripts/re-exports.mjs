// The no-shim rule: a module exports only what it defines. A re-export (`export … from`, `export * from`) lets a
// name be imported through several paths, and old paths linger as shims after a move; so every import names the
// module that defines what it imports. The one exception is the Temporal workflow bundle's entry
// (workflows/index.ts), whose whole job is to name the workflows of other modules.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const ALLOWED = new Set(['workflows/index.ts']);
const RE_EXPORT = /^\s*export\s+(?:type\s+)?(?:\*|\{[^}]*\})(?:\s+as\s+\w+)?\s+from\s+['"][^'"]+['"]/gm;

/** Every re-export under the given folders of `root`: `file:line: text`. */
export function findReExports(root, folders) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|mts|mjs|js)$/.test(name)) {
        const rel = path.relative(root, p).split(path.sep).join('/');
        if (ALLOWED.has(rel)) continue;
        const src = readFileSync(p, 'utf8');
        for (const m of src.matchAll(RE_EXPORT)) {
          const line = src.slice(0, m.index).split('\n').length;
          out.push(`${rel}:${line}: ${m[0].trim().replace(/\s+/g, ' ')}`);
        }
      }
    }
  };
  for (const f of folders) {
    const dir = path.join(root, f);
    try {
      if (statSync(dir).isDirectory()) walk(dir);
    } catch {
      // a folder this checkout does not have
    }
  }
  return out;
}
