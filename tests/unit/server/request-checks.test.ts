import { describe, expect, it } from 'vitest';
import { allowedHosts, bodyLimitFor, declaredLengthRefusal, hostRefusal, targetRefusal } from '@/lib/server/request-checks';

const machine = () => ['192.168.1.20', 'fe80::1'];

describe('the Host the app answers to', () => {
  const local = allowedHosts({ listenHost: '127.0.0.1', port: 3000, interfaceAddresses: machine });
  const published = allowedHosts({ appUrl: 'https://chat.example.com', listenHost: '127.0.0.1', port: 3000, interfaceAddresses: machine });
  const everywhere = allowedHosts({ listenHost: '0.0.0.0', port: 80, interfaceAddresses: machine });

  it.each<[string, ReadonlySet<string>, string | undefined]>([
    ['its own address', local, '127.0.0.1:3000'],
    ['localhost', local, 'localhost:3000'],
    ['LOCALHOST in capitals', local, 'LOCALHOST:3000'],
    ['IPv6 loopback', local, '[::1]:3000'],
    ["APP_URL's host, https's port left out", published, 'chat.example.com'],
    ["APP_URL's host with its port written", published, 'chat.example.com:443'],
    ['loopback behind a proxy that passes its own upstream address', published, '127.0.0.1:3000'],
    ["one of the machine's addresses, listening on all", everywhere, '192.168.1.20'],
    ['an IPv6 address of the machine', everywhere, '[fe80::1]:80'],
  ])('serves %s', (_, hosts, host) => {
    expect(hostRefusal(host, hosts)).toBeUndefined();
  });

  it.each<[string, ReadonlySet<string>, string | undefined]>([
    ['a rebound DNS name on the right port', local, 'evil.example:3000'],
    ['its own address on another port', local, '127.0.0.1:3001'],
    ['the address with a trailing dot', local, '127.0.0.1.:3000'],
    ['userinfo smuggled into Host', local, 'evil.example@127.0.0.1:3000'],
    ['no Host at all', local, undefined],
    ['an empty Host', local, ''],
    ["APP_URL's host on another port", published, 'chat.example.com:8443'],
    ['a subdomain of APP_URL', published, 'evil.chat.example.com'],
    ['a name for a server listening on all interfaces', everywhere, 'evil.example'],
  ])('refuses %s with 421', (_, hosts, host) => {
    expect(hostRefusal(host, hosts)).toMatchObject({ status: 421, code: 'unknown_host', message: expect.stringContaining('APP_URL') });
  });
});

describe('the request target', () => {
  it.each([
    '/',
    '/api/me',
    '/api/facts/5f0c1f2e-0000-4000-8000-000000000000',
    '/c/%E2%9C%93',
    '/a%2Fb',
    '/?q=%zz',
    '/login?next=%2F%09%2Fevil.host%2F',
  ])('takes %j', (target) => {
    expect(targetRefusal(target)).toBeUndefined();
  });

  it.each([
    ['http://other.example/', 'invalid_request_target'],
    ['*', 'invalid_request_target'],
    ['other.example:443', 'invalid_request_target'],
    ['/api/facts/%zz', 'invalid_path'],
    ['/%E0%A4%A', 'invalid_path'],
    ['/%', 'invalid_path'],
    ['/%C0%AF', 'invalid_path'],
    ['/%FF?fine=1', 'invalid_path'],
  ])('refuses %j with 400 %s', (target, code) => {
    expect(targetRefusal(target)).toMatchObject({ status: 400, code });
  });
});

describe('body limits', () => {
  const limits = { maxBodyBytes: 1_048_576, maxImportBodyBytes: 8_388_608 };

  it.each([
    ['/api/import', 8_388_608],
    ['/api/import?x=1', 8_388_608],
    ['/api/import/', 1_048_576],
    ['/api/auth/sign-in/email', 1_048_576],
    ['/api/chat', 1_048_576],
  ])('%s reads at most %i bytes', (target, limit) => {
    expect(bodyLimitFor(target, limits)).toBe(limit);
  });

  it('refuses a declared length over the limit, and only that', () => {
    expect(declaredLengthRefusal('99999999999', 1024)).toMatchObject({
      status: 413,
      code: 'too_large',
      message: expect.stringContaining('1024 bytes'),
    });
    expect(declaredLengthRefusal('1025', 1024)).toMatchObject({ status: 413 });
    expect(declaredLengthRefusal('1024', 1024)).toBeUndefined();
    expect(declaredLengthRefusal(undefined, 1024)).toBeUndefined();
  });
});
