/**
 * For Firefox and WebKit: a reverse proxy in front of the demo server that does what Playwright does from inside
 * Chromium. It adds the tests' init script (driver/init-script.ts) at the top of every HTML document, before the
 * page's own scripts (WebDriver classic has no "script on new document"), and records every request and
 * response the browser makes (WebDriver classic has no network events; BiDi's lack resource types). The demo
 * then runs as behind any reverse proxy: PUBLIC_URL and ALLOWED_ORIGINS name the proxy's address.
 */
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';

export interface Exchange {
  url: string;
  method: string;
  headers: Record<string, string>;
  resourceType: string;
  status?: number;
  body?: string;
}

type Listener = (exchange: Exchange) => void;

/** Playwright's resource types from the Fetch metadata the browser sends. */
const resourceTypes: Record<string, string> = {
  document: 'document',
  iframe: 'document',
  frame: 'document',
  script: 'script',
  style: 'stylesheet',
  image: 'image',
  font: 'font',
  empty: 'fetch',
  manifest: 'manifest',
  worker: 'script',
};

/** An inline script that marks the page if it runs (`data-injected="ran"` on <html>). */
export const injectedInline = '<script>document.documentElement.dataset.injected = "ran";</script>';

export interface RecordingProxy {
  port: number;
  /** Called for each request as it starts, and again with its status and body once answered. */
  onRequest(listener: Listener): () => void;
  onResponse(listener: Listener): () => void;
  close(): Promise<void>;
}

export async function startRecordingProxy(
  port: number,
  target: () => URL,
  initScript: string,
): Promise<RecordingProxy> {
  const requestListeners = new Set<Listener>();
  const responseListeners = new Set<Listener>();

  const handle = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const host = incoming.headers.host ?? `localhost:${port}`;
    if (incoming.url === '/__e2e__/init.js') {
      outgoing.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      outgoing.end(initScript);
      return;
    }
    if (incoming.url?.startsWith('/__e2e__/viewport')) {
      // A same-origin page holding the page under test in a frame of the phone's size (WebKit's window is
      // never narrower than 447 px).
      const size = new URL(incoming.url, 'http://x').searchParams;
      outgoing.writeHead(200, { 'content-type': 'text/html' });
      outgoing.end(
        `<!doctype html><html><head><style>html,body{margin:0;overflow:hidden}iframe{position:absolute;left:0;top:0;border:0}</style></head>` +
          `<body><iframe id="e2e-viewport" style="width:${Number(size.get('width'))}px;height:${Number(size.get('height'))}px"></iframe></body></html>`,
      );
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (typeof value === 'string') headers[name] = value;
      else if (Array.isArray(value)) headers[name] = value.join(', ');
    }
    const exchange: Exchange = {
      url: `http://${host}${incoming.url ?? '/'}`,
      method: incoming.method ?? 'GET',
      headers,
      resourceType: resourceTypes[headers['sec-fetch-dest'] ?? ''] ?? 'other',
    };
    for (const listener of requestListeners) listener(exchange);
    // Identity bodies: an HTML document gets the init script added.
    const {
      'accept-encoding': _encoding,
      connection: _connection,
      'keep-alive': _keepAlive,
      ...forwarded
    } = incoming.headers;
    const upstream = request(
      new URL(incoming.url ?? '/', target()),
      { method: incoming.method, headers: forwarded, agent: false },
      (answer) => {
        exchange.status = answer.statusCode ?? 502;
        const type = String(answer.headers['content-type'] ?? '');
        const streaming = type.startsWith('text/event-stream');
        const html = type.startsWith('text/html');
        if (streaming) {
          outgoing.writeHead(exchange.status, answer.headers);
          outgoing.flushHeaders();
          answer.pipe(outgoing);
          for (const listener of responseListeners) listener(exchange);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          if (html) {
            const csp = String(answer.headers['content-security-policy'] ?? '');
            const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
            const tag = `<script src="/__e2e__/init.js"${nonce ? ` nonce="${nonce}"` : ''}></script>`;
            let text = body.toString('utf8');
            const head = /<head[^>]*>/i.exec(text);
            const at = head ? head.index + head[0].length : (/<html[^>]*>/i.exec(text)?.[0].length ?? 0);
            // What an attacker's markup injection would add (test/csp.test.ts): the page's CSP must block it.
            if (/[?&]e2e-inject=inline\b/.test(incoming.url ?? ''))
              text = text.replace('</body>', `${injectedInline}</body>`);
            body = Buffer.from(text.slice(0, at) + tag + text.slice(at), 'utf8');
          }
          const responseHeaders = { ...answer.headers };
          delete responseHeaders['transfer-encoding'];
          if (answer.headers['content-length'] !== undefined || html) {
            responseHeaders['content-length'] = String(body.length);
          }
          outgoing.writeHead(exchange.status ?? 502, responseHeaders);
          outgoing.end(body);
          if (/^(text\/|application\/(json|javascript|problem\+json))/.test(type)) {
            exchange.body = body.toString('utf8');
          }
          for (const listener of responseListeners) listener(exchange);
        });
        answer.on('error', () => outgoing.destroy());
      },
    );
    upstream.on('error', (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`e2e proxy: ${error.message}`);
    });
    outgoing.on('close', () => upstream.destroy());
    incoming.pipe(upstream);
  };

  // The demo is opened at localhost, 127.0.0.1 and [::1]: one port on both loopback addresses.
  const servers: Server[] = [];
  for (const address of ['127.0.0.1', '::1']) {
    const server = createServer(handle);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, address, () => resolve());
    });
    servers.push(server);
  }
  const subscribe = (set: Set<Listener>) => (listener: Listener) => {
    set.add(listener);
    return () => set.delete(listener);
  };
  return {
    port,
    onRequest: subscribe(requestListeners),
    onResponse: subscribe(responseListeners),
    close: async () => {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}
