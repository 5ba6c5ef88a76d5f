import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type DiscoveryDeps, discover } from './discovery.js';
import type { JsonAnswer } from './fetch-json.js';
import {
  type DomainConnectIdentity,
  serviceTemplate,
  templateFileName,
  templateGroups,
  templateVariables,
} from './template.js';

const identity: DomainConnectIdentity = {
  providerId: 'Sender.Example',
  providerName: 'Sender',
  serviceId: 'sending-domain',
  serviceName: 'Sender sending domain',
  pubKeyDomain: 'dkim.sender.example',
  keyHost: '_dck1',
  redirectDomains: [],
  logoUrl: undefined,
};

/** A provider described as data: its TXT answers and its HTTP answers by URL. */
function world(txt: Record<string, string[][]>, http: Record<string, JsonAnswer | Error>): DiscoveryDeps {
  return {
    resolveTxt: async (name) => {
      const found = txt[name];
      if (found) return found;
      throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    },
    fetchJson: async (url) => {
      const answer = http[url];
      if (answer === undefined) return { status: 404, body: undefined };
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}
const SETTINGS = 'https://dc.dns.example/v2/example.com/settings';
const TEMPLATE =
  'https://api.dns.example/v2/domainTemplates/providers/Sender.Example/services/sending-domain';
const settings = (body: object): JsonAnswer => ({ status: 200, body });
const full = {
  providerName: 'DNS Co',
  urlAPI: 'https://api.dns.example',
  urlSyncUX: 'https://sync.dns.example',
};
const txt = { '_domainconnect.example.com': [['dc.dns.example']] };

test('supported: the settings give the sync URL, and the API knows our template', async () => {
  const found = await discover(
    'example.com',
    identity,
    world(txt, {
      [SETTINGS]: settings({ ...full, providerDisplayName: 'DNS Co (EU)' }),
      [TEMPLATE]: { status: 200, body: undefined },
    }),
  );
  assert.deepEqual(found, {
    providerName: 'DNS Co (EU)',
    urlSyncUX: 'https://sync.dns.example',
    supported: true,
    detail: null,
  });
});

test('a provider name is cleaned and bounded before it is stored and shown', async () => {
  const found = await discover(
    'example.com',
    identity,
    world(txt, {
      [SETTINGS]: settings({ ...full, providerName: `Evil\u0007\n${'x'.repeat(500)}` }),
      [TEMPLATE]: { status: 200, body: undefined },
    }),
  );
  assert.equal(found.providerName?.length, 100);
  assert.match(found.providerName ?? '', /^Evil {2}x+$/);
});

test('each way of not being supported says why, and falls back to the records', async () => {
  const cases: [string, DiscoveryDeps, RegExp][] = [
    ['no TXT record', world({}, {}), /offers no Domain Connect \(no _domainconnect TXT record\)/],
    [
      'a TXT record with a scheme',
      world({ '_domainconnect.example.com': [['https://dc.dns.example']] }, {}),
      /does not hold one Domain Connect host name/,
    ],
    [
      'two TXT records',
      world({ '_domainconnect.example.com': [['a.example'], ['b.example']] }, {}),
      /does not hold one/,
    ],
    ['the zone not hosted there', world(txt, {}), /does not host example.com/],
    [
      'the provider down',
      world(txt, { [SETTINGS]: new Error('connect ECONNREFUSED') }),
      /could not be reached; add/,
    ],
    [
      'no synchronous flow',
      world(txt, { [SETTINGS]: settings({ ...full, urlSyncUX: undefined }) }),
      /DNS Co offers no synchronous Domain Connect flow/,
    ],
    [
      'an http API',
      world(txt, { [SETTINGS]: settings({ ...full, urlAPI: 'http://api.dns.example' }) }),
      /name no https API/,
    ],
    [
      'our template unknown',
      world(txt, { [SETTINGS]: settings(full) }),
      /DNS Co does not support this service's Domain Connect template yet/,
    ],
  ];
  for (const [what, deps, detail] of cases) {
    const found = await discover('example.com', identity, deps);
    assert.equal(found.supported, false, what);
    assert.equal(found.urlSyncUX, null, what);
    assert.match(found.detail ?? '', detail, what);
    assert.match(found.detail ?? '', /; add the records by hand$/, what);
  }
});

test('the template: lowercase file name, signed (no phishing warning), each variable inside fixed text', () => {
  assert.equal(templateFileName(identity), 'sender.example.sending-domain.json');
  const template = serviceTemplate(identity);
  assert.equal(template.syncPubKeyDomain, 'dkim.sender.example');
  assert.ok(!('warnPhishing' in template));
  assert.ok(!('syncRedirectDomain' in template), 'no redirect domains configured');
  for (const record of template.records) {
    for (const value of [record.host, 'pointsTo' in record ? record.pointsTo : record.data])
      assert.doesNotMatch(value, /^%[a-z0-9]+%$/, `${value} is not a bare variable`);
    assert.doesNotMatch(record.host, /%host%/);
  }
  assert.deepEqual(
    templateVariables({
      tokens: ['a', 'b', 'c'],
      providerHost: 'sender.example',
      dmarcPolicy: 'v=DMARC1; p=none; rua=mailto:d@x.example',
    }),
    [
      ['dkimkey1', 'a'],
      ['dkimkey2', 'b'],
      ['dkimkey3', 'c'],
      ['providerhost', 'sender.example'],
      ['dmarc', 'p=none; rua=mailto:d@x.example'],
    ],
  );
});

test('the groups a link applies: the return path and the tracking host only as the template writes them', () => {
  const provider = { providerHost: 'sender.example', target: 'track.sender.example' };
  const groups = (returnPath: string | null, tracking: string | null, target = provider.target) =>
    templateGroups({ returnPath, tracking }, { ...provider, target });
  assert.deepEqual(groups(null, null), ['dkim', 'dmarc']);
  assert.deepEqual(groups('bounces', 'track'), ['dkim', 'dmarc', 'returnpath', 'tracking']);
  // labels the template does not write, and a TRACKING_CNAME_TARGET it cannot point at
  assert.deepEqual(groups('rp', 'clicks'), ['dkim', 'dmarc']);
  assert.deepEqual(groups(null, 'track', 'links.elsewhere.example'), ['dkim', 'dmarc']);
});
