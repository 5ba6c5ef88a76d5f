/**
 * A request body to show beside an operation, built from the schema's own examples. Swagger UI
 * filled every string with "string", so the register example it showed was refused by the API
 * it documented; here a value comes from the schema (`example`, `examples`, `const`, `default`,
 * `enum`) wherever the schema has one, and optional properties appear only when they do.
 */
import { type OpenApiDocument, resolve, type Schema } from './openapi-types.js';

/** Deep enough for every body we document; a recursive schema stops here instead of looping. */
const MAX_DEPTH = 8;

const FORMAT_EXAMPLES: Record<string, string> = {
  email: 'someone@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'date-time': '2025-01-01T12:00:00.000Z',
  date: '2025-01-01',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/** Whether the schema names a value itself, so an optional property is worth showing. */
function hasOwnExample(schema: Schema): boolean {
  return (
    schema.example !== undefined ||
    (schema.examples?.length ?? 0) > 0 ||
    schema.const !== undefined ||
    schema.default !== undefined
  );
}

/** An example value of `schema`, resolving `$ref`s in `document`. */
export function exampleValue(schema: Schema, document: OpenApiDocument, depth = 0): unknown {
  const own = resolve(schema, document);
  if (own.example !== undefined) return own.example;
  if (own.examples && own.examples.length > 0) return own.examples[0];
  if (own.const !== undefined) return own.const;
  if (own.default !== undefined) return own.default;
  if (own.enum && own.enum.length > 0) return own.enum[0];
  if (depth >= MAX_DEPTH) return null;
  const alternatives = own.anyOf ?? own.oneOf;
  if (alternatives && alternatives.length > 0) {
    const notNull = alternatives.find((a) => resolve(a, document).type !== 'null') ?? alternatives[0];
    return exampleValue(notNull as Schema, document, depth + 1);
  }
  if (own.allOf) {
    return Object.assign({}, ...own.allOf.map((part) => exampleValue(part, document, depth + 1)));
  }
  const type = Array.isArray(own.type) ? own.type.find((t) => t !== 'null') : own.type;
  if (type === 'object' || own.properties) {
    const required = new Set(own.required ?? []);
    const value: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(own.properties ?? {})) {
      if (required.has(name) || hasOwnExample(resolve(property, document))) {
        value[name] = exampleValue(property, document, depth + 1);
      }
    }
    return value;
  }
  if (type === 'array') {
    return own.items ? [exampleValue(own.items, document, depth + 1)] : [];
  }
  if (type === 'string') return (own.format && FORMAT_EXAMPLES[own.format]) ?? 'string';
  if (type === 'integer' || type === 'number') return own.minimum ?? 0;
  if (type === 'boolean') return true;
  return null;
}
