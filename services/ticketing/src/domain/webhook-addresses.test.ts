import { isAllowedAddress, parseAddress, parseRanges, refusedLiteralAddress } from './webhook-addresses';

const allowed = (text: string, ranges = '') => {
  const address = parseAddress(text);
  if (!address) throw new Error(`not an address: ${text}`);
  return isAllowedAddress(address, parseRanges(ranges));
};

describe('the webhook address policy', () => {
  it.each([
    // loopback, in every notation
    '127.0.0.1', '127.255.255.254', '2130706433', '0x7f000001', '0x7f.1', '0177.0.0.1', '127.1', '::1', '[::1]', '0:0:0:0:0:0:0:1',
    // private, carrier-grade NAT, link-local (cloud metadata), this network, broadcast, multicast
    '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '100.127.255.254',
    '169.254.169.254', '2852039166', '0.0.0.0', '0', '0.1.2.3', '255.255.255.255', '224.0.0.1', '239.255.255.250',
    // IPv6: unspecified, link-local, unique-local, multicast
    '::', 'fe80::1', 'febf::1', 'fc00::1', 'fd12:3456::1', 'ff02::1',
    // IPv4 inside IPv6: mapped, compatible, translated (NAT64), 6to4
    '::ffff:127.0.0.1', '::ffff:7f00:1', '[::ffff:169.254.169.254]', '::ffff:10.0.0.1', '::7f00:1', '::a9fe:a9fe', '64:ff9b::7f00:1', '2002:7f00:1::1',
    // documentation and reserved
    '192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1', '240.0.0.1', '2001:db8::1',
  ])('refuses %s', (text) => {
    expect(allowed(text)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (text) => {
      expect(allowed(text)).toBe(true);
    },
  );

  it('allows what an operator allows, in either IPv6 notation of an IPv4 range', () => {
    expect(allowed('127.0.0.1', '127.0.0.0/8')).toBe(true);
    expect(allowed('::ffff:127.0.0.1', '127.0.0.0/8')).toBe(true);
    expect(allowed('2130706433', '127.0.0.0/8')).toBe(true);
    expect(allowed('10.20.3.4', '192.168.0.0/16, 10.20.0.0/16')).toBe(true);
    expect(allowed('10.21.0.1', '10.20.0.0/16')).toBe(false);
    expect(allowed('10.20.0.1', '::ffff:10.20.0.0/112')).toBe(true);
    expect(allowed('::1', '127.0.0.0/8')).toBe(false);
    expect(allowed('::1', '::1/128')).toBe(true);
    expect(allowed('fd00:1::5', 'fd00:1::/64')).toBe(true);
  });

  it('refuses a range that is not one, naming it', () => {
    expect(() => parseRanges('10.0.0.0/8,10.0.0.0')).toThrow("'10.0.0.0' is not a CIDR range");
    expect(() => parseRanges('localhost/8')).toThrow('localhost/8');
    expect(parseRanges(' ')).toEqual([]);
  });

  it('names a literal refused address of a URL, whatever its notation, and lets host names pass to send time', () => {
    expect(refusedLiteralAddress('http://127.0.0.1:8080/hook', [])).toBe('127.0.0.1');
    expect(refusedLiteralAddress('http://2130706433/hook', [])).toBe('127.0.0.1');
    expect(refusedLiteralAddress('http://0x7f.0.0.1/hook', [])).toBe('127.0.0.1');
    expect(refusedLiteralAddress('http://[::1]:3000/', [])).toBe('::1');
    expect(refusedLiteralAddress('http://[::ffff:127.0.0.1]/', [])).toBe('127.0.0.1');
    expect(refusedLiteralAddress('https://169.254.169.254/latest/meta-data/', [])).toBe('169.254.169.254');
    expect(refusedLiteralAddress('http://127.0.0.1./hook', [])).toBe('127.0.0.1');
    expect(refusedLiteralAddress('http://127.0.0.1:8080/hook', parseRanges('127.0.0.0/8'))).toBeNull();
    expect(refusedLiteralAddress('https://crm.example/hook', [])).toBeNull();
    expect(refusedLiteralAddress('http://localhost/hook', [])).toBeNull();
    expect(refusedLiteralAddress('https://8.8.8.8/hook', [])).toBeNull();
  });
});
