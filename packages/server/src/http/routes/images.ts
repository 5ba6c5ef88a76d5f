/**
 * Image uploads in ImageKit's upload protocol, so `@service/email-builder` (and anything else
 * written for ImageKit) uploads to the service itself: `POST /api/public/images`, multipart
 * fields `file`, `fileName`, `folder`, `Authorization: Basic base64(key + ":")` with a key of
 * scope `images` (the key alone works too). Files are served at `GET /images/<sha256>.<ext>`.
 */
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Envelope } from '../../envelope.js';
import { ApiError } from '../../errors.js';
import type { ImageService } from '../../service/image-service.js';
import { IMAGE_FILE_NAME, type ImageFiles } from '../../store/image-files.js';
import type { Store } from '../../store/store.js';
import { browserApi } from '../browser-api.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { errorEnvelope } from '../error-handler.js';
import { ErrorEnvelopeSchema, ListQuerySchema, requestErrorResponses } from '../schemas.js';

export const UploadedImageSchema = Type.Object(
  {
    fileId: Type.String({
      description: 'The content’s SHA-256, hex (the same bytes always get the same id).',
    }),
    name: Type.String({ description: 'The `fileName` sent, without any path.' }),
    url: Type.String({ description: 'Where the image is served, absolute: use it in `<img src>`.' }),
    filePath: Type.String({ description: 'The same, relative to the service.' }),
    size: Type.Integer({ description: 'Bytes.' }),
    width: Type.Integer(),
    height: Type.Integer(),
    fileType: Type.Literal('image'),
    mime: Type.String({
      description: '`image/png`, `image/jpeg`, `image/gif` or `image/webp`, from the content.',
    }),
  },
  { $id: 'UploadedImage', additionalProperties: false },
);

export const ImagePageSchema = Type.Object(
  {
    data: Type.Object(
      {
        images: Type.Array(Type.Ref(UploadedImageSchema)),
        nextCursor: Type.Union([Type.String(), Type.Null()], {
          description: 'Pass as `cursor` to get the next page; `null` on the last page.',
        }),
        usage: Type.Object(
          {
            count: Type.Integer({ description: 'Images the account holds.' }),
            bytes: Type.Integer({ description: 'Their bytes, as stored.' }),
            maxCount: Type.Integer({ description: 'The quota of images (`IMAGE_QUOTA_COUNT`).' }),
            maxBytes: Type.Integer({ description: 'The quota of bytes (`IMAGE_QUOTA_BYTES`).' }),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    error: Type.Null(),
    status: Type.Literal(200),
  },
  { $id: 'ImagePage', additionalProperties: false },
);

export const DeletedImageResultSchema = Type.Object(
  {
    data: Type.Object(
      { fileId: Type.String(), deleted: Type.Literal(true) },
      { additionalProperties: false },
    ),
    error: Type.Null(),
    status: Type.Literal(200),
  },
  { $id: 'DeletedImageResult', additionalProperties: false },
);

/** Schemas registered at the root, so /openapi.json lists them as components. */
export const IMAGE_SCHEMAS = [UploadedImageSchema, ImagePageSchema, DeletedImageResultSchema];

const IMAGE_CURSOR = /^(\d{1,16})\.([0-9a-f]{64})$/;
const FileId = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'The `fileId` the upload answered.' });

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

export interface ImageRoutesOptions {
  config: Config;
  store: Store;
  service: ImageService;
}

/** `POST /api/public/images` (register with that prefix). */
export async function imageUploadRoutes(app: FastifyInstance, options: ImageRoutesOptions): Promise<void> {
  const { config, service } = options;
  await browserApi(app, { config, store: options.store, scope: 'images', basicAuth: true });
  // Bodies, queries and params are typed from their schemas: no hand-written copy to drift.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  await app.register(multipart, {
    limits: {
      fileSize: config.images.maxBytes,
      files: 1,
      fields: 10,
      fieldSize: 1024,
      parts: 12,
      headerPairs: 50,
    },
  });

  app.post(
    '',
    {
      schema: {
        tags: ['Images'],
        summary: 'Upload an image (ImageKit protocol)',
        description:
          'Multipart `file` (PNG, JPEG, GIF or WebP, identified by its content; SVG refused), optional `fileName` and `folder` ' +
          '(ImageKit’s `useUniqueFileName` and other fields are accepted and ignored: names are content hashes). ' +
          '`Authorization: Basic base64(key + ":")` as ImageKit clients send it, or the key alone; the key needs scope `images`. ' +
          'Answers ImageKit’s JSON (`url`, `fileId`, `name`, `size`, `width`, `height`, `fileType`). Images declaring more pixels than the limit are refused before decoding. ' +
          'Every image is decoded and encoded again in its own format: metadata (GPS position, camera data) and anything appended to the image are dropped, EXIF orientation is applied. ' +
          'The account’s quota (`IMAGE_QUOTA_COUNT`, `IMAGE_QUOTA_BYTES`) counts each distinct image once: 409 `ACCOUNT_IMAGE_QUOTA` when full.',
        consumes: ['multipart/form-data'],
        response: {
          200: Type.Ref(UploadedImageSchema),
          409: Type.Ref(ErrorEnvelopeSchema),
          ...requestErrorResponses,
        },
      },
    },
    async (request) => {
      if (!request.isMultipart()) {
        throw new ApiError(
          'REQUEST_UNSUPPORTED_MEDIA_TYPE',
          'send the image as multipart/form-data with a "file" part',
        );
      }
      let bytes: Buffer | undefined;
      const fields: Record<string, string> = {};
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname === 'file' && bytes === undefined) bytes = await part.toBuffer();
            else part.file.resume();
          } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        }
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          throw new ApiError(
            'IMAGE_TOO_LARGE',
            `the file is larger than the limit of ${config.images.maxBytes} bytes`,
          );
        if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
          throw new ApiError('REQUEST_INVALID', 'send one file and at most 10 short fields');
        if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_NO_FORM_DATA')
          throw new ApiError('IMAGE_MISSING', 'the multipart body is malformed or empty');
        throw new ApiError(
          'REQUEST_INVALID',
          `the multipart body could not be read: ${(error as Error).message}`,
        );
      }
      if (bytes === undefined || bytes.length === 0)
        throw new ApiError('IMAGE_MISSING', 'the upload has no "file" part, or it is empty');
      // ImageKit's protocol answers one image, not an envelope: a refusal is the response's status.
      return unwrap(
        await service.upload(request.apiKey!.accountId, bytes, {
          ...(fields.fileName !== undefined && { fileName: fields.fileName }),
          ...(fields.folder !== undefined && { folder: fields.folder }),
          publicBase: publicBase(request),
        }),
      );
    },
  );

  api.get(
    '',
    {
      schema: {
        tags: ['Images'],
        summary: 'List the account’s images',
        description:
          'Newest first, in the upload’s shape, with the account’s usage against its quota; follow `nextCursor`.',
        querystring: ListQuerySchema,
        response: { 200: Type.Ref(ImagePageSchema), ...requestErrorResponses },
      },
    },
    async (request) => {
      const limit = request.query.limit === undefined ? 50 : Number(request.query.limit);
      const cursor = request.query.cursor;
      const after =
        cursor === undefined
          ? undefined
          : (() => {
              const [, createdAt, hash] = IMAGE_CURSOR.exec(
                decodeCursor(cursor, (t) => IMAGE_CURSOR.test(t)),
              )!;
              return { createdAt: Number(createdAt), hash: hash! };
            })();
      const page = await service.list(request.apiKey!.accountId, {
        limit,
        publicBase: publicBase(request),
        ...(after && { after }),
      });
      return {
        data: {
          images: page.images,
          nextCursor: page.next ? encodeCursor(`${page.next.createdAt}.${page.next.hash}`) : null,
          usage: page.usage,
        },
        error: null,
        status: 200 as const,
      };
    },
  );

  api.delete(
    '/:fileId',
    {
      schema: {
        tags: ['Images'],
        summary: 'Delete an image',
        description:
          'The account stops holding the image and it leaves the quota. The file stops being served once no account holds it; ' +
          'copies that email clients, proxies or CDNs cached (it was served as immutable for a year) are beyond the service’s reach.',
        params: Type.Object({ fileId: FileId }, { additionalProperties: false }),
        response: {
          200: Type.Ref(DeletedImageResultSchema),
          404: Type.Ref(ErrorEnvelopeSchema),
          ...requestErrorResponses,
        },
      },
    },
    async (request) => {
      const deleted = await service.delete(request.apiKey!.accountId, request.params.fileId);
      return { data: unwrap(deleted), error: null, status: 200 as const };
    },
  );

  /** Where the images are served from: `PUBLIC_URL`, else the request's own origin (development). */
  function publicBase(request: FastifyRequest): string {
    return config.publicUrl ?? `${request.protocol}://${request.host}`;
  }
}

/** `GET /images/<sha256>.<ext>`: public, immutable (register without prefix). */
export async function imageFileRoutes(app: FastifyInstance, options: { files: ImageFiles }): Promise<void> {
  const { files } = options;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.get(
    '/images/:file',
    {
      schema: {
        tags: ['Images'],
        summary: 'An uploaded image',
        description:
          'Public (email clients fetch it without credentials). The name is the content’s SHA-256, so the response never changes: ' +
          '`Cache-Control: public, max-age=31536000, immutable`, an `ETag`, `X-Content-Type-Options: nosniff`.',
        params: Type.Object({ file: Type.String({ maxLength: 80 }) }, { additionalProperties: false }),
        response: {
          304: Type.Null({ description: 'Not modified: the `If-None-Match` ETag matched.' }),
          200: {
            description: 'The image bytes.',
            content: Object.fromEntries(
              Object.values(MIME).map((m) => [m, { schema: { type: 'string', format: 'binary' } }]),
            ),
          },
          404: Type.Ref(ErrorEnvelopeSchema),
        },
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      const size = IMAGE_FILE_NAME.test(file) ? await files.size(file) : undefined;
      if (size === undefined)
        return reply
          .code(404)
          .send(errorEnvelope({ code: 'IMAGE_NOT_FOUND', message: 'no uploaded image has this name' }));
      const etag = `"${file.slice(0, 64)}"`;
      reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('etag', etag)
        // an image is never a document: no script, no plugin, even if opened directly
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cross-origin-resource-policy', 'cross-origin');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      return reply.type(MIME[file.split('.')[1]!]!).header('content-length', size).send(files.open(file));
    },
  );
}

/** A single-item route's answer: the envelope's data, or its error as the response's status. */
function unwrap<T>(envelope: Envelope<T>): T {
  if (envelope.error) throw new ApiError(envelope.error.code, envelope.error.message);
  return envelope.data as T;
}
