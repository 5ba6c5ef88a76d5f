/**
 * Validate real responses against the server's own `/openapi.json`, so the document is
 * proven to describe what the routes do (OpenAPI 3.1 schemas are JSON Schema 2020-12).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export interface OpenApiChecker {
  /** Problems with `body` as the response of `method path` with `status`; empty when valid. */
  check(method: string, path: string, status: number, body: unknown): string[];
  readonly document: OpenApiDocument;
}

export interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: { schemas: Record<string, unknown> };
}

const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

export async function loadOpenApi(baseUrl: string): Promise<OpenApiChecker> {
  const response = await fetch(`${baseUrl}/openapi.json`);
  const document = (await response.json()) as OpenApiDocument;
  // Not checked against the JSON Schema meta-schema here: compiling it cost each test server
  // ~80 ms of CPU (issue 41), and on the whole document it looked at nothing (no schema sits where
  // the meta-schema looks). health.test.ts checks each schema of the document against it once.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  ajv.addSchema(document as object, 'openapi.json');
  return {
    document,
    check(method, path, status, body) {
      // A literal path, or a templated one (`/api/public/templates/{id}`) that matches it.
      const documented =
        path in document.paths
          ? path
          : Object.keys(document.paths).find((p) =>
              new RegExp(`^${p.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(
                path,
              ),
            );
      const operation =
        documented === undefined ? undefined : document.paths[documented]?.[method.toLowerCase()];
      if (!operation || documented === undefined) return [`openapi.json has no operation ${method} ${path}`];
      path = documented;
      const response = operation.responses[String(status)];
      if (!response) return [`openapi.json documents no ${status} response for ${method} ${path}`];
      const ref = `openapi.json#/paths/${pointer(path)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
      const validate = ajv.getSchema(ref);
      if (!validate) return [`cannot compile ${ref}`];
      if (validate(body)) return [];
      return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
    },
  };
}
