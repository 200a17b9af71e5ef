import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Controller } from '@tsoa/runtime';
import express from 'express';
import request from 'supertest';
import { answer, ownBody } from './own-body';

/** A controller whose method is the route's handler: it reads its context and the raw body, sets a header and maybe a status. */
class EchoController extends Controller {
  constructor(private readonly ctx: { prefix: string }) {
    super();
  }

  async echo(name: string, body: unknown): Promise<unknown> {
    if (name === 'fail') throw new Error('refused');
    this.setHeader('X-Echo', name);
    if (name === 'created') this.setStatus(201);
    return { said: `${this.ctx.prefix}${name}`, body };
  }
}

function app() {
  const a = express();
  a.locals.ctx = { prefix: 'hi ' };
  a.use(express.json());
  a.post(
    '/echo/:name',
    ownBody(EchoController, (c, req) => c.echo(String(req.params.name), req.body)),
    () => {
      throw new Error('the tsoa handler must never run');
    },
  );
  a.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
    res.status(500).json({ error: err.message }),
  );
  return a;
}

describe(ownBody.name, () => {
  it('runs the controller method with the body as sent and answers its result, headers and status as tsoa does', async () => {
    const ok = await request(app())
      .post('/echo/you')
      .send({ anything: ['goes', 1] })
      .expect(200);
    expect(ok.body).toEqual({ said: 'hi you', body: { anything: ['goes', 1] } });
    expect(ok.headers['x-echo']).toBe('you');
    expect(ok.headers['content-type']).toMatch(/^application\/json/);
    await request(app()).post('/echo/created').send({}).expect(201);
  });

  it('hands what the method throws to the error handler', async () => {
    expect((await request(app()).post('/echo/fail').send({}).expect(500)).body).toEqual({ error: 'refused' });
  });
});

describe(answer.name, () => {
  it('answers a plain node:http response (a fast lane) with the same status, headers and JSON', async () => {
    const server = http.createServer((req, res) => {
      const c = new EchoController({ prefix: '' });
      void c.echo('created', null).then((result) => answer(c, res, result));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
        .get('/')
        .expect(201);
      expect(res.body).toEqual({ said: 'created', body: null });
      expect(res.headers['x-echo']).toBe('created');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
