import { webhookUrlProblem } from './webhook-urls';

describe("the platform's webhook URL rule", () => {
  it('takes HTTPS on the default port', () => {
    expect(webhookUrlProblem('https://hooks.example.com/webhooks/prod', false)).toBeNull();
    expect(webhookUrlProblem('https://hooks.example.com:443/webhooks/prod', false)).toBeNull(); // 443 is the default port: no port in the URL
  });

  it('refuses plain http and a port, unless the local setting allows them', () => {
    expect(webhookUrlProblem('http://hooks.example.com/webhooks/prod', false)).toMatch(/HTTPS webhook URLs only/);
    expect(webhookUrlProblem('https://hooks.example.com:8443/webhooks/prod', false)).toMatch(/without a port/);
    expect(webhookUrlProblem('http://127.0.0.1:3001/webhooks/dev', true)).toBeNull();
  });

  it('refuses what is not an http(s) URL even locally', () => {
    expect(webhookUrlProblem('ftp://hooks.example.com/x', true)).toMatch(/not an http\(s\) URL/);
    expect(webhookUrlProblem('not a url', true)).toMatch(/not a URL/);
  });
});
