// A self-signed certificate per cell for `tls: true` scenarios (the OpenShift report
// terminated TLS 1.3 at the proxy with an RSA 2048 key); k6 skips verification.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, runSync } from '../../exec/run.js';

export function selfSignedCert(dir) {
  const cert = join(dir, 'tls.crt');
  const key = join(dir, 'tls.key');
  const argv = [
    'openssl',
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '2',
    '-subj',
    '/CN=bench.local',
  ];
  check(runSync(argv, { timeoutMs: 30_000 }), 'cannot create a self-signed certificate with openssl', {
    hint: 'apt-get install openssl',
  });
  const pem = join(dir, 'tls.pem'); // HAProxy wants certificate and key in one file
  writeFileSync(pem, readFileSync(cert, 'utf8') + readFileSync(key, 'utf8'));
  return { cert, key, pem };
}

export function nginxTls(tls) {
  return tls
    ? {
        listenSsl: 'ssl',
        sslConfig: `ssl_certificate ${tls.cert};\n    ssl_certificate_key ${tls.key};\n    ssl_protocols TLSv1.3;`,
      }
    : { listenSsl: '', sslConfig: '' };
}

export function haproxyTls(tls) {
  return { bindSsl: tls ? `ssl crt ${tls.pem} ssl-min-ver TLSv1.3` : '' };
}
