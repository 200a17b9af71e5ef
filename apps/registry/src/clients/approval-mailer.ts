import nodemailer from 'nodemailer';
import type { Mailer } from '../services/approval-notifier.service';

/**
 * Sends approval notifications over SMTP (SMTP_URL, e.g. `smtp://127.0.0.1:2525` or `smtps://user:pass@host`),
 * one connection per message, bounded by `timeoutMs` at each step; a refused or unreachable server rejects
 * the promise, and the notification's own row records the failure and its retry (docs/approvals.md
 * "Notifications"). Messages never read files or URLs (nodemailer's attachments are disabled).
 */
export function createSmtpMailer(smtpUrl: string, from: string, timeoutMs: number): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return async (mail) => {
    await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
  };
}
