// Skip Go API's own OpenAPI document (test/fixtures/skip-openapi/swagger.yml, source in test/fixtures/SOURCES.md)
// as a response validator: `check(path, method, body)` returns the schema violations of one of our answers
// against Skip's declared 200 response of that operation (OpenAPI 3.0: `nullable` honoured, formats and
// examples ignored). Skip's schemas allow extra properties, so Initia's documented additions pass.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

const FILE = path.resolve(import.meta.dirname, '../fixtures/skip-openapi/swagger.yml');

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
};

export interface SkipOpenapi {
  check(apiPath: string, method: 'get' | 'post', body: unknown, status?: string): string[];
  /** Violations of `body` against one of Skip's component schemas, e.g. 'StatusTxResponse'. */
  checkSchema(name: string, body: unknown): string[];
  paths(): string[];
}

export function loadSkipOpenapi(): SkipOpenapi {
  const doc = parse(readFileSync(FILE, 'utf8')) as Doc & Record<string, unknown>;
  // OpenAPI 3.0 → what Ajv reads: two of Skip's properties write `required: true` beside a $ref (not valid
  // OpenAPI; dropped); siblings of a $ref, `nullable` among them, are ignored by OpenAPI 3.0 (dropped); a
  // `nullable` without `type` (beside allOf/oneOf) becomes "null or the schema"; examples are not schemas.
  const scrub = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(scrub);
    if (!v || typeof v !== 'object') return v;
    const src = v as Record<string, unknown>;
    if (typeof src.$ref === 'string') return { $ref: src.$ref };
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(src)) {
      if (k === 'required' && typeof x === 'boolean') continue;
      if (k === 'example' || k === 'examples') continue;
      o[k] = scrub(x);
    }
    // Skip's wrapper unions (Operation, TransferEvent, Tx, Msg) are oneOf objects of one property each that
    // require nothing, so any object matches them all and strict oneOf fails every real answer, Skip's own
    // included. Read as the clients read them: exactly one of the wrapper keys is present.
    if (Array.isArray(o.oneOf)) o.oneOf = o.oneOf.map((b) => wrapperRequired(b, doc));
    if (o.nullable === true && o.type === undefined) {
      const { nullable: _n, ...rest } = o;
      return { anyOf: [{ type: 'null' }, rest] };
    }
    return o;
  };
  const spec = { $id: 'skip', ...(scrub(doc) as object) };
  function wrapperRequired(branch: unknown, root: Record<string, unknown>): unknown {
    let b = branch as Record<string, unknown>;
    if (typeof b.$ref === 'string') {
      const name = b.$ref.replace('#/components/schemas/', '');
      const target = (root.components as Record<string, Record<string, unknown>>).schemas?.[name] as
        | Record<string, unknown>
        | undefined;
      if (!target) return branch;
      b = target;
    }
    const props = b.properties as Record<string, unknown> | undefined;
    if (!props || b.required || Object.keys(props).length !== 1) return branch;
    return { allOf: [branch, { required: Object.keys(props) }] };
  }
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false });
  ajv.addSchema(spec);
  const compiled = new Map<string, ValidateFunction>();
  const run = (ref: string, body: unknown) => {
    let v = compiled.get(ref);
    if (!v) compiled.set(ref, (v = ajv.compile({ $ref: ref })));
    return v(body)
      ? []
      : (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  };
  const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  return {
    check(apiPath, method, body, status = '200') {
      const op = doc.paths[apiPath]?.[method];
      if (!op?.responses[status]?.content?.['application/json'])
        throw new Error(`Skip's OpenAPI has no ${status} JSON response for ${method.toUpperCase()} ${apiPath}`);
      return run(`skip#/paths/${esc(apiPath)}/${method}/responses/${status}/content/application~1json/schema`, body);
    },
    checkSchema: (name, body) => run(`skip#/components/schemas/${name}`, body),
    paths: () => Object.keys(doc.paths),
  };
}
