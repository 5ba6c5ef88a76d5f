/**
 * A JSON Schema as HTML a reader can scan: a one-line type ("array of DnsRecord", "string, one
 * of `pending`, `verified`"), its constraints, and the properties of an object as a nested list.
 * Component schemas are links to their own entry on the page, never expanded in place, so each
 * is written once and a recursive one cannot loop.
 */
import { escapeHtml, inlineMarkdown } from './html.js';
import { refName, type Schema } from './openapi-types.js';

/** The page's anchor for a component schema. */
export function schemaAnchor(name: string): string {
  return `schema-${name}`;
}

function literal(value: unknown): string {
  return `<code>${escapeHtml(typeof value === 'string' ? value : JSON.stringify(value))}</code>`;
}

/** Whether every alternative is a single constant (TypeBox writes a union of literals so). */
function literalValues(alternatives: Schema[]): unknown[] | null {
  const values: unknown[] = [];
  for (const a of alternatives) {
    if (a.const !== undefined) values.push(a.const);
    else if (a.enum?.length === 1) values.push(a.enum[0]);
    else if (a.type === 'null') values.push(null);
    else return null;
  }
  return values;
}

/** The type of `schema` in a few words of HTML, with component names linked. */
export function typeLabel(schema: Schema): string {
  if (schema.$ref !== undefined) {
    const name = refName(schema.$ref);
    return `<a href="#${escapeHtml(schemaAnchor(name))}">${escapeHtml(name)}</a>`;
  }
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.enum) {
    if (schema.enum.length === 1) return literal(schema.enum[0]);
    return `one of ${schema.enum.map(literal).join(', ')}`;
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const values = literalValues(alternatives);
    if (values) return values.length === 1 ? literal(values[0]) : `one of ${values.map(literal).join(', ')}`;
    return alternatives.map(typeLabel).join(' or ');
  }
  if (schema.allOf) return schema.allOf.map(typeLabel).join(' and ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const words = types.map((type) => {
    if (type === 'array') return schema.items ? `array of ${typeLabel(schema.items)}` : 'array';
    if (type === 'object' && typeof schema.additionalProperties === 'object' && !schema.properties) {
      return `object of ${typeLabel(schema.additionalProperties)}`;
    }
    if (type === 'string' && schema.format) return `string (${escapeHtml(schema.format)})`;
    return escapeHtml(type);
  });
  if (words.length === 0) return schema.properties ? 'object' : 'any';
  return words.join(' or ');
}

/** Constraints worth knowing before sending a value: lengths, counts, patterns, bounds. */
export function constraints(schema: Schema): string[] {
  const out: string[] = [];
  if (schema.minLength !== undefined && schema.maxLength !== undefined) {
    out.push(`${schema.minLength}–${schema.maxLength} characters`);
  } else if (schema.maxLength !== undefined) out.push(`at most ${schema.maxLength} characters`);
  else if (schema.minLength !== undefined) out.push(`at least ${schema.minLength} characters`);
  if (schema.minItems !== undefined) out.push(`at least ${schema.minItems} items`);
  if (schema.maxItems !== undefined) out.push(`at most ${schema.maxItems} items`);
  if (schema.minProperties !== undefined) out.push(`at least ${schema.minProperties} properties`);
  if (schema.minimum !== undefined) out.push(`from ${schema.minimum}`);
  if (schema.maximum !== undefined) out.push(`up to ${schema.maximum}`);
  if (schema.pattern !== undefined) out.push(`pattern ${literal(schema.pattern)}`);
  return out;
}

/**
 * The inline object `schema` describes (itself, its array items, or its alternatives'), whose
 * properties are listed under it. A component reference has none: its entry lists them.
 */
function inlineObjects(schema: Schema): Schema[] {
  if (schema.$ref !== undefined) return [];
  if (schema.properties) return [schema];
  if (schema.items) return inlineObjects(schema.items);
  if (typeof schema.additionalProperties === 'object') return inlineObjects(schema.additionalProperties);
  return [...(schema.anyOf ?? schema.oneOf ?? schema.allOf ?? [])].flatMap(inlineObjects);
}

/** One named value (a property or a parameter) as a list item. */
export function fieldItem(
  name: string,
  schema: Schema,
  options: { required: boolean; description?: string; where?: string },
): string {
  const description = options.description ?? schema.description;
  const notes = constraints(schema);
  return (
    '<li class="field">' +
    `<div class="field-head"><code class="field-name">${escapeHtml(name)}</code>` +
    `<span class="field-type">${typeLabel(schema)}</span>` +
    (options.where ? `<span class="field-where">${escapeHtml(options.where)}</span>` : '') +
    (options.required ? '<span class="field-required">required</span>' : '') +
    '</div>' +
    (description ? `<div class="field-description">${inlineMarkdown(description)}</div>` : '') +
    (notes.length > 0 ? `<div class="field-notes">${notes.join(' · ')}</div>` : '') +
    propertyList(schema) +
    '</li>'
  );
}

/** The properties of the inline objects in `schema`, as a nested list; '' when there are none. */
export function propertyList(schema: Schema): string {
  return inlineObjects(schema)
    .map((object) => {
      const required = new Set(object.required ?? []);
      const items = Object.entries(object.properties ?? {}).map(([name, property]) =>
        fieldItem(name, property, { required: required.has(name) }),
      );
      return items.length > 0 ? `<ul class="fields">${items.join('')}</ul>` : '';
    })
    .join('');
}

/** A schema in full: its type line, description, constraints and properties. */
export function schemaBlock(schema: Schema): string {
  const notes = constraints(schema);
  const label = typeLabel(schema);
  return (
    // A plain object is said by the property list under it.
    (label === 'object' && schema.properties ? '' : `<p class="schema-type">${label}</p>`) +
    (notes.length > 0 ? `<p class="field-notes">${notes.join(' · ')}</p>` : '') +
    propertyList(schema)
  );
}
