/**
 * Request schemas compiled on a route's first request, by one ajv per process.
 *
 * Fastify compiles every route's body, query, params and headers schemas with a fresh ajv when
 * the app is built: about 80 ms of CPU per start on this machine, a quarter of building the app,
 * for routes most processes never serve (a CLI's, a test's), and a test process builds dozens of
 * apps, each compiling the same constant schemas again (issue 41). Here each schema compiles when
 * its route first validates a request, and every app built in the process with the same ajv
 * options shares one ajv and so its compiled schemas (ajv keys them by schema object).
 *
 * The validation itself is ajv's, unchanged: same options (Fastify's defaults with ours from
 * `app.ts`), same formats, same `errors` read by Fastify for the 400 envelope. A schema that
 * does not compile fails its route's first request with a 500 instead of the start; every
 * route's schemas are exercised by its tests.
 */
import AjvCompiler from '@fastify/ajv-compiler';

type BuildValidator = AjvCompiler.BuildCompilerFromPool;
type ValidateFunction = ReturnType<ReturnType<BuildValidator>>;

/** The process's pool: one ajv per distinct (shared schemas, ajv options). */
const pool = AjvCompiler();

/** For Fastify's `schemaController.compilersFactory.buildValidator`. */
export const buildLazyValidator = ((externalSchemas, options) => {
  const compile = pool(externalSchemas, options);
  return (route) => {
    let validate: ValidateFunction | undefined;
    const lazy = Object.assign(
      (data: unknown) => {
        validate ??= compile(route);
        const valid = validate(data);
        // Fastify reads a failed validation's reasons from the function it was given
        lazy.errors = validate.errors;
        return valid;
      },
      { errors: null as ValidateFunction['errors'] },
    );
    // Fastify calls it and reads `errors`; ajv's other members (schema, source) it never reads
    return lazy as unknown as ValidateFunction;
  };
}) as BuildValidator;
