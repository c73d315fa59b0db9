// JSONEachRow bodies for the embedded engine's inserts. Pure.
// A column named as JSON text holds the JSON text of an object (a tx document, an EVM receipt): it goes into the
// line as that object, not as an escaped string, and the engine keeps the object's text in the String column byte
// for byte (`input_format_json_read_objects_as_strings`, set by JSON_TEXT_SETTINGS). Escaping a 2–4 KB document a
// second time was the largest single cost of a dense backfill's row encoding; the engine reads either form at the
// same speed (docs/decisions/023-json-text-columns.md).
// Invariant: a JSON-text value is JSON.stringify's output for an object, so it is valid JSON and the stored text is
// the same as the string's. A value that does not look like an object is written as an ordinary string.

/** The insert settings a body with JSON-text columns needs. */
export const JSON_TEXT_SETTINGS = { input_format_json_read_objects_as_strings: 1 } as const;

const isObjectText = (v: unknown): v is string =>
  typeof v === 'string' && v.charCodeAt(0) === 0x7b /* { */ && v.charCodeAt(v.length - 1) === 0x7d; /* } */

/** One JSONEachRow line a row, each ending in a newline. `jsonText`: the columns that hold JSON object text. */
export function rowLines(values: readonly object[], jsonText: readonly string[] = []): string {
  const parts: string[] = new Array(values.length);
  if (jsonText.length === 0) {
    for (let i = 0; i < values.length; i++) parts[i] = JSON.stringify(values[i]);
  } else {
    const spliced = new Set(jsonText);
    for (let i = 0; i < values.length; i++) {
      let line = '';
      for (const [k, v] of Object.entries(values[i]!)) {
        if (v === undefined) continue; // as JSON.stringify leaves it out
        line += `${line === '' ? '{' : ','}${JSON.stringify(k)}:${spliced.has(k) && isObjectText(v) ? v : JSON.stringify(v)}`;
      }
      parts[i] = line === '' ? '{}' : `${line}}`;
    }
  }
  parts.push('');
  return parts.join('\n');
}
