/**
 * The API reference at `/docs` (issue 40): one HTML page rendered on the server from the
 * OpenAPI document, so it needs no script, loads in one request besides the site's stylesheets,
 * reads the same in a screen reader as on screen, and follows the site's light and dark themes.
 * It replaced Swagger UI, whose page weighed 2.2 MB and failed axe's WCAG 2 A/AA rules on
 * markup we could not change from outside (buttons nested in buttons); docs/decisions.md has
 * the figures.
 */
import { exampleValue } from './example-value.js';
import { escapeHtml, inlineMarkdown, markdownParagraphs } from './html.js';
import {
  HTTP_METHODS,
  type HttpMethod,
  type MediaType,
  type OpenApiDocument,
  type Operation,
  type PathItem,
} from './openapi-types.js';
import { fieldItem, schemaAnchor, schemaBlock } from './schema-view.js';

/** What `@fastify/swagger` writes where a route's schema gave a response no description. */
const PLACEHOLDER_DESCRIPTION = 'Default Response';

/** The page's anchor for an operation: `POST /api/public/domain` → `post-api-public-domain`. */
export function operationAnchor(method: string, path: string): string {
  return `${method}-${path}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function tagAnchor(tag: string): string {
  return `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}

interface Entry {
  method: HttpMethod;
  path: string;
  operation: Operation;
}

function entries(items: Record<string, PathItem> | undefined): Entry[] {
  return Object.entries(items ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ method, path, operation }] : [];
    }),
  );
}

/** Operations by tag: the document's declared tags first, in order, then the others as met. */
function byTag(document: OpenApiDocument, operations: Entry[]): Map<string, Entry[]> {
  const groups = new Map<string, Entry[]>();
  for (const tag of document.tags ?? []) groups.set(tag.name, []);
  for (const entry of operations) {
    const tag = entry.operation.tags?.[0] ?? 'Other';
    if (!groups.has(tag)) groups.set(tag, []);
    groups.get(tag)?.push(entry);
  }
  for (const [tag, list] of groups) if (list.length === 0) groups.delete(tag);
  return groups;
}

function methodBadge(method: string): string {
  return `<span class="method method-${method}">${method.toUpperCase()}</span>`;
}

function jsonMedia(content: Record<string, MediaType> | undefined): [string, MediaType] | undefined {
  const all = Object.entries(content ?? {});
  return all.find(([type]) => type === 'application/json') ?? all[0];
}

function parametersBlock(operation: Operation): string {
  const parameters = operation.parameters ?? [];
  if (parameters.length === 0) return '';
  const items = parameters.map((p) =>
    fieldItem(p.name, p.schema ?? {}, {
      required: p.required === true,
      description: p.description,
      where: p.in,
    }),
  );
  return `<h4>Parameters</h4><ul class="fields">${items.join('')}</ul>`;
}

function requestBlock(operation: Operation, document: OpenApiDocument, id: string): string {
  const body = operation.requestBody;
  if (!body) return '';
  const media = jsonMedia(body.content);
  if (!media) return '';
  const [type, { schema = {}, example }] = media;
  const shown = example ?? (type === 'application/json' ? exampleValue(schema, document) : undefined);
  return (
    `<h4>Request body <span class="media-type">${escapeHtml(type)}</span></h4>` +
    markdownParagraphs(body.description) +
    schemaBlock(schema) +
    (shown === undefined
      ? ''
      : `<h5 id="${id}-example">Example</h5>` +
        `<pre class="example" aria-labelledby="${id}-example"><code>${escapeHtml(JSON.stringify(shown, null, 2))}</code></pre>`)
  );
}

/**
 * Responses, those with the same description and body merged into one row ("400, 401, 403 …
 * ErrorEnvelope"), so the error answers every route shares take one line.
 */
function responsesBlock(operation: Operation): string {
  const rows = new Map<string, { statuses: string[]; description: string; body: string }>();
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const description =
      response.description && response.description !== PLACEHOLDER_DESCRIPTION ? response.description : '';
    const media = jsonMedia(response.content);
    const body = media
      ? `<span class="media-type">${escapeHtml(media[0])}</span> ${schemaBlock(media[1].schema ?? {})}`
      : '';
    const key = `${description}\u0000${body}`;
    const row = rows.get(key);
    if (row) row.statuses.push(status);
    else rows.set(key, { statuses: [status], description, body });
  }
  if (rows.size === 0) return '';
  const items = [...rows.values()].map(
    (row) =>
      `<li class="response"><div class="field-head"><span class="status">${row.statuses.map(escapeHtml).join(', ')}</span></div>` +
      (row.description ? `<div class="field-description">${inlineMarkdown(row.description)}</div>` : '') +
      (row.body ? `<div class="response-body">${row.body}</div>` : '') +
      '</li>',
  );
  return `<h4>Responses</h4><ul class="responses">${items.join('')}</ul>`;
}

function operationBlock(entry: Entry, document: OpenApiDocument, webhook = false): string {
  const { method, path, operation } = entry;
  const id = webhook ? `webhook-${operationAnchor('', path)}` : operationAnchor(method, path);
  const title = webhook
    ? `<code class="path">${escapeHtml(path)}</code>`
    : `${methodBadge(method)} <code class="path">${escapeHtml(path)}</code>`;
  const authenticated = (operation.security ?? []).some((requirement) => Object.keys(requirement).length > 0);
  return (
    `<article class="operation" id="${id}" aria-labelledby="${id}-title">` +
    `<h3 id="${id}-title">${title}</h3>` +
    (operation.summary && !webhook ? `<p class="summary">${inlineMarkdown(operation.summary)}</p>` : '') +
    markdownParagraphs(operation.description) +
    (authenticated
      ? '<p class="auth">Authenticated: <code>Authorization: &lt;API_KEY&gt;</code>, the key alone.</p>'
      : '') +
    parametersBlock(operation) +
    requestBlock(operation, document, id) +
    (webhook ? '' : responsesBlock(operation)) +
    '</article>'
  );
}

function navigation(groups: Map<string, Entry[]>, document: OpenApiDocument): string {
  const tagItems = [...groups].map(
    ([tag, list]) =>
      `<li><a href="#${tagAnchor(tag)}">${escapeHtml(tag)}</a><ul class="toc-operations">` +
      list
        .map(
          ({ method, path, operation }) =>
            `<li><a href="#${operationAnchor(method, path)}">${methodBadge(method)} ${escapeHtml(operation.summary ?? path)}</a></li>`,
        )
        .join('') +
      '</ul></li>',
  );
  if (document.webhooks) tagItems.push('<li><a href="#webhook-events">Webhook events</a></li>');
  if (document.components?.schemas) tagItems.push('<li><a href="#schemas">Schemas</a></li>');
  return `<nav class="toc" aria-label="Reference contents"><ul>${tagItems.join('')}</ul></nav>`;
}

/** The whole page: a complete HTML document. */
export function renderReferencePage(document: OpenApiDocument): string {
  const groups = byTag(document, entries(document.paths));
  const tagDescriptions = new Map((document.tags ?? []).map((t) => [t.name, t.description]));
  const sections = [...groups].map(
    ([tag, list]) =>
      `<section class="tag" aria-labelledby="${tagAnchor(tag)}"><h2 id="${tagAnchor(tag)}">${escapeHtml(tag)}</h2>` +
      markdownParagraphs(tagDescriptions.get(tag)) +
      list.map((entry) => operationBlock(entry, document)).join('') +
      '</section>',
  );
  const webhooks = entries(document.webhooks);
  if (webhooks.length > 0) {
    sections.push(
      '<section class="tag" aria-labelledby="webhook-events"><h2 id="webhook-events">Webhook events</h2>' +
        '<p>What the service POSTs to your webhook endpoints, one event per request.</p>' +
        webhooks.map((entry) => operationBlock(entry, document, true)).join('') +
        '</section>',
    );
  }
  const schemas = Object.entries(document.components?.schemas ?? {});
  if (schemas.length > 0) {
    sections.push(
      '<section class="tag" aria-labelledby="schemas"><h2 id="schemas">Schemas</h2>' +
        schemas
          .map(
            ([name, schema]) =>
              `<article class="operation schema" id="${escapeHtml(schemaAnchor(name))}" aria-labelledby="${escapeHtml(schemaAnchor(name))}-title">` +
              `<h3 id="${escapeHtml(schemaAnchor(name))}-title">${escapeHtml(name)}</h3>` +
              markdownParagraphs(schema.description) +
              schemaBlock({ ...schema, description: undefined }) +
              '</article>',
          )
          .join('') +
        '</section>',
    );
  }
  const { title, version, description } = document.info;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · ${escapeHtml(title)}</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/site.css">
<link rel="stylesheet" href="/assets/docs.css">
</head>
<body>
<a class="skip-link" href="#main">Skip to the reference</a>
<header class="topbar">
<div class="brand"><span class="brand-mark" aria-hidden="true"></span>Sending domains</div>
<nav aria-label="Main"><a href="/">Playground</a><a href="/domains">Domains</a><a href="/docs" aria-current="page">API reference</a></nav>
</header>
<div class="reference">
${navigation(groups, document)}
<main id="main" tabindex="-1">
<h1>${escapeHtml(title)} <span class="version">API ${escapeHtml(version)}</span></h1>
<div class="intro">${markdownParagraphs(description)}<p>The same reference as an OpenAPI 3.1 document: <a href="/openapi.json">/openapi.json</a> (for code generators and API clients). Every body is JSON.</p></div>
${sections.join('\n')}
</main>
</div>
</body>
</html>
`;
}
