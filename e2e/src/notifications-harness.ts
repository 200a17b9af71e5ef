// Helpers of the approval notification end-to-end tests (docs/approvals.md "Notifications"): a real SMTP server
// that keeps what it receives (smtp-server; nodemailer in the registry sends to it), which a test can stop and
// start again on the same port, and a reader of the mails it got.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The text and HTML parts, decoded (quoted-printable or base64), one after the other. */
  body: string;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`, the same across stop and start. */
  url: string;
  mails: ReceivedMail[];
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 (no authentication, no STARTTLS), recording every message. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            subject: headerOf(raw, 'subject'),
            body: decodeParts(raw),
          });
          callback();
        });
      },
    });
  let server = make();
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server.server.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  let running = true;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async stop() {
      if (!running) return;
      running = false;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async start() {
      if (running) return;
      server = make();
      await listen();
      running = true;
    },
  };
}

/** A header's value, unfolded, with RFC 2047 encoded words decoded. */
function headerOf(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name}:`));
  const value = line ? line.slice(name.length + 1).trim() : '';
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : quotedPrintable(text.replace(/_/g, ' ')),
    );
}

function quotedPrintable(text: string): string {
  const bytes: number[] = [];
  const flat = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < flat.length; i++) {
    if (flat[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(flat.slice(i + 1, i + 3))) {
      bytes.push(parseInt(flat.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(flat[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Every leaf part of the message, decoded by its Content-Transfer-Encoding. */
function decodeParts(raw: string): string {
  const out: string[] = [];
  const walk = (entity: string) => {
    const [head, ...rest] = entity.split(/\r?\n\r?\n/);
    const body = rest.join('\n\n');
    const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
    const boundary = /boundary="?([^";\r\n]+)"?/i.exec(unfolded)?.[1];
    if (/content-type:\s*multipart\//i.test(unfolded) && boundary) {
      for (const part of body.split(`--${boundary}`).slice(1)) if (!part.startsWith('--')) walk(part.replace(/^\r?\n/, ''));
      return;
    }
    const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(unfolded)?.[1]?.toLowerCase();
    out.push(
      encoding === 'quoted-printable'
        ? quotedPrintable(body)
        : encoding === 'base64'
          ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
          : body,
    );
  };
  walk(raw);
  return out.join('\n');
}
