/**
 * The versioned migration history, shared by SQLite and PostgreSQL. Append only: a
 * migration that has shipped is never edited; a change is a new file.
 */
import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001-initial.js';
import * as m0002 from './0002-verification.js';
import * as m0003 from './0003-dkim-keys.js';
import * as m0004 from './0004-templates.js';
import * as m0005 from './0005-error-since.js';
import * as m0006 from './0006-domain-zone.js';
import * as m0007 from './0007-image-listing.js';
import * as m0008 from './0008-large-accounts.js';
import * as m0009 from './0009-webhooks.js';
import * as m0010 from './0010-emails.js';
import * as m0011 from './0011-room-for-updates.js';
import * as m0012 from './0012-dns-provider.js';
import * as m0013 from './0013-domain-connect.js';
import * as m0014 from './0014-dkim-rotation.js';
import * as m0015 from './0015-key-turns.js';
import * as m0016 from './0016-bounce-types.js';
import * as m0017 from './0017-return-path.js';
import * as m0018 from './0018-sandbox.js';
import * as m0019 from './0019-account-keys.js';
import * as m0020 from './0020-email-status.js';
import * as m0021 from './0021-scheduled-emails.js';
import * as m0022 from './0022-email-tags.js';
import * as m0023 from './0023-key-domains.js';
import * as m0024 from './0024-email-retention.js';
import * as m0025 from './0025-tracking.js';
import * as m0026 from './0026-dns-providers.js';
import * as m0027 from './0027-migration-backfills.js';

const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-verification': m0002,
  '0003-dkim-keys': m0003,
  '0004-templates': m0004,
  '0005-error-since': m0005,
  '0006-domain-zone': m0006,
  '0007-image-listing': m0007,
  '0008-large-accounts': m0008,
  '0009-webhooks': m0009,
  '0010-emails': m0010,
  '0011-room-for-updates': m0011,
  '0012-dns-provider': m0012,
  '0013-domain-connect': m0013,
  '0014-dkim-rotation': m0014,
  '0015-key-turns': m0015,
  '0016-bounce-types': m0016,
  '0017-return-path': m0017,
  '0018-sandbox': m0018,
  '0019-account-keys': m0019,
  '0020-email-status': m0020,
  '0021-scheduled-emails': m0021,
  '0022-email-tags': m0022,
  '0023-key-domains': m0023,
  '0024-email-retention': m0024,
  '0025-tracking': m0025,
  '0026-dns-providers': m0026,
  '0027-migration-backfills': m0027,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
