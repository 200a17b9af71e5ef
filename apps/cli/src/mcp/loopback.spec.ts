import { isLoopbackHost } from './loopback';

describe(isLoopbackHost.name, () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'api.localhost',
    '127.0.0.1',
    '127.8.9.1',
    '[::1]',
    '::1',
    '[0:0:0:0:0:0:0:1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    'localhost.',
  ])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(['example.com', 'localhost.example.com', '127.0.0.1.nip.io', '10.0.0.1', '0.0.0.0', '[::]', '[::2]', '128.0.0.1', ''])(
    '%s is not',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});
