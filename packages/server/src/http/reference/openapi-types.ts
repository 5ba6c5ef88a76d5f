/**
 * The parts of an OpenAPI 3.1 document the reference page reads. Loose on purpose: the page
 * renders what `@fastify/swagger` produces from our route schemas, and shows a keyword it does
 * not know as nothing rather than failing.
 */

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), or a `$ref` to a component schema. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  minimum?: number;
  maximum?: number;
}

export interface MediaType {
  schema?: Schema;
  example?: unknown;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Schema;
}

export interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; description?: string; content?: Record<string, MediaType> };
  responses?: Record<string, { description?: string; content?: Record<string, MediaType> }>;
  security?: Record<string, string[]>[];
}

export type PathItem = Partial<Record<HttpMethod, Operation>>;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths?: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  components?: {
    schemas?: Record<string, Schema>;
    securitySchemes?: Record<string, { type: string; in?: string; name?: string; description?: string }>;
  };
}

/** The component name a `$ref` points to (`#/components/schemas/DnsRecord` → `DnsRecord`). */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** The component schema `schema` refers to, or `schema` itself. */
export function resolve(schema: Schema, document: OpenApiDocument): Schema {
  if (schema.$ref === undefined) return schema;
  return document.components?.schemas?.[refName(schema.$ref)] ?? {};
}
